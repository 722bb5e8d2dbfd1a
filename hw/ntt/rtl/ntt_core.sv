// The FPGA NTT paper's NTT core (§III-C): a 2^(LogPoints+n)-point task (4096 in the paper) is
// processed as 2^n sub-tasks of 2^LogPoints points, each sub-task through a pipeline of
// LogPoints round units (one butterfly unit per round), with Pipelines identical pipelines in
// parallel ("sub-tasks in parallel"). Table III's configurations are (LogPoints, Pipelines) =
// (8, 1), (8, 2), (4, 1), (4, 2), (4, 4) on 4096 points.
//
// Lane p carries sub-tasks p, p + Pipelines, p + 2·Pipelines, … on bits [p·Width +: Width] of
// the data ports (flat vectors, for tools without packed multi-dimensional arrays): elements
// in natural order in,
// the sub-task's transform in bit-reversed order out (Montgomery form both ways). The core
// computes any number of sub-tasks; the task size is the caller's.
//
// Configuration (while idle): the modulus and P' = −P^{−1} mod 2^Width through cfg_*, the
// twiddles ω^k (k < 2^(LogPoints−1), ω of order 2^LogPoints, Montgomery form) through tw_*,
// written by the Rust golden model (`zkaccel hw ntt-vectors`).
module ntt_core #(
  parameter int Width      = 256,
  parameter int LogPoints  = 8,
  parameter int Pipelines  = 1,
  parameter int MulLatency = 4,
  // 1: the paper's core (sub-tasks overlap); 0: its PipeZK replica (see ntt_pipeline).
  parameter int SubtaskOverlap = 1
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
  input  logic [Pipelines*Width-1:0]     in_data_i,
  output logic [Pipelines-1:0]           out_valid_o,
  input  logic [Pipelines-1:0]           out_ready_i,
  output logic [Pipelines*Width-1:0]     out_data_o
);
  for (genvar p = 0; p < Pipelines; p++) begin : gen_pipeline
    ntt_pipeline #(
      .Width      (Width),
      .LogPoints  (LogPoints),
      .MulLatency     (MulLatency),
      .SubtaskOverlap (SubtaskOverlap)
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
      .in_data_i   (in_data_i[p*Width +: Width]),
      .out_valid_o (out_valid_o[p]),
      .out_ready_i (out_ready_i[p]),
      .out_data_o  (out_data_o[p*Width +: Width])
    );
  end
endmodule
