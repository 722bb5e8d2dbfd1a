// Russian-peasant modular multiplier (AMAZE Algorithm 1, §4.3.1): one bit of b per cycle,
// additions and shifts only, no DSPs.
//
//   y = 0; repeat n times: if b[0]: y = y + a (- p);  a = 2a (- p);  b = b >> 1
//
// A start_i pulse loads the operands; done_o pulses with y_o valid n + 1 cycles later
// (n = AmzWidth = 254 iterations and the load). The listing compares with `> p`; this unit uses
// `>= p` so results are canonical.
module amz_peasant_mul (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  input  logic [253:0] a_i,
  input  logic [253:0] b_i,
  output logic         busy_o,
  output logic         done_o,
  output logic [253:0] y_o
);
  `include "amz_consts.svh"
  localparam int N = AmzWidth;

  logic [N:0]   x1_q, y_q;   // one spare bit for the sums before reduction
  logic [N-1:0] x2_q;
  logic [8:0]   cnt_q;
  logic         done_q;
  logic [N:0]   y_sum, y_next, x_dbl, x_next;

  always_comb begin
    y_sum  = y_q + (x2_q[0] ? x1_q : '0);
    y_next = (y_sum >= (N+1)'(AmzModulus)) ? y_sum - (N+1)'(AmzModulus) : y_sum;
    x_dbl  = x1_q << 1;
    x_next = (x_dbl >= (N+1)'(AmzModulus)) ? x_dbl - (N+1)'(AmzModulus) : x_dbl;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q  <= '0;
      done_q <= 1'b0;
      x1_q   <= '0;
      x2_q   <= '0;
      y_q    <= '0;
    end else begin
      done_q <= 1'b0;
      if (start_i && cnt_q == 0) begin
        x1_q  <= {1'b0, a_i};
        x2_q  <= b_i;
        y_q   <= '0;
        cnt_q <= 9'(N);
      end else if (cnt_q != 0) begin
        y_q   <= y_next;
        x1_q  <= x_next;
        x2_q  <= x2_q >> 1;
        cnt_q <= cnt_q - 9'd1;
        done_q <= (cnt_q == 9'd1);
      end
    end
  end

  assign busy_o = (cnt_q != 0);
  assign done_o = done_q;
  assign y_o = y_q[N-1:0];
endmodule
