// Sequential (FSM) Barrett modular multiplier for the non-pipelined "b" designs (AMZ-1b/2b):
// one state per line of AMAZE Algorithm 2 and a single plain integer multiplier shared by the
// three products (the area-saving point of an FSM design).
//
//   IDLE -start-> LOAD -> W (w=a*b) -> T (t=(w>>(n-1))*z) -> U (u=(t>>(n+1))*p)
//        -> Y (y=(w-u) mod 2^R) -> S1 (y-=p?) -> S2 (y-=p?) -> DONE -> IDLE
//
// done_o is high in DONE, eight cycles after the start_i cycle.
module amz_barrett_seq (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  input  logic [253:0] a_i,
  input  logic [253:0] b_i,
  output logic         done_o,
  output logic [253:0] y_o
);
  `include "amz_consts.svh"
  localparam int N = AmzWidth;
  localparam int R = AmzResidueBits;

  typedef enum logic [3:0] {Idle, Load, LineW, LineT, LineU, LineY, LineS1, LineS2, Done} state_e;
  state_e state_q;

  logic [N-1:0]   a_q, b_q;
  logic [2*N-1:0] w_q;
  /* verilator lint_off UNUSEDSIGNAL */  // only t >> (n+1) is used (Algorithm 2, line 3)
  logic [2*N+1:0] t_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [R-1:0]   u_q, y_q;

  // The one shared multiplier: operands chosen by the state.
  logic [N:0]     mul_a, mul_b;
  logic [2*N+1:0] mul_p;
  always_comb begin
    unique case (state_q)
      LineW:   begin mul_a = (N+1)'(a_q);             mul_b = (N+1)'(b_q); end
      LineT:   begin mul_a = w_q[2*N-1:N-1];          mul_b = AmzBarrettZ; end
      LineU:   begin mul_a = t_q[2*N+1:N+1];          mul_b = (N+1)'(AmzModulus); end
      default: begin mul_a = '0;                      mul_b = '0; end
    endcase
    mul_p = (2*N+2)'(mul_a) * (2*N+2)'(mul_b);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle;
    end else begin
      unique case (state_q)
        Idle:    if (start_i) state_q <= Load;
        Load:    state_q <= LineW;
        LineW:   state_q <= LineT;
        LineT:   state_q <= LineU;
        LineU:   state_q <= LineY;
        LineY:   state_q <= LineS1;
        LineS1:  state_q <= LineS2;
        LineS2:  state_q <= Done;
        default: state_q <= Idle;  // Done
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    unique case (state_q)
      Idle:    if (start_i) begin a_q <= a_i; b_q <= b_i; end
      LineW:   w_q <= mul_p[2*N-1:0];
      LineT:   t_q <= mul_p;
      LineU:   u_q <= mul_p[R-1:0];
      LineY:   y_q <= w_q[R-1:0] - u_q;
      LineS1,
      LineS2:  if (y_q >= R'(AmzModulus)) y_q <= y_q - R'(AmzModulus);
      default: ;
    endcase
  end

  assign done_o = (state_q == Done);
  assign y_o = y_q[N-1:0];
endmodule
