// Integer multiplier p = x * y (AMAZE §4.2, Figs. 4-5).
//
// Chunked = 1: the three-stage pipeline of the paper. y is cut into ChunkW-bit chunks (the DSP
// width: 27 on Stratix V, 16/18 on Xilinx) and x into two halves. Stage 1 forms the partial
// products x0*y_i; stage 2 sums them in an adder tree while forming x1*y_i; stage 3 sums those
// and adds the two halves. Latency 3, one product per cycle.
// Chunked = 0: the plain `x*y` description left to the synthesiser ("a"/"b" designs), output
// registered once: latency 1.
module amz_int_mul #(
  parameter int AWidth = 254,
  parameter int BWidth = 254,
  parameter int ChunkW = 27,
  parameter bit Chunked = 1'b1
) (
  input  logic                      clk_i,
  input  logic [AWidth-1:0]         a_i,
  input  logic [BWidth-1:0]         b_i,
  output logic [AWidth+BWidth-1:0]  p_o
);
  localparam int PW = AWidth + BWidth;

  if (Chunked) begin : g_chunked
    localparam int LoW = (AWidth + 1) / 2;
    localparam int HiW = AWidth - LoW;
    localparam int NChunks = (BWidth + ChunkW - 1) / ChunkW;
    localparam int YW = NChunks * ChunkW;
    localparam int PpW = LoW + ChunkW;
    localparam int SumW = LoW + YW;

    logic [YW-1:0]   y_ext, y_ext_q;
    logic [HiW-1:0]  x1_q;
    logic [NChunks*PpW-1:0] pp0_q, pp1_q;  // partial product i in bits [i*PpW +: PpW]
    logic [SumW-1:0] sum0, sum1, sum0_q;
    logic [PW-1:0]   p_q;

    assign y_ext = YW'(b_i);

    // Stage 1: partial products of the low half of x.
    always_ff @(posedge clk_i) begin
      for (int i = 0; i < NChunks; i++) begin
        pp0_q[i*PpW +: PpW] <= PpW'(a_i[LoW-1:0]) * PpW'(y_ext[i*ChunkW +: ChunkW]);
      end
      x1_q    <= a_i[AWidth-1:LoW];
      y_ext_q <= y_ext;
    end

    // Low-latency addition trees: pairwise sums, log2(NChunks) adders deep.
    amz_add_tree #(.InW(PpW), .N(NChunks), .Step(ChunkW), .OutW(SumW)) u_tree0 (.terms_i(pp0_q), .sum_o(sum0));
    amz_add_tree #(.InW(PpW), .N(NChunks), .Step(ChunkW), .OutW(SumW)) u_tree1 (.terms_i(pp1_q), .sum_o(sum1));

    // Stage 2: sum the low half while forming the high half's partial products.
    always_ff @(posedge clk_i) begin
      sum0_q <= sum0;
      for (int i = 0; i < NChunks; i++) begin
        pp1_q[i*PpW +: PpW] <= PpW'(x1_q) * PpW'(y_ext_q[i*ChunkW +: ChunkW]);
      end
    end

    // Stage 3: sum the high half and combine: x*y = sum0 + 2^LoW * sum1.
    always_ff @(posedge clk_i) begin
      p_q <= PW'(sum0_q) + (PW'(sum1) << LoW);
    end
    assign p_o = p_q;
  end else begin : g_plain
    logic [PW-1:0] p_q;
    always_ff @(posedge clk_i) begin
      p_q <= PW'(a_i) * PW'(b_i);
    end
    assign p_o = p_q;
  end
endmodule
