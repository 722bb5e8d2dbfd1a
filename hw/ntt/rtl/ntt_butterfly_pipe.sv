// The fully pipelined DIF butterfly (issue 30's improvement over the paper-faithful
// ntt_butterfly): a pair register, then `a + b` and `a − b` (mod_add_sub), `(a − b)·w`
// through the fully pipelined Montgomery multiplier (mont_mul_pipe) with `a + b` travelling
// beside it in a delay line of the multiplier's latency. One butterfly enters per cycle; its
// two results leave together, 3·(MulLatency + 1) + 1 cycles later. The whole pipeline holds
// while a result waits to be taken.
module ntt_butterfly_pipe #(
  parameter int Width      = 256,
  parameter int MulLatency = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             cfg_we_i,
  input  logic [Width-1:0] cfg_modulus_i,
  input  logic [Width-1:0] cfg_modulus_inv_i,
  // A pair and its twiddle (Montgomery form), valid/ready.
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  input  logic [Width-1:0] twiddle_i,
  // a + b and (a − b)·w, valid/ready.
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] sum_o,
  output logic [Width-1:0] product_o
);
  localparam int Latency = 3 * (MulLatency + 1);

  logic [Width-1:0] modulus_q;
  always_ff @(posedge clk_i) begin
    if (cfg_we_i) begin
      modulus_q <= cfg_modulus_i;
    end
  end

  // The pair register.
  logic             pair_valid_q;
  logic [Width-1:0] a_q, b_q, twiddle_q;
  logic             mul_in_ready;
  logic             pair_advance;
  assign pair_advance = !pair_valid_q || mul_in_ready;
  assign in_ready_o   = pair_advance;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pair_valid_q <= 1'b0;
    end else if (pair_advance) begin
      pair_valid_q <= in_valid_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (pair_advance && in_valid_i) begin
      a_q       <= a_i;
      b_q       <= b_i;
      twiddle_q <= twiddle_i;
    end
  end

  logic [Width-1:0] sum, diff;
  mod_add_sub #(
    .Width (Width)
  ) u_add_sub (
    .modulus_i (modulus_q),
    .a_i       (a_q),
    .b_i       (b_q),
    .sum_o     (sum),
    .diff_o    (diff)
  );

  mont_mul_pipe #(
    .Width      (Width),
    .MulLatency (MulLatency)
  ) u_mul (
    .clk_i,
    .rst_ni,
    .cfg_we_i,
    .cfg_modulus_i,
    .cfg_modulus_inv_i,
    .in_valid_i  (pair_valid_q),
    .in_ready_o  (mul_in_ready),
    .a_i         (diff),
    .b_i         (twiddle_q),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .c_o         (product_o)
  );

  // a + b beside the product: the multiplier's stages all move when it accepts (its
  // in_ready), so a delay line moved by the same signal keeps the two together.
  logic [Width-1:0] sum_delay_q [Latency];
  always_ff @(posedge clk_i) begin
    if (mul_in_ready) begin
      sum_delay_q[0] <= sum;
      for (int s = 1; s < Latency; s++) begin
        sum_delay_q[s] <= sum_delay_q[s-1];
      end
    end
  end
  assign sum_o = sum_delay_q[Latency-1];
endmodule
