// Montgomery modular multiplication as the FPGA NTT paper's Algorithm 1 states it, full-width
// REDC with R = 2^Width:
//
//   T ← A·B;  M ← T·P' mod R;  C ← (M·P + T)/R;  if C ≥ P then C ← C − P
//
// with P' = −P^{−1} mod R. The three products share one Width×Width multiplier
// (mont_wide_mul, built from 64-bit-limb partial products), as the paper shares one through
// HLS `allocation`, so one multiplication is in flight at a time: an operation takes
// 3·(MulLatency + 1) cycles from its acceptance to its result, and
// the unit accepts the next operation in the cycle its result is taken. The modulus and P' are
// run-time registers, written through the configuration port (cfg_we_i) while the unit is
// idle.
//
// Inputs must be below P (then T < P², M < R, and M·P + T < R·P + P² < 2·R·P, so one
// conditional subtraction suffices). The result is C = A·B·R^{−1} mod P, below P.
module mont_mul #(
  parameter int Width      = 256,
  parameter int MulLatency = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Configuration: the modulus P and P' = −P^{−1} mod 2^Width.
  input  logic             cfg_we_i,
  input  logic [Width-1:0] cfg_modulus_i,
  input  logic [Width-1:0] cfg_modulus_inv_i,
  // Operands (valid/ready).
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  // Result (valid/ready).
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] c_o
);
  typedef enum logic [2:0] {
    StIdle,
    StMulAB,
    StMulM,
    StMulMP,
    StDone
  } state_e;

  state_e             state_d, state_q;
  logic [Width-1:0]   modulus_q, modulus_inv_q;
  logic [Width-1:0]   a_q, b_q;
  logic [2*Width-1:0] t_d, t_q;
  logic [Width-1:0]   m_d, m_q;
  logic [2*Width:0]   sum_d, sum_q;
  logic [Width-1:0]   c;

  // The shared multiplier: its operands come from registers chosen by the state, and it is
  // started once per product (mul_start), in the cycle after the operands are in place.
  logic               mul_start;
  logic [Width-1:0]   mul_a, mul_b;
  logic               mul_done;
  logic [2*Width-1:0] mul_product;

  mont_wide_mul #(
    .Width    (Width),
    .Latency  (MulLatency)
  ) u_mul (
    .clk_i,
    .rst_ni,
    .en_i      (1'b1),
    .valid_i   (mul_start),
    .a_i       (mul_a),
    .b_i       (mul_b),
    .valid_o   (mul_done),
    .product_o (mul_product)
  );

  logic started_d, started_q;

  always_comb begin
    unique case (state_q)
      StMulM:  begin mul_a = t_q[Width-1:0]; mul_b = modulus_inv_q; end
      StMulMP: begin mul_a = m_q;            mul_b = modulus_q;     end
      default: begin mul_a = a_q;            mul_b = b_q;           end
    endcase
  end

  always_comb begin
    state_d   = state_q;
    t_d       = t_q;
    m_d       = m_q;
    sum_d     = sum_q;
    started_d = started_q;
    mul_start = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          state_d   = StMulAB;
          started_d = 1'b0;
        end
      end
      StMulAB, StMulM, StMulMP: begin
        // Start the product once, then wait for it.
        mul_start = !started_q;
        started_d = 1'b1;
        if (mul_done) begin
          started_d = 1'b0;
          unique case (state_q)
            StMulAB: begin
              t_d     = mul_product;                       // T ← A·B
              state_d = StMulM;
            end
            StMulM: begin
              m_d     = mul_product[Width-1:0];            // M ← T·P' mod R
              state_d = StMulMP;
            end
            default: begin
              sum_d   = {1'b0, mul_product} + {1'b0, t_q}; // M·P + T (2·Width + 1 bits)
              state_d = StDone;
            end
          endcase
        end
      end
      StDone: begin
        // The result is taken; the next operation may be accepted in the same cycle.
        if (out_ready_i) begin
          if (in_valid_i) begin
            state_d = StMulAB;
          end else begin
            state_d = StIdle;
          end
          started_d = 1'b0;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      started_q <= 1'b0;
    end else begin
      state_q   <= state_d;
      started_q <= started_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_ready_o && in_valid_i) begin
      a_q <= a_i;
      b_q <= b_i;
    end
    if (state_q == StIdle && cfg_we_i) begin
      modulus_q     <= cfg_modulus_i;
      modulus_inv_q <= cfg_modulus_inv_i;
    end
    t_q   <= t_d;
    m_q   <= m_d;
    sum_q <= sum_d;
  end

  // Idle, or handing its result over in this cycle: back-to-back operations issue one per
  // latency, 3·(MulLatency + 1) cycles.
  assign in_ready_o  = (state_q == StIdle) || (state_q == StDone && out_ready_i);
  assign out_valid_o = (state_q == StDone);
  // C ← (M·P + T)/R, below 2P; one conditional subtraction, on the way out of the sum
  // register (it stays put while the result waits to be taken).
  logic [Width:0] high, reduced;
  assign high    = sum_q[2*Width:Width];
  assign reduced = high - {1'b0, modulus_q};
  assign c       = reduced[Width] ? high[Width-1:0] : reduced[Width-1:0];
  logic unused_sum_low;
  assign unused_sum_low = ^sum_q[Width-1:0];
  assign c_o         = c;

endmodule
