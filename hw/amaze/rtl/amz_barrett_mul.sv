// Pipelined Barrett modular multiplier (AMAZE Algorithm 2, §4.3): y = a*b mod p.
//
//   w = a*b;  t = (w >> (n-1)) * z;  u = (t >> (n+1)) * p;
//   y = (w mod 2^R) - (u mod 2^R) mod 2^R, then at most two subtractions of p
//
// with n = AmzWidth, z = floor(2^(2n)/p) and R = AmzResidueBits (n + 1 for BN254), all from the
// generated amz_consts.svh. The listing compares with `> p`; this unit uses `>= p` so results are
// canonical.
//
// Chunked = 1: three 3-stage chunked integer multipliers, each followed by a transfer register
// (the paper's extra cycle), the last one by the subtraction stage: latency 12, one product per
// cycle. Chunked = 0: plain `*` products, one cycle each, the subtraction in the third cycle:
// latency 3. A tag travels with each operand pair.
module amz_barrett_mul #(
  parameter bit Chunked = 1'b1,
  parameter int ChunkW = 27,
  parameter int TagW = 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                valid_i,
  input  logic [253:0]        a_i,
  input  logic [253:0]        b_i,
  input  logic [TagW-1:0]     tag_i,
  output logic                valid_o,
  output logic [253:0]        y_o,
  output logic [TagW-1:0]     tag_o
);
  `include "amz_consts.svh"
  localparam int N = AmzWidth;
  localparam int R = AmzResidueBits;
  localparam int Latency = Chunked ? 12 : 3;

  logic [2*N-1:0]   w;            // a*b
  /* verilator lint_off UNUSEDSIGNAL */  // only t >> (n+1) is used (Algorithm 2, line 3)
  logic [2*N+1:0]   t;            // (w >> (n-1)) * z, (n+1) x (n+1) bits
  /* verilator lint_on UNUSEDSIGNAL */
  logic [R-1:0]     w_low_d;      // w mod 2^R, delayed to the subtraction
  logic [R-1:0]     u_low;        // u mod 2^R
  /* verilator lint_off UNUSEDSIGNAL */  // y < p fits in n of the R bits
  logic [R-1:0]     y_q;
  /* verilator lint_on UNUSEDSIGNAL */

  if (Chunked) begin : g_chunked
    logic [2*N-1:0] w_x;
    /* verilator lint_off UNUSEDSIGNAL */  // only t >> (n+1) and u mod 2^R are used
    logic [2*N+1:0] t_x;
    logic [2*N:0]   u;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [7*R-1:0] w_low_pipe;  // stage i in bits [i*R +: R]

    amz_int_mul #(.AWidth(N), .BWidth(N), .ChunkW(ChunkW), .Chunked(1'b1)) u_mul_w (
      .clk_i, .a_i(a_i), .b_i(b_i), .p_o(w)
    );
    always_ff @(posedge clk_i) w_x <= w;  // transfer register (cycle 4)

    amz_int_mul #(.AWidth(N+1), .BWidth(N+1), .ChunkW(ChunkW), .Chunked(1'b1)) u_mul_t (
      .clk_i, .a_i(w_x[2*N-1:N-1]), .b_i(AmzBarrettZ), .p_o(t)
    );
    always_ff @(posedge clk_i) t_x <= t;  // transfer register (cycle 8)

    amz_int_mul #(.AWidth(N+1), .BWidth(N), .ChunkW(ChunkW), .Chunked(1'b1)) u_mul_u (
      .clk_i, .a_i(t_x[2*N+1:N+1]), .b_i(AmzModulus), .p_o(u)
    );
    assign u_low = u[R-1:0];

    // w mod 2^R from cycle 4 to cycle 11.
    always_ff @(posedge clk_i) begin
      w_low_pipe <= {w_low_pipe[6*R-1:0], w_x[R-1:0]};
    end
    assign w_low_d = w_low_pipe[7*R-1:6*R];
  end else begin : g_plain
    logic [2*N-1:0] w_q;
    /* verilator lint_off UNUSEDSIGNAL */  // only t >> (n+1) is used
    logic [2*N+1:0] t_q;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [R-1:0]   w_low_q;

    amz_int_mul #(.AWidth(N), .BWidth(N), .Chunked(1'b0)) u_mul_w (.clk_i, .a_i(a_i), .b_i(b_i), .p_o(w));
    assign w_q = w;
    amz_int_mul #(.AWidth(N+1), .BWidth(N+1), .Chunked(1'b0)) u_mul_t (
      .clk_i, .a_i(w_q[2*N-1:N-1]), .b_i(AmzBarrettZ), .p_o(t)
    );
    assign t_q = t;
    always_ff @(posedge clk_i) w_low_q <= w_q[R-1:0];
    // Third product left combinational, as the plain description of the "a" designs.
    assign u_low = R'(t_q[2*N+1:N+1] * AmzModulus);
    assign w_low_d = w_low_q;
  end

  // y = (w - u) mod 2^R, then two conditional subtractions of p.
  logic [R-1:0] y0, y1, y2;
  always_comb begin
    y0 = w_low_d - u_low;
    y1 = (y0 >= R'(AmzModulus)) ? y0 - R'(AmzModulus) : y0;
    y2 = (y1 >= R'(AmzModulus)) ? y1 - R'(AmzModulus) : y1;
  end
  always_ff @(posedge clk_i) y_q <= y2;
  assign y_o = y_q[N-1:0];

  // Valid and tag travel alongside the datapath.
  logic [Latency-1:0] valid_pipe;
  logic [Latency*TagW-1:0] tag_pipe;  // stage i in bits [i*TagW +: TagW]
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_pipe <= '0;
    else valid_pipe <= {valid_pipe[Latency-2:0], valid_i};
  end
  always_ff @(posedge clk_i) tag_pipe <= {tag_pipe[(Latency-1)*TagW-1:0], tag_i};
  assign valid_o = valid_pipe[Latency-1];
  assign tag_o = tag_pipe[Latency*TagW-1:(Latency-1)*TagW];
endmodule
