// The datapath of the FPGA NTT paper's √N×√N plan (§III-B): an N = N1·N2-point transform as
// N2 sub-tasks of N1 points through the NTT core, each output multiplied by a twiddle
// ω_N^(n2·k1), then N1 sub-tasks of N2 points through the core again. This top holds the core
// (ntt_core, every port passed through) and the twiddle scaler between the passes, one
// Montgomery unit (hw/common mont_mul) taking (value, twiddle) pairs in order. The
// re-partition between the passes (the transpose) is the host's, as the paper's host queues
// the tasks and converts to Montgomery form; the bench plays the host.
module ntt_four_step #(
  parameter int Width          = 256,
  parameter int LogPoints      = 8,
  parameter int Pipelines      = 1,
  parameter int MulLatency     = 5,
  parameter int SubtaskOverlap = 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            cfg_we_i,
  input  logic [Width-1:0]                cfg_modulus_i,
  input  logic [Width-1:0]                cfg_modulus_inv_i,
  input  logic                            tw_we_i,
  input  logic [LogPoints-2:0]            tw_addr_i,
  input  logic [Width-1:0]                tw_data_i,
  input  logic [Pipelines-1:0]            in_valid_i,
  output logic [Pipelines-1:0]            in_ready_o,
  input  logic [Pipelines*Width-1:0]   in_data_i,
  output logic [Pipelines-1:0]            out_valid_o,
  input  logic [Pipelines-1:0]            out_ready_i,
  output logic [Pipelines*Width-1:0]   out_data_o,
  // The twiddle scaler: value·twiddle (Montgomery form), results in order.
  input  logic                            scale_in_valid_i,
  output logic                            scale_in_ready_o,
  input  logic [Width-1:0]                scale_value_i,
  input  logic [Width-1:0]                scale_twiddle_i,
  output logic                            scale_out_valid_o,
  input  logic                            scale_out_ready_i,
  output logic [Width-1:0]                scale_out_o
);
  ntt_core #(
    .Width          (Width),
    .LogPoints      (LogPoints),
    .Pipelines      (Pipelines),
    .MulLatency     (MulLatency),
    .SubtaskOverlap (SubtaskOverlap)
  ) u_core (
    .clk_i,
    .rst_ni,
    .cfg_we_i,
    .cfg_modulus_i,
    .cfg_modulus_inv_i,
    .tw_we_i,
    .tw_addr_i,
    .tw_data_i,
    .in_valid_i,
    .in_ready_o,
    .in_data_i,
    .out_valid_o,
    .out_ready_i,
    .out_data_o
  );

  mont_mul #(
    .Width      (Width),
    .MulLatency (MulLatency)
  ) u_scaler (
    .clk_i,
    .rst_ni,
    .cfg_we_i,
    .cfg_modulus_i,
    .cfg_modulus_inv_i,
    .in_valid_i  (scale_in_valid_i),
    .in_ready_o  (scale_in_ready_o),
    .a_i         (scale_value_i),
    .b_i         (scale_twiddle_i),
    .out_valid_o (scale_out_valid_o),
    .out_ready_i (scale_out_ready_i),
    .c_o         (scale_out_o)
  );
endmodule
