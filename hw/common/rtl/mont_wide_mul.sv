// A Width×Width → 2·Width unsigned multiplier built from Width/LimbWidth partial products of
// LimbWidth×Width bits, summed with shifts: the FPGA NTT paper's construction of its wide
// multiplier ("six 64×384 multipliers with shift and addition operations"). The product leaves
// Latency clock cycles after its operands (Latency register stages after the sum, for
// synthesis to retime into the partial products; 0 makes the unit combinational). The stages
// advance only in cycles with en_i set (a stalled pipeline holds its products).
module mont_wide_mul #(
  parameter int Width     = 256,
  parameter int LimbWidth = 64,
  parameter int Latency   = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 en_i,
  input  logic                 valid_i,
  input  logic [Width-1:0]     a_i,
  input  logic [Width-1:0]     b_i,
  output logic                 valid_o,
  output logic [2*Width-1:0]   product_o
);
  localparam int NumLimbs = Width / LimbWidth;
  localparam int PartialWidth = Width + LimbWidth;

  // Width must be a whole number of limbs.
  initial begin
    if (NumLimbs * LimbWidth != Width) begin
      $fatal(1, "mont_wide_mul: Width must be a multiple of LimbWidth");
    end
  end

  // a·b from NumLimbs partial products of a by one limb of b.
  function automatic logic [2*Width-1:0] limb_product(input logic [Width-1:0] lhs,
                                                      input logic [Width-1:0] rhs);
    logic [2*Width-1:0] acc;
    acc = '0;
    for (int i = 0; i < NumLimbs; i++) begin
      logic [PartialWidth-1:0] limb_partial;
      limb_partial = {{LimbWidth{1'b0}}, lhs} * {{Width{1'b0}}, rhs[i*LimbWidth +: LimbWidth]};
      acc = acc + ({{(Width - LimbWidth){1'b0}}, limb_partial} << (i * LimbWidth));
    end
    limb_product = acc;  // (not `return`: Yosys 0.23 reads no return statement)
  endfunction

  if (Latency == 0) begin : gen_comb
    assign valid_o   = valid_i;
    assign product_o = limb_product(a_i, b_i);
    logic unused_clk_rst_en;
    assign unused_clk_rst_en = ^{clk_i, rst_ni, en_i};
  end else begin : gen_pipe
    logic [Latency-1:0]     valid_q;
    logic [2*Width-1:0]     stage_q [Latency];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= '0;
      end else if (en_i) begin
        valid_q[0] <= valid_i;
        for (int s = 1; s < Latency; s++) begin
          valid_q[s] <= valid_q[s-1];
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        // Only a valid operation loads the first stage: an idle multiplier does not toggle
        // (and the simulator skips its product).
        if (valid_i) stage_q[0] <= limb_product(a_i, b_i);
        for (int s = 1; s < Latency; s++) begin
          stage_q[s] <= stage_q[s-1];
        end
      end
    end
    assign valid_o   = valid_q[Latency-1];
    assign product_o = stage_q[Latency-1];
  end
endmodule
