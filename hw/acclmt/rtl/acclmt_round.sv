// The round datapath of one AcclMT Poseidon sub-engine: one beat of one hash enters per cycle,
// three lanes and a 3 × 3 block B,
//
//   y = x + c;   z_j = S(y_j) for every thread in a full round, thread 0 only in a partial
//   round;   out_i = Σ_j B[i][j]·z_j
//
// At state width 3 a beat is a whole round (B the round's layer: zkaccel-poseidon's uniform
// rounds); wider states take several beats per round, which acclmt_engine sequences and
// accumulates.
// as three threads (one per lane: S-box, then the lane's MDS column) and an adder tree over
// the threads. FullThreads = 3 is the full-round (FR) sub-engine — three full threads, 18
// modular multipliers, full and partial rounds; FullThreads = 1 the partial-round (PR)
// sub-engine — one full thread for lane 0 and two partial threads, 12 multipliers, partial
// rounds only (a full round there is a scheduling error, flagged in simulation).
//
// Latency = 4·MontLatency + 4 cycles: the round-constant addition (1), a thread
// (4·MontLatency + 1), the adder tree (2). Everything, the tag included, moves every cycle: the
// caller schedules the results' return.
module acclmt_round #(
  parameter int Width       = 256,
  parameter int MulLatency  = 1,
  parameter int FullThreads = 3,
  parameter int TagWidth    = 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                cfg_we_i,
  input  logic [Width-1:0]    cfg_modulus_i,
  input  logic [Width-1:0]    cfg_modulus_inv_i,
  input  logic [Width-1:0]    cfg_one_i,
  input  logic [1:0]          cfg_alpha_i,
  // The beat's block B row-major, Montgomery form: B[i][j] at bits [(3·i + j)·Width +: Width],
  // read by the threads' MDS multipliers MdsDelay = 3·MontLatency + 2 cycles after the beat's
  // valid_i (a caller with one layer for every round may hold it constant); states and round
  // constants lane l at [l·Width +: Width] (flat ports: Yosys reads them).
  input  logic [9*Width-1:0] mds_i,
  input  logic                valid_i,
  input  logic                full_i,
  input  logic [3*Width-1:0] state_i,
  input  logic [3*Width-1:0] rc_i,
  input  logic [TagWidth-1:0] tag_i,
  output logic                valid_o,
  output logic [3*Width-1:0] state_o,
  output logic [TagWidth-1:0] tag_o
);
  localparam int MontLatency   = 3 * (MulLatency + 1);
  localparam int ThreadLatency = 4 * MontLatency + 1;
  localparam int Latency       = ThreadLatency + 3;

  initial begin
    if (FullThreads != 1 && FullThreads != 3) begin
      $fatal(1, "acclmt_round: FullThreads is 3 (FR sub-engine) or 1 (PR sub-engine)");
    end
  end

  // Round constants.
  logic             ark_valid_q, ark_full_q;
  logic [Width-1:0] ark_q [3];
  for (genvar j = 0; j < 3; j++) begin : g_ark
    logic [Width-1:0] sum, unused_diff;
    mod_add_sub #(.Width(Width)) u_add (
      .modulus_i(cfg_modulus_i), .a_i(state_i[j*Width +: Width]), .b_i(rc_i[j*Width +: Width]), .sum_o(sum), .diff_o(unused_diff)
    );
    always_ff @(posedge clk_i) begin
      ark_q[j] <= sum;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ark_valid_q <= 1'b0;
      ark_full_q  <= 1'b0;
    end else begin
      ark_valid_q <= valid_i;
      ark_full_q  <= full_i;
    end
  end

  // The threads; prod[j][i] = M[i][j]·z_j.
  logic [9*Width-1:0] prod;  // thread j's product for lane i at [(3·j + i)·Width +: Width]
  logic [2:0]       thread_valid;
  for (genvar j = 0; j < 3; j++) begin : g_thread
    logic [3*Width-1:0]    col, thread_prod;
    logic                  thread_out_valid;
    localparam bit ThreadHasSbox = j < FullThreads;
    localparam bit ThreadLane0   = j == 0;
    assign col = {mds_i[(6 + j)*Width +: Width], mds_i[(3 + j)*Width +: Width],
                  mds_i[j*Width +: Width]};
    acclmt_thread #(
      .Width      (Width),
      .MulLatency (MulLatency),
      .HasSbox    (ThreadHasSbox)
    ) u_thread (
      .clk_i, .rst_ni,
      .cfg_we_i, .cfg_modulus_i, .cfg_modulus_inv_i, .cfg_one_i, .cfg_alpha_i,
      .mds_col_i (col),
      .valid_i   (ark_valid_q),
      .sbox_en_i (ThreadLane0 || (ThreadHasSbox && ark_full_q)),
      .x_i       (ark_q[j]),
      .valid_o   (thread_out_valid),
      .prod_o    (thread_prod)
    );
    assign thread_valid[j] = thread_out_valid;
    assign prod[3*j*Width +: 3*Width] = thread_prod;
  end

  // The adder tree: (prod_0 + prod_1) + prod_2, one register per level.
  logic             sum_valid_q, out_valid_q;
  logic [Width-1:0] pair_q [3], third_q [3], out_q [3];
  for (genvar i = 0; i < 3; i++) begin : g_tree
    logic [Width-1:0] pair, total, unused_diff_pair, unused_diff_total;
    mod_add_sub #(.Width(Width)) u_pair (
      .modulus_i(cfg_modulus_i), .a_i(prod[i*Width +: Width]), .b_i(prod[(3 + i)*Width +: Width]), .sum_o(pair),
      .diff_o(unused_diff_pair)
    );
    mod_add_sub #(.Width(Width)) u_total (
      .modulus_i(cfg_modulus_i), .a_i(pair_q[i]), .b_i(third_q[i]), .sum_o(total),
      .diff_o(unused_diff_total)
    );
    always_ff @(posedge clk_i) begin
      pair_q[i]  <= pair;
      third_q[i] <= prod[(6 + i)*Width +: Width];
      out_q[i]   <= total;
    end
    assign state_o[i*Width +: Width] = out_q[i];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sum_valid_q <= 1'b0;
      out_valid_q <= 1'b0;
    end else begin
      sum_valid_q <= thread_valid[0];
      out_valid_q <= sum_valid_q;
    end
  end
  assign valid_o = out_valid_q;

  // The tag beside the round.
  acclmt_delay #(.Width(TagWidth), .Depth(Latency)) u_tag (
    .clk_i, .data_i(tag_i), .data_o(tag_o)
  );

`ifndef SYNTHESIS
  // A full round on the PR sub-engine would skip lanes 1 and 2's S-boxes.
  always_ff @(posedge clk_i) begin
    if (valid_i && full_i && FullThreads != 3) begin
      $error("acclmt_round: a full round issued to the partial-round sub-engine");
    end
  end
`endif

  logic unused;
  assign unused = ^thread_valid[2:1];
endmodule
