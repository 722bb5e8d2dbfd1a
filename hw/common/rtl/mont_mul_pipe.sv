// Montgomery modular multiplication, fully pipelined: the FPGA NTT paper's Algorithm 1
// (full-width REDC, R = 2^Width)
//
//   T ← A·B;  M ← T·P' mod R;  C ← (M·P + T)/R;  if C ≥ P then C ← C − P
//
// with its three products on three multipliers (mont_wide_mul) in a chain, so a new operation
// enters every cycle: the fully pipelined setting of issue 30 (mont_mul shares one multiplier
// and accepts one operation per 3·(MulLatency + 1) cycles). Each product takes MulLatency
// cycles plus one register stage, so a result leaves 3·(MulLatency + 1) cycles after its
// operands were accepted, as in mont_mul.
//
// Only T's high half and whether its low half is non-zero travel beside M: M·P + T ≡ 0 mod R
// with both low halves below R, so the low halves sum to R when T's is non-zero and to 0
// otherwise, and (M·P + T)/R = (M·P)_hi + T_hi + [T_lo ≠ 0].
//
// Flow control: the whole pipeline advances in a cycle unless a result waits at the output
// (out_valid_o && !out_ready_i), so results stay put and in order under back-pressure;
// in_ready_o is that advance. The modulus and P' = −P^{−1} mod 2^Width are written through
// cfg_we_i while no operation is in flight. Inputs must be below P; results are below P.
module mont_mul_pipe #(
  parameter int Width      = 256,
  parameter int MulLatency = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // Configuration: the modulus P and P' = −P^{−1} mod 2^Width.
  input  logic             cfg_we_i,
  input  logic [Width-1:0] cfg_modulus_i,
  input  logic [Width-1:0] cfg_modulus_inv_i,
  // Operands (valid/ready), one per cycle.
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  // Results (valid/ready), in order.
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] c_o
);
  logic [Width-1:0] modulus_q, modulus_inv_q;
  always_ff @(posedge clk_i) begin
    if (cfg_we_i) begin
      modulus_q     <= cfg_modulus_i;
      modulus_inv_q <= cfg_modulus_inv_i;
    end
  end

  logic advance;
  assign advance    = !out_valid_o || out_ready_i;
  assign in_ready_o = advance;

  // Stage 1: T ← A·B, then a register.
  logic               t_valid, t_valid_q;
  logic [2*Width-1:0] t_product;
  logic [2*Width-1:0] t_q;
  mont_wide_mul #(
    .Width   (Width),
    .Latency (MulLatency)
  ) u_mul_ab (
    .clk_i,
    .rst_ni,
    .en_i      (advance),
    .valid_i   (in_valid_i),
    .a_i       (a_i),
    .b_i       (b_i),
    .valid_o   (t_valid),
    .product_o (t_product)
  );

  // Stage 2: M ← T_lo·P' mod R, then a register; T_hi and [T_lo ≠ 0] travel beside it.
  logic               m_valid, m_valid_q;
  logic [2*Width-1:0] m_product;
  logic [Width-1:0]   m_q;
  mont_wide_mul #(
    .Width   (Width),
    .Latency (MulLatency)
  ) u_mul_m (
    .clk_i,
    .rst_ni,
    .en_i      (advance),
    .valid_i   (t_valid_q),
    .a_i       (t_q[Width-1:0]),
    .b_i       (modulus_inv_q),
    .valid_o   (m_valid),
    .product_o (m_product)
  );

  // Stage 3: M·P, then the sum's register.
  logic               mp_valid, sum_valid_q;
  logic [2*Width-1:0] mp_product;
  logic [Width:0]     sum_q;
  mont_wide_mul #(
    .Width   (Width),
    .Latency (MulLatency)
  ) u_mul_mp (
    .clk_i,
    .rst_ni,
    .en_i      (advance),
    .valid_i   (m_valid_q),
    .a_i       (m_q),
    .b_i       (modulus_q),
    .valid_o   (mp_valid),
    .product_o (mp_product)
  );

  // T's high half and its low half's carry, delayed to meet M·P: it leaves mul_mp
  // 2·MulLatency + 1 cycles after its T sat in t_q (MulLatency for M, one for m_q, MulLatency
  // for M·P).
  localparam int Delay = 2 * MulLatency + 1;
  logic [Width:0] t_delay_q [Delay];
  always_ff @(posedge clk_i) begin
    if (advance) begin
      t_delay_q[0] <= {|t_q[Width-1:0], t_q[2*Width-1:Width]};
      for (int s = 1; s < Delay; s++) begin
        t_delay_q[s] <= t_delay_q[s-1];
      end
    end
  end
  logic [Width:0] t_late;  // {carry, T_hi} of the operation whose M·P leaves now
  assign t_late = t_delay_q[Delay-1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      t_valid_q   <= 1'b0;
      m_valid_q   <= 1'b0;
      sum_valid_q <= 1'b0;
    end else if (advance) begin
      t_valid_q   <= t_valid;
      m_valid_q   <= m_valid;
      sum_valid_q <= mp_valid;
    end
  end

  always_ff @(posedge clk_i) begin
    if (advance) begin
      t_q   <= t_product;
      m_q   <= m_product[Width-1:0];
      // (M·P + T)/R = (M·P)_hi + T_hi + [T_lo ≠ 0], below 2P.
      sum_q <= {1'b0, mp_product[2*Width-1:Width]} + {1'b0, t_late[Width-1:0]}
               + {{Width{1'b0}}, t_late[Width]};
    end
  end

  // One conditional subtraction on the way out (the sum register holds still while the
  // result waits to be taken).
  logic [Width:0] reduced;
  assign reduced     = sum_q - {1'b0, modulus_q};
  assign c_o         = reduced[Width] ? sum_q[Width-1:0] : reduced[Width-1:0];
  assign out_valid_o = sum_valid_q;

  logic unused_products;
  assign unused_products = ^{m_product[2*Width-1:Width], mp_product[Width-1:0]};
endmodule
