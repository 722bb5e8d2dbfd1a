// AcclMT's configurable S-box, x ↦ x^α in Montgomery form, on three pipelined Montgomery
// multipliers (hw/common's mont_mul_pipe) in a chain — "a configurable S-box with three modular
// multipliers for exponents 3 and 5 [that] can also handle exponent 7 with an Initial Interval
// (II) of 2" (AcclMT §III):
//
//   α = 3:  x² = x·x,  x³ = x²·x,              x³·1      (the last multiplier by Montgomery one)
//   α = 5:  x² = x·x,  x⁴ = x²·x²,             x⁵ = x⁴·x
//   α = 7:  x² = x·x,  x³ = x²·x then x⁴ = x²·x² (the middle multiplier twice, one cycle
//           apart),                            x⁷ = x³·x⁴
//
// For α = 7 the caller leaves the cycle after each operand empty (II 2). Every exponent has
// the same latency, Latency = 3·MontLatency + 1 cycles (MontLatency = 3·(MulLatency + 1), the
// multiplier's): the middle product waits one cycle in a register so that α = 7's two middle
// products meet. The multipliers never stall (their results are always taken).
//
// cfg_alpha_i: 0 → α = 3, 1 → α = 5, 2 → α = 7 (3 is reserved and computes α = 5). The
// modulus, P' and one (R mod P) are the engine's configuration registers; cfg_we_i loads the
// multipliers' copies and must be pulsed after they change, with no operation in flight.
module acclmt_sbox #(
  parameter int Width      = 256,
  parameter int MulLatency = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             cfg_we_i,
  input  logic [Width-1:0] cfg_modulus_i,
  input  logic [Width-1:0] cfg_modulus_inv_i,
  input  logic [Width-1:0] cfg_one_i,
  input  logic [1:0]       cfg_alpha_i,
  input  logic             valid_i,
  input  logic [Width-1:0] x_i,
  output logic             valid_o,
  output logic [Width-1:0] y_o
);
  localparam int MontLatency = 3 * (MulLatency + 1);

  logic alpha3, alpha7;
  assign alpha3 = cfg_alpha_i == 2'd0;
  assign alpha7 = cfg_alpha_i == 2'd2;

  // x beside the chain: at the middle multiplier (MontLatency) and at the last (2·MontLatency + 1).
  logic [Width-1:0] x_mid, x_last;
  acclmt_delay #(.Width(Width), .Depth(MontLatency)) u_x_mid (
    .clk_i, .data_i(x_i), .data_o(x_mid)
  );
  acclmt_delay #(.Width(Width), .Depth(MontLatency + 1)) u_x_last (
    .clk_i, .data_i(x_mid), .data_o(x_last)
  );

  // x² = x·x.
  logic             sq_valid;
  logic [Width-1:0] sq;
  logic             unused_sq_ready;
  mont_mul_pipe #(.Width(Width), .MulLatency(MulLatency)) u_mul_sq (
    .clk_i, .rst_ni,
    .cfg_we_i, .cfg_modulus_i, .cfg_modulus_inv_i,
    .in_valid_i(valid_i), .in_ready_o(unused_sq_ready), .a_i(x_i), .b_i(x_i),
    .out_valid_o(sq_valid), .out_ready_i(1'b1), .c_o(sq)
  );

  // The middle multiplier: x²·x (α 3, and α 7's first), x²·x² (α 5, and α 7's second, from
  // the held square in the cycle after it arrived).
  logic             sq_valid_q;
  logic [Width-1:0] sq_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sq_valid_q <= 1'b0;
    end else begin
      sq_valid_q <= sq_valid;
    end
  end
  always_ff @(posedge clk_i) begin
    sq_q <= sq;
  end

  logic             second;  // α 7's second middle product issues now
  logic             mid_in_valid;
  logic [Width-1:0] mid_a, mid_b;
  always_comb begin
    second       = alpha7 && sq_valid_q;
    mid_in_valid = sq_valid || second;
    mid_a        = second ? sq_q : sq;
    if (second) begin
      mid_b = sq_q;
    end else if (alpha3 || alpha7) begin
      mid_b = x_mid;
    end else begin
      mid_b = sq;
    end
  end

  logic             mid_valid;
  logic [Width-1:0] mid;
  logic             unused_mid_ready;
  mont_mul_pipe #(.Width(Width), .MulLatency(MulLatency)) u_mul_mid (
    .clk_i, .rst_ni,
    .cfg_we_i, .cfg_modulus_i, .cfg_modulus_inv_i,
    .in_valid_i(mid_in_valid), .in_ready_o(unused_mid_ready), .a_i(mid_a), .b_i(mid_b),
    .out_valid_o(mid_valid), .out_ready_i(1'b1), .c_o(mid)
  );

  // Which middle products were α 7's second: those do not start a last product.
  logic second_late;
  acclmt_delay #(.Width(1), .Depth(MontLatency + 1)) u_second (
    .clk_i, .data_i(second), .data_o(second_late)
  );

  logic             mid_valid_q;
  logic [Width-1:0] mid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mid_valid_q <= 1'b0;
    end else begin
      mid_valid_q <= mid_valid;
    end
  end
  always_ff @(posedge clk_i) begin
    mid_q <= mid;
  end

  // The last multiplier: x³·1, x⁴·x or x³·x⁴.
  logic             last_in_valid;
  logic [Width-1:0] last_b;
  always_comb begin
    last_in_valid = mid_valid_q && !second_late;
    if (alpha7) begin
      last_b = mid;
    end else if (alpha3) begin
      last_b = cfg_one_i;
    end else begin
      last_b = x_last;
    end
  end

  logic unused_last_ready;
  mont_mul_pipe #(.Width(Width), .MulLatency(MulLatency)) u_mul_last (
    .clk_i, .rst_ni,
    .cfg_we_i, .cfg_modulus_i, .cfg_modulus_inv_i,
    .in_valid_i(last_in_valid), .in_ready_o(unused_last_ready), .a_i(mid_q), .b_i(last_b),
    .out_valid_o(valid_o), .out_ready_i(1'b1), .c_o(y_o)
  );

  logic unused;
  assign unused = ^{unused_sq_ready, unused_mid_ready, unused_last_ready};
endmodule
