// One round unit of the FPGA NTT paper's NTT core: the butterflies of round `Round` of a
// 2^LogPoints-point decimation-in-frequency transform (step size 2^(LogPoints−1−Round)), fed
// through the paper's data-reordering buffer.
//
// The previous round (or the core's input) writes its results, one per cycle, with their index,
// into a BRAM of two banks (sub-task q into bank q mod 2), each entry with a full bit. A reader
// walks this round's butterflies in order, pair k = (block, j) → indices e and e + step, and
// as soon as both entries are full it reads them (two cycles, one read port) with the twiddle
// ω^(j·2^Round) into a pair register, which the butterfly takes; the entries are freed as they
// are read. The reader does not wait for the whole previous round: round i+1 starts when the
// first pair it needs exists, half-way through round i (the paper's "once the 1/2 of tasks in
// the first round has been completed"), and the next sub-task follows in the other bank
// without a break, so sub-tasks overlap (issue every T rather than 2T).
//
// Twiddles: the core writes ω^k, k < 2^(LogPoints−1) (Montgomery form), to every round; this
// round keeps those with k a multiple of 2^Round, at k / 2^Round.
module ntt_round #(
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
  // Elements of the previous round, any order within a sub-task, sub-tasks in order.
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [LogPoints-1:0] in_index_i,
  input  logic [Width-1:0]     in_data_i,
  // This round's results, top then bottom of each butterfly in order.
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [LogPoints-1:0] out_index_o,
  output logic [Width-1:0]     out_data_o
);
  localparam int Points  = 1 << LogPoints;
  localparam int LogStep = LogPoints - 1 - Round;
  localparam int Step    = 1 << LogStep;
  localparam int PairW   = LogPoints - 1;

  initial begin
    if (LogPoints < 2 || Round < 0 || Round >= LogPoints) begin
      $fatal(1, "ntt_round: need LogPoints >= 2 and 0 <= Round < LogPoints");
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

  // ---- The reorder buffer: two banks of Points entries, a full bit each.
  logic [Width-1:0]    buffer_q [2 * Points];
  logic [2*Points-1:0] full_q;
  logic                wr_bank_q;
  logic [LogPoints-1:0] wr_count_q;
  logic [LogPoints:0]  wr_addr;
  assign wr_addr    = {wr_bank_q, in_index_i};
  assign in_ready_o = !full_q[wr_addr];
  logic write;
  assign write = in_valid_i && in_ready_o;

  // ---- The reader: pair k of the bank being read.
  typedef enum logic [1:0] {
    RdTop,     // both entries full: read the top one
    RdBottom,  // read the bottom one, take the top
    RdTake     // take the bottom: the pair is complete
  } rd_state_e;
  rd_state_e       rd_state_q;
  logic            rd_bank_q;
  logic [PairW-1:0] pair_q;
  logic [LogPoints-1:0] top_index, bottom_index;
  // Insert a 0 (top) or 1 (bottom) at bit LogStep of the pair number.
  logic [LogPoints-1:0] pair_wide;
  logic [TwW-1:0]       tw_rd_index;  // j: the butterfly's place in its block
  assign pair_wide    = {1'b0, pair_q};
  assign top_index    = ((pair_wide >> LogStep) << (LogStep + 1))
                        | (pair_wide & LogPoints'(Step - 1));
  assign bottom_index = top_index | LogPoints'(Step);
  assign tw_rd_index  = TwW'(pair_q & PairW'(Step - 1));
  logic both_full;
  assign both_full = full_q[{rd_bank_q, top_index}] && full_q[{rd_bank_q, bottom_index}];

  // The pair register feeding the butterfly.
  logic                 pair_valid_q;
  logic [Width-1:0]     pair_a_q, pair_b_q, pair_twiddle_q;
  logic [LogPoints-1:0] pair_top_q, pair_bottom_q;
  logic                 bf_in_ready;

  logic                 rd_en;
  logic [LogPoints:0]   rd_addr;
  logic [Width-1:0]     rd_data_q;
  always_comb begin
    rd_en   = 1'b0;
    rd_addr = {rd_bank_q, top_index};
    unique case (rd_state_q)
      RdTop:    rd_en = both_full && !pair_valid_q;
      RdBottom: begin rd_en = 1'b1; rd_addr = {rd_bank_q, bottom_index}; end
      default:  rd_en = 1'b0;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (write) begin
      buffer_q[wr_addr] <= in_data_i;
    end
    if (rd_en) begin
      rd_data_q <= buffer_q[rd_addr];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q       <= '0;
      wr_bank_q    <= 1'b0;
      wr_count_q   <= '0;
      rd_state_q   <= RdTop;
      rd_bank_q    <= 1'b0;
      pair_q       <= '0;
      pair_valid_q <= 1'b0;
    end else begin
      if (write) begin
        full_q[wr_addr] <= 1'b1;
        wr_count_q      <= wr_count_q + 1'b1;
        if (wr_count_q == LogPoints'(Points - 1)) begin
          wr_bank_q <= !wr_bank_q;
        end
      end
      if (rd_en) begin
        full_q[rd_addr] <= 1'b0;  // freed as it is read (never the entry being written)
      end
      if (pair_valid_q && bf_in_ready) begin
        pair_valid_q <= 1'b0;
      end
      unique case (rd_state_q)
        RdTop:    if (rd_en) rd_state_q <= RdBottom;
        RdBottom: rd_state_q <= RdTake;
        default: begin
          rd_state_q   <= RdTop;
          pair_valid_q <= 1'b1;
          pair_q       <= pair_q + 1'b1;
          if (pair_q == PairW'(Points / 2 - 1)) begin
            rd_bank_q <= !rd_bank_q;
          end
        end
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    unique case (rd_state_q)
      RdTop: if (rd_en) begin
        pair_twiddle_q <= twiddle_q[tw_rd_index];
        pair_top_q     <= top_index;
        pair_bottom_q  <= bottom_index;
      end
      RdBottom: pair_a_q <= rd_data_q;
      default:  pair_b_q <= rd_data_q;
    endcase
  end

  ntt_butterfly #(
    .Width      (Width),
    .IndexWidth (LogPoints),
    .MulLatency (MulLatency)
  ) u_butterfly (
    .clk_i,
    .rst_ni,
    .cfg_we_i,
    .cfg_modulus_i,
    .cfg_modulus_inv_i,
    .in_valid_i     (pair_valid_q),
    .in_ready_o     (bf_in_ready),
    .a_i            (pair_a_q),
    .b_i            (pair_b_q),
    .twiddle_i      (pair_twiddle_q),
    .top_index_i    (pair_top_q),
    .bottom_index_i (pair_bottom_q),
    .out_valid_o,
    .out_ready_i,
    .out_index_o,
    .out_data_o
  );
endmodule
