// One thread of an AcclMT Poseidon sub-engine: one state lane through the S-box (full threads
// only) and its three MDS products, the lane's contribution to the three output lanes ("each
// thread processes MDS vectors derived from the MDS matrix, and results are aggregated via an
// adder tree"):
//
//   z = sbox_en ? x^α : x;      prod_o[i] = M[i][lane]·z   (i = 0, 1, 2)
//
// A full thread (HasSbox = 1) has six modular multipliers — the three of acclmt_sbox and three
// for the MDS column; a partial thread (HasSbox = 0) has no S-box and three ("the partial
// thread, lacking an S-box, uses half the modular multiplication modules of the full thread"),
// and its sbox_en_i must stay low. Both have the same latency, Latency = 4·MontLatency + 1
// (the S-box's 3·MontLatency + 1, or a delay line of that length, then one product).
module acclmt_thread #(
  parameter int Width      = 256,
  parameter int MulLatency = 1,
  parameter bit HasSbox    = 1'b1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             cfg_we_i,
  input  logic [Width-1:0] cfg_modulus_i,
  input  logic [Width-1:0] cfg_modulus_inv_i,
  input  logic [Width-1:0] cfg_one_i,
  input  logic [1:0]       cfg_alpha_i,
  // The MDS column of this thread's lane, M[i][lane] at bits [i·Width +: Width], Montgomery
  // form; prod_o likewise (flat ports: Yosys reads them).
  input  logic [3*Width-1:0] mds_col_i,
  input  logic             valid_i,
  input  logic             sbox_en_i,
  input  logic [Width-1:0] x_i,
  output logic             valid_o,
  output logic [3*Width-1:0] prod_o
);
  localparam int MontLatency  = 3 * (MulLatency + 1);
  localparam int SboxLatency  = 3 * MontLatency + 1;

  // The lane and its valid bit beside the S-box.
  logic [Width-1:0] x_late;
  logic             sbox_en_late;
  acclmt_delay #(.Width(Width + 1), .Depth(SboxLatency)) u_x (
    .clk_i, .data_i({sbox_en_i, x_i}), .data_o({sbox_en_late, x_late})
  );
  logic valid_late;
  logic [SboxLatency-1:0] valid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= {valid_q[SboxLatency-2:0], valid_i};
    end
  end
  assign valid_late = valid_q[SboxLatency-1];

  logic [Width-1:0] z;
  if (HasSbox) begin : g_sbox
    logic             sbox_valid;
    logic [Width-1:0] sbox_y;
    acclmt_sbox #(.Width(Width), .MulLatency(MulLatency)) u_sbox (
      .clk_i, .rst_ni,
      .cfg_we_i, .cfg_modulus_i, .cfg_modulus_inv_i, .cfg_one_i, .cfg_alpha_i,
      .valid_i(valid_i && sbox_en_i), .x_i,
      .valid_o(sbox_valid), .y_o(sbox_y)
    );
    assign z = sbox_en_late ? sbox_y : x_late;
    logic unused_sbox_valid;
    assign unused_sbox_valid = sbox_valid;
  end else begin : g_no_sbox
    assign z = x_late;
    logic unused_sbox;
    assign unused_sbox = ^{sbox_en_late, cfg_one_i, cfg_alpha_i};
  end

  logic [2:0] prod_valid;
  for (genvar i = 0; i < 3; i++) begin : g_mds
    logic unused_ready;
    mont_mul_pipe #(.Width(Width), .MulLatency(MulLatency)) u_mul_mds (
      .clk_i, .rst_ni,
      .cfg_we_i, .cfg_modulus_i, .cfg_modulus_inv_i,
      .in_valid_i(valid_late), .in_ready_o(unused_ready), .a_i(z), .b_i(mds_col_i[i*Width +: Width]),
      .out_valid_o(prod_valid[i]), .out_ready_i(1'b1), .c_o(prod_o[i*Width +: Width])
    );
  end
  assign valid_o = prod_valid[0];

  logic unused;
  assign unused = ^prod_valid[2:1];
endmodule
