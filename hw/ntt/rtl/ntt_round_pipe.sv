// One round unit of the fully pipelined NTT core (issue 30's improvement): round `Round` of a
// 2^LogPoints-point DIF transform, one butterfly per cycle, on beats of two elements.
//
// A beat in is the previous round's butterfly: its two results, elements e and e + 2h
// (h = 2^(LogPoints−1−Round), this round's step), in that round's butterfly order; round 0
// takes the core's input beats (x_j, x_{j+2^(LogPoints−1)}) straight into its butterflies.
// A beat out is this round's butterfly k: elements e' and e' + h with
// e' = (k / h)·2h + (k mod h).
//
// The reorder buffer (rounds after the first) has two banks so that a beat is written and a
// pair is read in one cycle each: element i lives in bank i[log h] XOR i[log h + 1] at the
// address i with bit log h removed. A written beat (bit log h + 1 apart) and a read pair (bit
// log h apart) always span both banks, and a pair sits at one address in both (the butterfly
// number k). Each bank holds two sub-tasks (regions), each entry a full bit: the writer waits
// for a free entry, the reader for a full pair, so sub-tasks overlap without a break.
//
// Twiddles as ntt_round: the core writes ω^t, t < 2^(LogPoints−1), to every round; this round
// keeps those with t a multiple of 2^Round, at t / 2^Round.
module ntt_round_pipe #(
  parameter int Width      = 256,
  parameter int LogPoints  = 8,
  parameter int Round      = 0,
  parameter int MulLatency = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 cfg_we_i,
  input  logic [Width-1:0]     cfg_modulus_i,
  input  logic [Width-1:0]     cfg_modulus_inv_i,
  input  logic                 tw_we_i,
  input  logic [LogPoints-2:0] tw_addr_i,
  input  logic [Width-1:0]     tw_data_i,
  // The previous round's butterflies (or the core's input beats), in order.
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [Width-1:0]     in_lo_i,
  input  logic [Width-1:0]     in_hi_i,
  // This round's butterflies, in order: (e', e' + h).
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [Width-1:0]     out_lo_o,
  output logic [Width-1:0]     out_hi_o
);
  localparam int LogStep = LogPoints - 1 - Round;
  localparam int Step    = 1 << LogStep;
  localparam int Half    = 1 << (LogPoints - 1);  // butterflies (and beats) per sub-task
  localparam int PairW   = LogPoints - 1;

  initial begin
    if (LogPoints < 2 || Round < 0 || Round >= LogPoints) begin
      $fatal(1, "ntt_round_pipe: need LogPoints >= 2 and 0 <= Round < LogPoints");
    end
  end

  // ---- Twiddles: ω^(j·2^Round) at j < Step.
  localparam int TwW = (LogStep > 0) ? LogStep : 1;
  logic [Width-1:0] twiddle_q [Step];
  logic [PairW-1:0] tw_round_mask;
  logic [TwW-1:0]   tw_wr_index;
  assign tw_round_mask = PairW'((1 << Round) - 1);
  assign tw_wr_index   = TwW'((tw_addr_i >> Round) & PairW'(Step - 1));
  always_ff @(posedge clk_i) begin
    if (tw_we_i && (tw_addr_i & tw_round_mask) == '0) begin
      twiddle_q[tw_wr_index] <= tw_data_i;
    end
  end

  // ---- The butterfly this round feeds.
  logic             bf_valid, bf_ready;
  logic [Width-1:0] bf_a, bf_b;
  logic [PairW-1:0] k_q;  // this round's next butterfly
  logic [TwW-1:0]   tw_rd_index;
  assign tw_rd_index = TwW'(k_q & PairW'(Step - 1));
  logic issue;
  assign issue = bf_valid && bf_ready;

  ntt_butterfly_pipe #(
    .Width      (Width),
    .MulLatency (MulLatency)
  ) u_butterfly (
    .clk_i,
    .rst_ni,
    .cfg_we_i,
    .cfg_modulus_i,
    .cfg_modulus_inv_i,
    .in_valid_i  (bf_valid),
    .in_ready_o  (bf_ready),
    .a_i         (bf_a),
    .b_i         (bf_b),
    .twiddle_i   (twiddle_q[tw_rd_index]),
    .out_valid_o,
    .out_ready_i,
    .sum_o       (out_lo_o),
    .product_o   (out_hi_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      k_q <= '0;
    end else if (issue) begin
      k_q <= k_q + PairW'(1);
    end
  end

  if (Round == 0) begin : gen_direct
    // The core's beats are this round's pairs.
    assign bf_valid   = in_valid_i;
    assign in_ready_o = bf_ready;
    assign bf_a       = in_lo_i;
    assign bf_b       = in_hi_i;
  end else begin : gen_reorder
    localparam int Depth = 2 * Half;  // two regions of Half entries per bank
    logic [Width-1:0] bank0_q [Depth];
    logic [Width-1:0] bank1_q [Depth];
    logic [Depth-1:0] full0_q, full1_q;

    // The writer: beat j of its sub-task, elements e = (j / 2h)·4h + (j mod 2h) and e + 2h.
    logic [PairW-1:0] j_q;
    logic             wr_region_q;
    logic             wr_bank;          // bank of e (e + 2h is in the other)
    logic [PairW-1:0] wr_addr_lo, wr_addr_hi;
    logic [LogPoints-1:0] j_wide, e_lo, e_hi;
    assign j_wide  = {1'b0, j_q};
    assign e_lo    = ((j_wide >> (LogStep + 1)) << (LogStep + 2))
                     | (j_wide & LogPoints'(2 * Step - 1));
    assign e_hi    = e_lo + LogPoints'(2 * Step);
    assign wr_bank = e_lo[LogStep] ^ e_lo[LogStep+1];
    // An element's address in its bank: its index with bit LogStep removed.
    assign wr_addr_lo = PairW'(((e_lo >> (LogStep + 1)) << LogStep) | (e_lo & LogPoints'(Step - 1)));
    assign wr_addr_hi = PairW'(((e_hi >> (LogStep + 1)) << LogStep) | (e_hi & LogPoints'(Step - 1)));

    // Bank 0 gets e when wr_bank is 0, else e + 2h; bank 1 the other.
    logic [PairW:0]   wr0, wr1;
    logic [Width-1:0] wr0_data, wr1_data;
    assign wr0      = {wr_region_q, wr_bank ? wr_addr_hi : wr_addr_lo};
    assign wr1      = {wr_region_q, wr_bank ? wr_addr_lo : wr_addr_hi};
    assign wr0_data = wr_bank ? in_hi_i : in_lo_i;
    assign wr1_data = wr_bank ? in_lo_i : in_hi_i;
    assign in_ready_o = !full0_q[wr0] && !full1_q[wr1];
    logic write;
    assign write = in_valid_i && in_ready_o;

    // The reader: butterfly k at address k of both banks; e' is in bank k[LogStep].
    logic           rd_region_q;
    logic           rd_bank;
    logic [PairW:0] rd;
    assign rd_bank  = k_q[LogStep];
    assign rd       = {rd_region_q, k_q};
    assign bf_valid = full0_q[rd] && full1_q[rd];
    assign bf_a     = rd_bank ? bank1_q[rd] : bank0_q[rd];
    assign bf_b     = rd_bank ? bank0_q[rd] : bank1_q[rd];

    always_ff @(posedge clk_i) begin
      if (write) begin
        bank0_q[wr0] <= wr0_data;
        bank1_q[wr1] <= wr1_data;
      end
    end

    logic [Depth-1:0] full0_d, full1_d;
    always_comb begin
      full0_d = full0_q;
      full1_d = full1_q;
      if (write) begin
        full0_d[wr0] = 1'b1;
        full1_d[wr1] = 1'b1;
      end
      if (issue) begin
        full0_d[rd] = 1'b0;
        full1_d[rd] = 1'b0;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        full0_q     <= '0;
        full1_q     <= '0;
        j_q         <= '0;
        wr_region_q <= 1'b0;
        rd_region_q <= 1'b0;
      end else begin
        full0_q <= full0_d;
        full1_q <= full1_d;
        if (write) begin
          j_q <= j_q + PairW'(1);
          if (j_q == PairW'(Half - 1)) begin
            wr_region_q <= !wr_region_q;
          end
        end
        if (issue && k_q == PairW'(Half - 1)) begin
          rd_region_q <= !rd_region_q;
        end
      end
    end
  end
endmodule
