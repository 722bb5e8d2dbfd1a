// The fully pipelined NTT core (issue 30's improvement over the paper's ntt_core): Pipelines
// copies of ntt_pipeline_pipe, one butterfly per cycle in every round unit, lane p carrying
// sub-tasks p, p + Pipelines, … on bits [p·2·Width +: 2·Width] of the data ports, two
// elements a beat: in, beat j of a sub-task is {x_{j+2^(LogPoints−1)}, x_j}; out, beat k is
// {X_{2k+1}, X_{2k}} of the bit-reversed-order transform. Configuration as ntt_core: the
// modulus and P' through cfg_*, the twiddles ω^t (t < 2^(LogPoints−1)) through tw_*, while
// idle.
module ntt_core_pipe #(
  parameter int Width      = 256,
  parameter int LogPoints  = 8,
  parameter int Pipelines  = 1,
  parameter int MulLatency = 4
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic                           cfg_we_i,
  input  logic [Width-1:0]               cfg_modulus_i,
  input  logic [Width-1:0]               cfg_modulus_inv_i,
  input  logic                           tw_we_i,
  input  logic [LogPoints-2:0]           tw_addr_i,
  input  logic [Width-1:0]               tw_data_i,
  input  logic [Pipelines-1:0]           in_valid_i,
  output logic [Pipelines-1:0]           in_ready_o,
  input  logic [Pipelines*2*Width-1:0]   in_data_i,
  output logic [Pipelines-1:0]           out_valid_o,
  input  logic [Pipelines-1:0]           out_ready_i,
  output logic [Pipelines*2*Width-1:0]   out_data_o
);
  for (genvar p = 0; p < Pipelines; p++) begin : gen_pipeline
    ntt_pipeline_pipe #(
      .Width      (Width),
      .LogPoints  (LogPoints),
      .MulLatency (MulLatency)
    ) u_pipeline (
      .clk_i,
      .rst_ni,
      .cfg_we_i,
      .cfg_modulus_i,
      .cfg_modulus_inv_i,
      .tw_we_i,
      .tw_addr_i,
      .tw_data_i,
      .in_valid_i  (in_valid_i[p]),
      .in_ready_o  (in_ready_o[p]),
      .in_data_i   (in_data_i[p*2*Width +: 2*Width]),
      .out_valid_o (out_valid_o[p]),
      .out_ready_i (out_ready_i[p]),
      .out_data_o  (out_data_o[p*2*Width +: 2*Width])
    );
  end
endmodule
