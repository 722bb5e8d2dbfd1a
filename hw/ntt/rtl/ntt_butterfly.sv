// The decimation-in-frequency butterfly of the FPGA NTT paper's round units:
//
//   top ← a + b,    bottom ← (a − b)·w        (mod P, values in Montgomery form)
//
// The sum leaves one cycle after the operands are accepted; the product goes through one
// Montgomery multiplier (hw/common/mont_mul, Algorithm 1, one shared wide multiplier), so a
// butterfly issues every Montgomery latency, 3·(MulLatency + 1) + 1 cycles: the next
// operands are accepted in the cycle the previous product leaves. That is the paper-faithful
// setting (Table III implies one butterfly per ~18.6 cycles per unit).
//
// The two results leave one at a time through one output port (index and value), the top
// first: the next round's reorder buffer has one write port.
module ntt_butterfly #(
  parameter int Width      = 256,
  parameter int IndexWidth = 8,
  parameter int MulLatency = 4
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Configuration: the modulus P and P' = −P^{−1} mod 2^Width (written while idle).
  input  logic                  cfg_we_i,
  input  logic [Width-1:0]      cfg_modulus_i,
  input  logic [Width-1:0]      cfg_modulus_inv_i,
  // Operands: a, b, the twiddle w and the indices the two results are written to.
  input  logic                  in_valid_i,
  output logic                  in_ready_o,
  input  logic [Width-1:0]      a_i,
  input  logic [Width-1:0]      b_i,
  input  logic [Width-1:0]      twiddle_i,
  input  logic [IndexWidth-1:0] top_index_i,
  input  logic [IndexWidth-1:0] bottom_index_i,
  // Results, one per beat.
  output logic                  out_valid_o,
  input  logic                  out_ready_i,
  output logic [IndexWidth-1:0] out_index_o,
  output logic [Width-1:0]      out_data_o
);
  logic [Width-1:0] modulus_q;
  always_ff @(posedge clk_i) begin
    if (cfg_we_i) begin
      modulus_q <= cfg_modulus_i;
    end
  end

  logic [Width-1:0] sum, diff;
  mod_add_sub #(.Width(Width)) u_add_sub (
    .modulus_i (modulus_q),
    .a_i,
    .b_i,
    .sum_o     (sum),
    .diff_o    (diff)
  );

  // The top result waits here until the output port takes it; the bottom one waits in the
  // multiplier's result register, its index here.
  logic                  top_valid_q;
  logic [Width-1:0]      top_data_q;
  logic [IndexWidth-1:0] top_index_q, bottom_index_q;

  logic mul_in_valid, mul_in_ready, mul_out_valid, mul_out_ready;
  logic [Width-1:0] product;

  // The top result has priority on the port; the slot frees when it is taken.
  logic top_free;
  assign top_free      = !top_valid_q || out_ready_i;
  assign mul_out_ready = out_ready_i && !top_valid_q;
  assign mul_in_valid  = in_valid_i && top_free;
  assign in_ready_o    = mul_in_ready && top_free;

  mont_mul #(
    .Width      (Width),
    .MulLatency (MulLatency)
  ) u_mont_mul (
    .clk_i,
    .rst_ni,
    .cfg_we_i,
    .cfg_modulus_i,
    .cfg_modulus_inv_i,
    .in_valid_i  (mul_in_valid),
    .in_ready_o  (mul_in_ready),
    .a_i         (diff),
    .b_i         (twiddle_i),
    .out_valid_o (mul_out_valid),
    .out_ready_i (mul_out_ready),
    .c_o         (product)
  );

  logic accept;
  assign accept = in_valid_i && in_ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      top_valid_q <= 1'b0;
    end else if (accept) begin
      top_valid_q <= 1'b1;
    end else if (out_ready_i) begin
      top_valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (accept) begin
      top_data_q     <= sum;
      top_index_q    <= top_index_i;
      bottom_index_q <= bottom_index_i;
    end
  end

  assign out_valid_o = top_valid_q || mul_out_valid;
  assign out_index_o = top_valid_q ? top_index_q : bottom_index_q;
  assign out_data_o  = top_valid_q ? top_data_q : product;
endmodule
