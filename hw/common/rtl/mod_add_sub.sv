// Modular addition and subtraction without dividers, as the FPGA NTT paper builds them from
// comparators, adders and subtractors: with a, b < P,
//
//   sum  = a + b, less P when a + b ≥ P;     diff = a − b, plus P when a < b.
//
// Combinational; the caller registers the results. One conditional correction each suffices
// because a + b < 2P and −P < a − b < P.
module mod_add_sub #(
  parameter int Width = 256
) (
  input  logic [Width-1:0] modulus_i,
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  output logic [Width-1:0] sum_o,
  output logic [Width-1:0] diff_o
);
  logic [Width:0] sum_raw, sum_less_p, diff_raw;

  always_comb begin
    sum_raw    = {1'b0, a_i} + {1'b0, b_i};
    // Negative (top bit set) exactly when a + b < P, since a + b − P > −2^Width.
    sum_less_p = sum_raw - {1'b0, modulus_i};
    sum_o      = sum_less_p[Width] ? sum_raw[Width-1:0] : sum_less_p[Width-1:0];
    // Negative exactly when a < b; then a − b + P, computed modulo 2^Width, is the result.
    diff_raw   = {1'b0, a_i} - {1'b0, b_i};
    diff_o     = diff_raw[Width] ? diff_raw[Width-1:0] + modulus_i : diff_raw[Width-1:0];
  end
endmodule
