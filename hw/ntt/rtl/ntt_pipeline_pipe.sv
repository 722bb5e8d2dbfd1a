// One pipeline of the fully pipelined NTT core: LogPoints ntt_round_pipe units in a chain,
// one butterfly per cycle in every round, on beats of two elements. In: beat j of a sub-task
// is (x_j, x_{j+2^(LogPoints−1)}), j = 0 … 2^(LogPoints−1) − 1. Out: beat k is the
// bit-reversed-order outputs 2k and 2k + 1 (zkaccel-ntt's `Order::NR`). Sub-tasks follow one
// another without a break.
module ntt_pipeline_pipe #(
  parameter int Width      = 256,
  parameter int LogPoints  = 8,
  parameter int MulLatency = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 cfg_we_i,
  input  logic [Width-1:0]     cfg_modulus_i,
  input  logic [Width-1:0]     cfg_modulus_inv_i,
  input  logic                 tw_we_i,
  input  logic [LogPoints-2:0] tw_addr_i,
  input  logic [Width-1:0]     tw_data_i,
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [2*Width-1:0]   in_data_i,   // {x_{j+M/2}, x_j}
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [2*Width-1:0]   out_data_o   // {X_{2k+1}, X_{2k}} (bit-reversed order)
);
  // Stream r enters round r; stream LogPoints leaves the last round.
  logic             valid [LogPoints + 1];
  logic             ready [LogPoints + 1];
  logic [Width-1:0] lo    [LogPoints + 1];
  logic [Width-1:0] hi    [LogPoints + 1];

  assign valid[0]    = in_valid_i;
  assign in_ready_o  = ready[0];
  assign lo[0]       = in_data_i[Width-1:0];
  assign hi[0]       = in_data_i[2*Width-1:Width];
  assign out_valid_o = valid[LogPoints];
  assign ready[LogPoints] = out_ready_i;
  assign out_data_o  = {hi[LogPoints], lo[LogPoints]};

  for (genvar r = 0; r < LogPoints; r++) begin : gen_round
    ntt_round_pipe #(
      .Width      (Width),
      .LogPoints  (LogPoints),
      .Round      (r),
      .MulLatency (MulLatency)
    ) u_round (
      .clk_i,
      .rst_ni,
      .cfg_we_i,
      .cfg_modulus_i,
      .cfg_modulus_inv_i,
      .tw_we_i,
      .tw_addr_i,
      .tw_data_i,
      .in_valid_i  (valid[r]),
      .in_ready_o  (ready[r]),
      .in_lo_i     (lo[r]),
      .in_hi_i     (hi[r]),
      .out_valid_o (valid[r+1]),
      .out_ready_i (ready[r+1]),
      .out_lo_o    (lo[r+1]),
      .out_hi_o    (hi[r+1])
    );
  end
endmodule
