// One pipeline of the FPGA NTT paper's NTT core: LogPoints round units in a chain, each
// round's reorder buffer fed by the previous round's butterfly, computing 2^LogPoints-point
// decimation-in-frequency transforms (natural order in, bit-reversed order out, as
// zkaccel-ntt's `Order::NR`) of a stream of sub-tasks, one after another without a break.
//
// Input: the sub-tasks' elements in natural order, one per beat. Output: each sub-task's
// transform in bit-reversed order (index order of the last round), one per beat.
module ntt_pipeline #(
  parameter int Width      = 256,
  parameter int LogPoints  = 8,
  parameter int MulLatency = 4,
  // 1: sub-tasks overlap (the paper's design: the next one starts while the previous drains
  // through the later rounds, issue every T). 0: the PipeZK replica the paper compares with
  // (Tables IV, V): a sub-task enters only when the previous one has left (issue every ~2T).
  parameter int SubtaskOverlap = 1
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
  input  logic [Width-1:0]     in_data_i,
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [Width-1:0]     out_data_o
);
  // The element index of the input, counted.
  logic [LogPoints-1:0] in_index_q;
  logic                 in_take;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_index_q <= '0;
    end else if (in_take) begin
      in_index_q <= in_index_q + 1'b1;
    end
  end

  // Stream r enters round r; stream LogPoints leaves the last round.
  logic                 valid [LogPoints + 1];
  logic                 ready [LogPoints + 1];
  logic [LogPoints-1:0] index [LogPoints + 1];
  logic [Width-1:0]     data  [LogPoints + 1];

  // Without overlap, a sub-task's first element waits until the pipeline is empty.
  logic admit;
  if (SubtaskOverlap != 0) begin : gen_overlap
    assign admit = 1'b1;
  end else begin : gen_no_overlap
    logic                 busy_q;   // a sub-task is in the pipeline
    logic [LogPoints-1:0] out_count_q;
    logic                 out_take;
    assign out_take = out_valid_o && out_ready_i;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        busy_q      <= 1'b0;
        out_count_q <= '0;
      end else begin
        if (out_take) begin
          out_count_q <= out_count_q + 1'b1;
        end
        if (in_take && in_index_q == '0) begin
          busy_q <= 1'b1;
        end else if (out_take && out_count_q == LogPoints'((1 << LogPoints) - 1)) begin
          busy_q <= 1'b0;
        end
      end
    end
    assign admit = !busy_q || in_index_q != '0;
  end

  assign valid[0]   = in_valid_i && admit;
  assign in_ready_o = ready[0] && admit;
  assign in_take    = in_valid_i && in_ready_o;
  assign index[0]   = in_index_q;
  assign data[0]    = in_data_i;

  for (genvar r = 0; r < LogPoints; r++) begin : gen_round
    ntt_round #(
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
      .in_index_i  (index[r]),
      .in_data_i   (data[r]),
      .out_valid_o (valid[r+1]),
      .out_ready_i (ready[r+1]),
      .out_index_o (index[r+1]),
      .out_data_o  (data[r+1])
    );
  end

  // The last round's results leave in index order (its butterflies take pairs (2i, 2i+1) in
  // order, the top first), so the index is not needed outside.
  assign out_valid_o       = valid[LogPoints];
  assign ready[LogPoints]  = out_ready_i;
  assign out_data_o        = data[LogPoints];
  logic unused_last_index;
  assign unused_last_index = ^index[LogPoints];
endmodule
