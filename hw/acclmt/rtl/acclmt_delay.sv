// A delay line: `data_o` is `data_i` of Depth clock cycles earlier (a shift register of Depth
// stages, Depth ≥ 1). No reset: the callers delay values whose valid bits travel in a reset
// line of their own.
module acclmt_delay #(
  parameter int Width = 1,
  parameter int Depth = 1
) (
  input  logic             clk_i,
  input  logic [Width-1:0] data_i,
  output logic [Width-1:0] data_o
);
  initial begin
    if (Depth < 1) begin
      $fatal(1, "acclmt_delay: Depth must be at least 1");
    end
  end

  logic [Width-1:0] stage_q [Depth];
  always_ff @(posedge clk_i) begin
    stage_q[0] <= data_i;
    for (int s = 1; s < Depth; s++) begin
      stage_q[s] <= stage_q[s-1];
    end
  end
  assign data_o = stage_q[Depth-1];
endmodule
