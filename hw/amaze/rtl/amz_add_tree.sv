// Sum of N terms, term i shifted left by i*Step, as a balanced tree of two-input adders.
module amz_add_tree #(
  parameter int InW = 154,
  parameter int N = 10,
  parameter int Step = 27,
  parameter int OutW = 397
) (
  input  logic [N*InW-1:0] terms_i,  // term i in bits [i*InW +: InW]
  output logic [OutW-1:0] sum_o
);
  localparam int Levels = $clog2(N);
  localparam int Leaves = 1 << Levels;

  // Level l holds Leaves >> l partial sums; each level is its own array, so no signal feeds itself.
  for (genvar l = 0; l <= Levels; l++) begin : g_lvl
    logic [(Leaves >> l)*OutW-1:0] v;  // node i in bits [i*OutW +: OutW]
    for (genvar i = 0; i < (Leaves >> l); i++) begin : g_node
      if (l == 0) begin : g_leaf
        if (i < N) begin : g_term
          assign v[i*OutW +: OutW] = OutW'(terms_i[i*InW +: InW]) << (i * Step);
        end else begin : g_pad
          assign v[i*OutW +: OutW] = '0;
        end
      end else begin : g_add
        assign v[i*OutW +: OutW] = g_lvl[l-1].v[2*i*OutW +: OutW] + g_lvl[l-1].v[(2*i+1)*OutW +: OutW];
      end
    end
  end
  assign sum_o = g_lvl[Levels].v[OutW-1:0];
endmodule
