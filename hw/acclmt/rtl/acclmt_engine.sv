// AcclMT's Poseidon hash engine at state widths t = 2 … MaxWidth (arity 1 … 11): a full-round
// (FR) sub-engine of three full threads (18 modular multipliers) and a partial-round (PR)
// sub-engine of one full and two partial threads (12), fed in the paper's two-batch schedule
// (AcclMT §III, Fig. 5):
//
//   "the Poseidon Hash data is divided into two batches. The full-round engine first performs
//   half of the full rounds for both batches, then switches to partial mode for the second
//   batch's partial rounds, while the partial-round engine completes the first batch's partial
//   rounds. The partial-round engine then processes the second batch, with the full-round
//   engine finishing the remaining full rounds in full mode."
//
// With h = R_F/2 and rounds numbered 0 … R_F + R_P − 1 (partial rounds h … h + R_P − 1), each
// pair of batches A (buffer 0) and B (buffer 1) runs as segments, each a range of rounds of one
// batch on one sub-engine:
//
//   FR: A[0, h)  B[0, h)  B[h, R_P)  A[h+R_P, R)  B[h+R_P, R)     — R_P + 1.5·R_F rounds
//   PR:          A[h, h+R_P)         B[R_P, h+R_P)                — R_P + R_F/2 rounds
//
// so the FR sub-engine, the busier, bounds the period: R_P + 1.5·R_F slots per two batches
// against R_F + R_P for two FR engines. Baseline = 1 builds that baseline instead ("an
// unoptimized design that uses two full-round engines, as in TRIDENT"): two FR sub-engines,
// each taking one batch through all its rounds — the area comparison's reference.
//
// A sub-engine issues one hash's round per cycle (every other cycle for α = 7) from the
// batch's buffer, round after round over the batch; each result returns to its buffer entry
// Latency cycles later (acclmt_round) and a per-entry round counter lets an entry's next round
// issue only after its last one returned, so a batch moves between the sub-engines with no
// barrier and a batch smaller than the pipeline only waits where it must. A round of a batch of
// n hashes takes n + SlotGap cycles; a segment whose batch comes from the other sub-engine
// starts HandoverGap cycles late. The paper does not explain its schedule's overheads: its
// 35.44 cycles per hash (Table I, arity 2) and its 7.04 % / 3.55 % time loss against the
// baseline imply about 3.4 % per slot and 0.54 slot per pair of batches over the ideal
// (R_P + 1.5·R_F)/2 (notes §C.2 M6); SlotGap = 1 and HandoverGap = 9 (at Batch = 32) are those
// overheads, and SlotGap = 1, HandoverGap = 0 the fastest this engine runs.
//
// Rounds are zkaccel-poseidon's uniform rounds (UniformRounds: a constant vector, the S-box,
// then a dense layer in full rounds and a sparse one — 2t − 1 products — in partial rounds),
// each cut into beats of three lanes for the three threads (crates/hwvectors/src/program.rs):
// a full round is k² beats (k = ⌈t/3⌉; each thread S-boxes its lane, a 3 × 3 tile of the layer
// feeds three output lanes), a partial round ⌈(t − 1)/2⌉ beats (thread 0 on lane 0, S-boxed,
// threads 1 and 2 on two more lanes). A beat's outputs go to the entry's other state bank,
// written or added to (the self-adder); the entry's round counter advances when the round's
// last beat returns. At t = 3 every round is one beat: the engine of Table I's first row.
// A beat's lanes, modes and 3 × 3 block index follow from t, the round and the beat; the
// blocks (the layers' tiles) are configuration.
//
// Streams: states enter (valid/ready, Montgomery form, lanes packed lane 0 lowest) into the
// next free batch buffer; a batch closes when full or with in_last_i (the job's last state:
// a pair then closes with an empty second batch); permuted states leave in input order
// (valid/ready). Configuration (cfg_we_i, cfg_addr_i, cfg_data_i), written while idle:
//
//   0 modulus P   1 P' = −P^{-1} mod 2^Width   2 one (2^Width mod P)
//   3 rounds and S-box: [1:0] α (0: 3, 1: 5, 2: 7), [15:8] R_F (even), [23:16] R_P, [27:24] t
//   0x1000 + 16·r + lane   round r's constant (lane < t)
//   0x2000 + 16·n + 3·i + j   block n's B[i][j] (slot i, thread j)
//
// (Montgomery form), with R_F/2 ≤ R_P and R_F + R_P ≤ MaxRounds; writing 0 or 1 reloads the
// multipliers' modulus registers. cfg_error_o flags a t outside 2 … MaxWidth (the engine then
// takes no state).
module acclmt_engine #(
  parameter int Width       = 256,
  parameter int MulLatency  = 1,
  parameter int Batch       = 32,
  parameter int MaxRounds   = 128,
  parameter int MaxWidth    = 12,
  parameter int Baseline    = 0,
  parameter int SlotGap     = 1,
  parameter int HandoverGap = 9,
  localparam int AddrWidth  = 15
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 cfg_we_i,
  input  logic [AddrWidth-1:0] cfg_addr_i,
  input  logic [Width-1:0]     cfg_data_i,
  output logic                 cfg_error_o,
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic                 in_last_i,
  input  logic [MaxWidth*Width-1:0] in_state_i,
  // Closes the batch being loaded now, without a state (no effect while one is offered): a
  // part-filled batch closes with its states, an empty second batch closes empty (its pair
  // runs batch A alone), an empty first batch stays open. A caller that feeds the engine as work
  // becomes ready closes a batch when in_wanted_o says a sub-engine waits for it.
  input  logic                 in_close_i,
  // A sub-engine waits for the batch being loaded (its staging buffer is not closed).
  output logic                 in_wanted_o,
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [MaxWidth*Width-1:0] out_state_o,
  // Some batch is loaded, in flight or draining.
  output logic                 busy_o
);
  localparam int IdxWidth   = $clog2(Batch);
  localparam int FillWidth  = IdxWidth + 1;
  localparam int RoundWidth = 8;
  localparam int GapWidth   = 8;
  localparam int LaneWidth  = 4;
  localparam int BeatWidth  = 5;
  localparam int MaxChunks  = (MaxWidth + 2) / 3;
  localparam int MaxBlocks  = 2 * MaxChunks * MaxChunks + MaxRounds * (MaxWidth / 2);
  localparam int BlockWidth = $clog2(MaxBlocks);
  localparam int RoundIdxWidth = $clog2(MaxRounds);
  localparam int LaneIdxWidth  = $clog2(MaxWidth);
  // The tag beside a beat: {bank, last beat, accumulate[3], lane valid[3], lanes[3], buf, idx}.
  localparam int TagWidth   = 1 + IdxWidth + 3 * LaneWidth + 3 + 3 + 1 + 1;
  localparam int MontLatency = 3 * (MulLatency + 1);
  // A beat's block reaches the threads' MDS multipliers this many cycles after its issue.
  localparam int BlockDelay  = 3 * MontLatency + 2;

  initial begin
    if (Batch < 2 || (1 << IdxWidth) != Batch) begin
      $fatal(1, "acclmt_engine: Batch must be a power of two, at least 2");
    end
    if (MaxRounds > 255 || MaxRounds > 128 || MaxBlocks > 1536) begin
      $fatal(1, "acclmt_engine: MaxRounds must fit the round counters and the address map");
    end
    if (MaxWidth < 2 || MaxWidth > 12) begin
      $fatal(1, "acclmt_engine: MaxWidth is 2 … 12");
    end
    if (SlotGap < 0 || SlotGap >= (1 << GapWidth) || HandoverGap < 0
        || HandoverGap >= (1 << GapWidth)) begin
      $fatal(1, "acclmt_engine: gaps must be below %0d cycles", 1 << GapWidth);
    end
  end

  // ---------------------------------------------------------------- configuration
  logic [Width-1:0]      modulus_q, modulus_inv_q, one_q;
  logic [1:0]            alpha_q;
  logic [3:0]            width_q;
  logic [RoundWidth-1:0] full_rounds_q, partial_rounds_q;
  logic [Width-1:0]      rc_q [MaxRounds][MaxWidth];
  logic [Width-1:0]      blk_q [MaxBlocks][9];
  logic                  mul_cfg_we_q;
  // 0x1000 + 16·r + lane; 0x2000 + 16·n + e.
  logic                  rc_we, blk_we;
  logic [7:0]            rc_round;
  logic [AddrWidth-1:0]  blk_addr;
  logic [AddrWidth-5:0]  blk_n;
  always_comb begin
    rc_round = cfg_addr_i[11:4];
    blk_addr = cfg_addr_i - AddrWidth'('h2000);
    blk_n    = blk_addr[AddrWidth-1:4];
    rc_we    = cfg_we_i && cfg_addr_i[14:12] == 3'd1 && int'(rc_round) < MaxRounds
               && int'(cfg_addr_i[3:0]) < MaxWidth;
    blk_we   = cfg_we_i && cfg_addr_i >= AddrWidth'('h2000) && int'(blk_n) < MaxBlocks
               && cfg_addr_i[3:0] < 4'd9;
  end

  always_ff @(posedge clk_i) begin
    if (cfg_we_i) begin
      if (cfg_addr_i == 0) modulus_q <= cfg_data_i;
      if (cfg_addr_i == 1) modulus_inv_q <= cfg_data_i;
      if (cfg_addr_i == 2) one_q <= cfg_data_i;
      if (cfg_addr_i == 3) begin
        alpha_q          <= cfg_data_i[1:0];
        full_rounds_q    <= cfg_data_i[15:8];
        partial_rounds_q <= cfg_data_i[23:16];
        width_q          <= cfg_data_i[27:24];
      end
    end
    if (rc_we) begin
      rc_q[rc_round[RoundIdxWidth-1:0]][cfg_addr_i[LaneIdxWidth-1:0]] <= cfg_data_i;
    end
    if (blk_we) begin
      blk_q[BlockWidth'(blk_n)][cfg_addr_i[3:0]] <= cfg_data_i;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mul_cfg_we_q <= 1'b0;
    end else begin
      mul_cfg_we_q <= cfg_we_i && (cfg_addr_i == 0 || cfg_addr_i == 1);
    end
  end
  logic cfg_ok;
  assign cfg_ok      = width_q >= 4'd2 && int'(width_q) <= MaxWidth;
  assign cfg_error_o = !cfg_ok;
  logic unused_cfg;
  assign unused_cfg = ^{cfg_data_i[Width-1:28], cfg_data_i[7:2], rc_round, blk_addr[3:0]};

  // The beat geometry: k = ⌈t/3⌉ chunks, k² beats per full round, ⌈(t − 1)/2⌉ per partial.
  logic [2:0]           chunks;
  logic [BeatWidth-1:0] full_beats, partial_beats;
  always_comb begin
    chunks        = width_q <= 4'd3 ? 3'd1 : width_q <= 4'd6 ? 3'd2 : width_q <= 4'd9 ? 3'd3 : 3'd4;
    full_beats    = BeatWidth'(chunks) * BeatWidth'(chunks);
    partial_beats = BeatWidth'(width_q[3:1]);
  end

  logic [RoundWidth-1:0] half_rounds, rounds, partial_end;
  assign half_rounds = full_rounds_q >> 1;
  assign rounds      = full_rounds_q + partial_rounds_q;
  assign partial_end = half_rounds + partial_rounds_q;
  logic alpha7;
  assign alpha7 = alpha_q == 2'd2;

  // ---------------------------------------------------------------- input staging
  // The double-buffered input loader: batches fill staging buffer 0 and 1 alternately, ahead
  // of the sub-engines; a batch's first round reads its states from there, and the buffer is
  // free again once that round has issued all of them.
  logic [Width-1:0]     stage_q [2][Batch][MaxWidth];
  logic [1:0]           stage_closed_q;       // loaded for pair stage_gen_q, not yet consumed
  logic [FillWidth-1:0] stage_fill_q [2];
  logic [1:0]           stage_gen_q [2];
  logic [1:0]           stage_free;           // a sub-engine consumed the buffer this cycle
  logic [1:0]           stage_consumed;       // sub-engine e consumed stage_consumed_buf[e]
  logic                 stage_consumed_buf [2];
  always_comb begin
    stage_free = '0;
    for (int e = 0; e < 2; e++) begin
      if (stage_consumed[e]) begin
        stage_free[stage_consumed_buf[e]] = 1'b1;
      end
    end
  end

  logic                 load_buf_q, pending_empty_q;
  logic [1:0]           load_pair_q;
  logic [IdxWidth-1:0]  load_idx_q;
  logic                 load_we, close_load, close_empty;

  logic                 flush, flush_empty;
  assign in_ready_o  = cfg_ok && !stage_closed_q[load_buf_q] && !pending_empty_q;
  assign load_we     = in_valid_i && in_ready_o;
  assign close_load  = load_we && (in_last_i || load_idx_q == IdxWidth'(Batch - 1));
  assign close_empty = pending_empty_q && !stage_closed_q[1];
  // in_close_i: a part-filled batch closes as with in_last_i on its last state (an A batch
  // then takes no empty B: its pair's B is loaded as usual), an empty B closes empty.
  assign flush       = in_close_i && !in_valid_i && in_ready_o
                       && (load_idx_q != 0 || load_buf_q);
  assign flush_empty = flush && load_idx_q == 0;

  always_ff @(posedge clk_i) begin
    if (load_we) begin
      for (int l = 0; l < MaxWidth; l++) begin
        stage_q[load_buf_q][load_idx_q][l] <= in_state_i[l*Width +: Width];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      load_buf_q      <= 1'b0;
      load_pair_q     <= '0;
      load_idx_q      <= '0;
      pending_empty_q <= 1'b0;
      stage_closed_q  <= '0;
      stage_fill_q[0] <= '0;
      stage_fill_q[1] <= '0;
      stage_gen_q[0]  <= '0;
      stage_gen_q[1]  <= '0;
    end else begin
      stage_closed_q <= stage_closed_q & ~stage_free;
      if (close_empty) begin
        // The job ended with batch A: its pair's batch B is empty.
        stage_closed_q[1] <= 1'b1;
        stage_fill_q[1]   <= '0;
        stage_gen_q[1]    <= load_pair_q;
        load_buf_q        <= 1'b0;
        load_pair_q       <= load_pair_q + 1'b1;
        pending_empty_q   <= 1'b0;
      end else if (flush) begin
        load_idx_q                 <= '0;
        stage_closed_q[load_buf_q] <= 1'b1;
        stage_fill_q[load_buf_q]   <= flush_empty ? '0 : FillWidth'(load_idx_q);
        stage_gen_q[load_buf_q]    <= load_pair_q;
        load_buf_q                 <= !load_buf_q;
        if (load_buf_q) begin
          load_pair_q <= load_pair_q + 1'b1;
        end
      end else if (load_we) begin
        load_idx_q <= close_load ? '0 : load_idx_q + 1'b1;
        if (close_load) begin
          stage_closed_q[load_buf_q] <= 1'b1;
          stage_fill_q[load_buf_q]   <= FillWidth'(load_idx_q) + 1'b1;
          stage_gen_q[load_buf_q]    <= load_pair_q;
          load_buf_q                 <= !load_buf_q;
          if (load_buf_q) begin
            load_pair_q <= load_pair_q + 1'b1;
          end else if (in_last_i) begin
            pending_empty_q <= 1'b1;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- working buffers
  // Batch A's states between rounds in buffer 0, B's in buffer 1, each entry with two banks
  // (round r reads bank r mod 2 — round 0 the staging buffer — and writes the other) and the
  // round it runs next (0 once drained: the next batch's first round may then issue it). A batch's
  // descriptor (active, size, pair) sits in slot [buffer][pair parity], so the next pair's
  // batch can start while the drainer still empties this one.
  logic [Width-1:0]                     state_q [2][Batch][2][MaxWidth];
  logic [2*Batch-1:0][RoundWidth-1:0]   round_q;
  logic [1:0][1:0]                      desc_active_q;
  logic [FillWidth-1:0]                 desc_fill_q [2][2];
  logic [1:0]                           desc_gen_q [2][2];

  // Requests to the buffers from the sub-engines (results, first-round descriptors) and the
  // drainer (entries emptied, descriptors retired); they never touch the same entry or slot.
  logic [1:0]            wb_valid;
  logic [TagWidth-1:0]   wb_tag [2];
  logic [3*Width-1:0]    wb_state [2];
  logic [Width-1:0]      wb_value [2][3];
  logic [1:0]            desc_set;
  logic                  desc_set_buf [2];
  logic [1:0]            desc_set_gen [2];
  logic [FillWidth-1:0]  desc_set_fill [2];
  logic                  drain_take, drain_end;
  logic                  drain_buf_q;
  logic [1:0]            drain_pair_q;
  logic [FillWidth-1:0]  drain_idx_q;  // counts to the size, one past the last entry
  logic [IdxWidth-1:0]   drain_entry;
  assign drain_entry = drain_idx_q[IdxWidth-1:0];

  // The self-adder: a beat's slot i writes its lane of the entry's write bank, or adds to it.
  logic                    wb_buf [2], wb_bank [2], wb_last [2];
  logic [IdxWidth-1:0]     wb_idx [2];
  logic [2:0]              wb_acc [2], wb_lane_ok [2];
  logic [LaneIdxWidth-1:0] wb_lane [2][3];
  for (genvar e = 0; e < 2; e++) begin : g_wb
    assign {wb_bank[e], wb_last[e], wb_acc[e], wb_lane_ok[e]} = wb_tag[e][TagWidth-1 -: 8];
    assign {wb_buf[e], wb_idx[e]} = wb_tag[e][IdxWidth:0];
    for (genvar i = 0; i < 3; i++) begin : g_slot
      logic [LaneWidth-1:0] lane;
      logic [Width-1:0]     sum, unused_diff;
      assign lane          = wb_tag[e][IdxWidth + 1 + i*LaneWidth +: LaneWidth];
      assign wb_lane[e][i] = lane[LaneIdxWidth-1:0];
      mod_add_sub #(.Width(Width)) u_self_add (
        .modulus_i(modulus_q), .a_i(state_q[wb_buf[e]][wb_idx[e]][wb_bank[e]][wb_lane[e][i]]),
        .b_i(wb_state[e][i*Width +: Width]), .sum_o(sum), .diff_o(unused_diff)
      );
      assign wb_value[e][i] = wb_acc[e][i] ? sum : wb_state[e][i*Width +: Width];
      if (LaneIdxWidth < LaneWidth) begin : g_unused_lane
        logic unused_lane;
        assign unused_lane = ^lane[LaneWidth-1:LaneIdxWidth];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    for (int e = 0; e < 2; e++) begin
      for (int i = 0; i < 3; i++) begin
        if (wb_valid[e] && wb_lane_ok[e][i]) begin
          state_q[wb_buf[e]][wb_idx[e]][wb_bank[e]][wb_lane[e][i]] <= wb_value[e][i];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      round_q       <= '0;
      desc_active_q <= '0;
      for (int b = 0; b < 2; b++) begin
        for (int g = 0; g < 2; g++) begin
          desc_fill_q[b][g] <= '0;
          desc_gen_q[b][g]  <= '0;
        end
      end
    end else begin
      for (int e = 0; e < 2; e++) begin
        if (wb_valid[e] && wb_last[e]) begin
          round_q[{wb_buf[e], wb_idx[e]}] <= round_q[{wb_buf[e], wb_idx[e]}] + 1'b1;
        end
        if (desc_set[e]) begin
          desc_active_q[desc_set_buf[e]][desc_set_gen[e][0]] <= 1'b1;
          desc_fill_q[desc_set_buf[e]][desc_set_gen[e][0]]   <= desc_set_fill[e];
          desc_gen_q[desc_set_buf[e]][desc_set_gen[e][0]]    <= desc_set_gen[e];
        end
      end
      if (drain_take) begin
        round_q[{drain_buf_q, drain_entry}] <= '0;
      end
      if (drain_end) begin
        desc_active_q[drain_buf_q][drain_pair_q[0]] <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- sub-engines
  // Segment s of sub-engine e: batch buffer, rounds [first, last), handover, and whether it
  // ends the pair.
  typedef struct packed {
    logic                  buf_id;
    logic [RoundWidth-1:0] first;
    logic [RoundWidth-1:0] last;
    logic                  handover;
    logic                  ends_pair;
  } segment_t;

  function automatic segment_t segment(input int e, input logic [2:0] s);
    // {buffer, first, last, handover, ends pair}
    localparam logic [RoundWidth-1:0] Zero = '0;
    segment_t seg;
    if (Baseline != 0) begin
      seg = {e[0], Zero, rounds, 1'b0, 1'b1};
    end else if (e == 0) begin
      case (s)
        3'd0:    seg = {1'b0, Zero, half_rounds, 1'b0, 1'b0};
        3'd1:    seg = {1'b1, Zero, half_rounds, 1'b0, 1'b0};
        3'd2:    seg = {1'b1, half_rounds, partial_rounds_q, 1'b0, 1'b0};
        3'd3:    seg = {1'b0, partial_end, rounds, 1'b1, 1'b0};
        default: seg = {1'b1, partial_end, rounds, 1'b1, 1'b1};
      endcase
    end else begin
      case (s)
        3'd0:    seg = {1'b0, half_rounds, partial_end, 1'b1, 1'b0};
        default: seg = {1'b1, partial_rounds_q, partial_end, 1'b1, 1'b1};
      endcase
    end
    return seg;
  endfunction

  logic [1:0] stage_wanted;
  assign in_wanted_o = |stage_wanted;

  for (genvar e = 0; e < 2; e++) begin : g_engine
    logic                  started_q;
    logic [2:0]            seg_q;
    logic [1:0]            pair_q;
    logic                  buf_q;
    logic [RoundWidth-1:0] round_cur_q, round_last_q;
    logic [BeatWidth-1:0]  beat_q;
    logic [2:0]            ci_q, co_q;  // a full round's beat: input and output chunk
    logic [IdxWidth-1:0]   idx_q;
    logic [FillWidth-1:0]  fill_cur_q;
    logic [GapWidth-1:0]   gap_q;

    segment_t seg;
    assign seg = segment(e, seg_q);

    // The issued beat, registered on its way to the datapath.
    logic                  iss_valid_q, iss_full_q;
    logic [3*Width-1:0]    iss_state_q, iss_rc_q, round_state;
    logic [TagWidth-1:0]   iss_tag_q;
    logic [BlockWidth-1:0] iss_blk_q;

    // This cycle's segment parameters: the started segment's, or the one starting now. A
    // segment from round 0 takes its batch from staging (and records its descriptor); a later
    // one needs the batch's descriptor of this pair.
    logic                  first_pass, available, startable, starting, empty_segment;
    logic [FillWidth-1:0]  seg_fill;
    logic                  cur_buf;
    logic [RoundWidth-1:0] cur_round, cur_last;
    logic [IdxWidth-1:0]   cur_idx;
    logic [FillWidth-1:0]  cur_fill;
    logic [BeatWidth-1:0]  cur_beat;
    logic [2:0]            cur_ci, cur_co;
    logic                  ready, issue, pass_done, last_beat, round_done, segment_done;
    logic                  full_round;
    // The beat: each thread's lane, each slot's lane, accumulate flags, block.
    logic [LaneWidth-1:0]  src_lane [3], dst_lane [3];
    logic [2:0]            src_ok, dst_ok, dst_acc;
    logic [BlockWidth-1:0] blk;
    logic [RoundWidth-1:0] partial_index;

    always_comb begin
      first_pass    = seg.first == 0;
      if (first_pass) begin
        available = stage_closed_q[seg.buf_id] && stage_gen_q[seg.buf_id] == pair_q
                    && !desc_active_q[seg.buf_id][pair_q[0]];
        seg_fill  = stage_fill_q[seg.buf_id];
      end else begin
        available = desc_active_q[seg.buf_id][pair_q[0]]
                    && desc_gen_q[seg.buf_id][pair_q[0]] == pair_q;
        seg_fill  = desc_fill_q[seg.buf_id][pair_q[0]];
      end
      startable     = !started_q && gap_q == 0 && available;
      empty_segment = seg_fill == 0 || seg.first >= seg.last;
      starting      = startable && !empty_segment;
      cur_buf       = started_q ? buf_q : seg.buf_id;
      cur_round     = started_q ? round_cur_q : seg.first;
      cur_last      = started_q ? round_last_q : seg.last;
      cur_idx       = started_q ? idx_q : '0;
      cur_fill      = started_q ? fill_cur_q : seg_fill;
      cur_beat      = started_q ? beat_q : '0;
      partial_index = cur_round - half_rounds;
      cur_ci        = started_q ? ci_q : '0;
      cur_co        = started_q ? co_q : '0;
      ready         = round_q[{cur_buf, cur_idx}] == cur_round;
      issue         = ready && gap_q == 0
                      && ((started_q) || (starting && !(seg.handover && HandoverGap != 0)));
      full_round    = cur_round < half_rounds || cur_round >= partial_end;
      last_beat     = cur_beat + 1'b1 == (full_round ? full_beats : partial_beats);
      pass_done     = issue && FillWidth'(cur_idx) + 1'b1 == cur_fill;
      round_done    = pass_done && last_beat;
      segment_done  = round_done && cur_round + 1'b1 == cur_last;
      for (int j = 0; j < 3; j++) begin
        if (full_round) begin
          src_lane[j] = LaneWidth'(3 * int'(cur_ci) + j);
          dst_lane[j] = LaneWidth'(3 * int'(cur_co) + j);
          dst_acc[j]  = cur_ci != 0;
        end else begin
          src_lane[j] = j == 0 ? '0 : LaneWidth'(2 * int'(cur_beat) + j);
          dst_lane[j] = src_lane[j];
          dst_acc[j]  = j == 0 && cur_beat != 0;
        end
        src_ok[j] = src_lane[j] < width_q;
        dst_ok[j] = dst_lane[j] < width_q;
      end
      if (full_round) begin
        blk = BlockWidth'(cur_beat);
        if (cur_round + 1'b1 == half_rounds && partial_rounds_q != 0) begin
          blk = blk + BlockWidth'(full_beats);
        end
      end else begin
        blk = BlockWidth'(2 * int'(full_beats) + int'(partial_index) * int'(partial_beats)
                          + int'(cur_beat));
      end
      // A first pass records the batch's descriptor when it starts (or finds it empty) and
      // frees the staging buffer once its last state has issued.
      desc_set[e]      = startable && first_pass;
      desc_set_buf[e]  = seg.buf_id;
      desc_set_gen[e]  = pair_q;
      desc_set_fill[e] = seg_fill;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        started_q    <= 1'b0;
        seg_q        <= '0;
        pair_q       <= '0;
        buf_q        <= 1'b0;
        round_cur_q  <= '0;
        round_last_q <= '0;
        beat_q       <= '0;
        ci_q         <= '0;
        co_q         <= '0;
        idx_q        <= '0;
        fill_cur_q   <= '0;
        gap_q        <= '0;
      end else begin
        if (gap_q != 0) begin
          gap_q <= gap_q - 1'b1;
        end
        if (startable && empty_segment) begin
          seg_q  <= seg.ends_pair ? '0 : seg_q + 1'b1;
          pair_q <= pair_q + {1'b0, seg.ends_pair};
        end else if (starting) begin
          started_q    <= 1'b1;
          buf_q        <= seg.buf_id;
          round_cur_q  <= seg.first;
          round_last_q <= seg.last;
          beat_q       <= '0;
          ci_q         <= '0;
          co_q         <= '0;
          idx_q        <= '0;
          fill_cur_q   <= seg_fill;
          if (seg.handover && HandoverGap != 0) begin
            gap_q <= GapWidth'(HandoverGap - 1);
          end
        end
        if (issue) begin
          // α = 7 leaves a cycle empty after every issue (the S-box's II of 2).
          gap_q <= alpha7 ? 1 : 0;
          idx_q <= cur_idx + 1'b1;
          if (pass_done) begin
            idx_q <= '0;
            if (SlotGap != 0) begin
              gap_q <= GapWidth'(SlotGap);
            end
            if (last_beat) begin
              round_cur_q <= cur_round + 1'b1;
              beat_q      <= '0;
              ci_q        <= '0;
              co_q        <= '0;
            end else begin
              beat_q <= cur_beat + 1'b1;
              if (cur_ci + 1'b1 == chunks) begin
                ci_q <= '0;
                co_q <= cur_co + 1'b1;
              end else begin
                ci_q <= cur_ci + 1'b1;
              end
            end
          end
          if (segment_done) begin
            started_q <= 1'b0;
            seg_q     <= seg.ends_pair ? '0 : seg_q + 1'b1;
            pair_q    <= pair_q + {1'b0, seg.ends_pair};
          end
        end
      end
    end

    // Waiting at a first pass for the batch the loader is filling.
    assign stage_wanted[e] = !started_q && gap_q == 0 && first_pass && seg.buf_id == load_buf_q
                             && pair_q == load_pair_q && !stage_closed_q[seg.buf_id];

    // The staging buffer this sub-engine consumed.
    logic consumed;
    assign consumed = (round_done && cur_round == 0) || (startable && first_pass && empty_segment);
    assign stage_consumed[e]     = consumed;
    assign stage_consumed_buf[e] = cur_buf;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        iss_valid_q <= 1'b0;
      end else begin
        iss_valid_q <= issue;
      end
    end
    always_ff @(posedge clk_i) begin
      iss_full_q <= full_round;
      iss_blk_q  <= blk;
      iss_tag_q  <= {!cur_round[0], last_beat, dst_acc, dst_ok,
                     dst_lane[2], dst_lane[1], dst_lane[0], cur_buf, cur_idx};
      for (int j = 0; j < 3; j++) begin
        logic [LaneIdxWidth-1:0] l;
        l = src_lane[j][LaneIdxWidth-1:0];
        iss_state_q[j*Width +: Width] <= !src_ok[j] ? '0
                                         : cur_round == 0 ? stage_q[cur_buf][cur_idx][l]
                                         : state_q[cur_buf][cur_idx][cur_round[0]][l];
        iss_rc_q[j*Width +: Width]    <= src_ok[j] ? rc_q[cur_round[RoundIdxWidth-1:0]][l] : '0;
      end
    end

    // The beat's block, read as it reaches the threads' MDS multipliers.
    logic [BlockWidth-1:0] blk_late;
    logic [9*Width-1:0]    block;
    acclmt_delay #(.Width(BlockWidth), .Depth(BlockDelay)) u_blk (
      .clk_i, .data_i(iss_blk_q), .data_o(blk_late)
    );
    for (genvar n = 0; n < 9; n++) begin : g_block
      assign block[n*Width +: Width] = blk_q[blk_late][n];
    end

    acclmt_round #(
      .Width       (Width),
      .MulLatency  (MulLatency),
      .FullThreads ((e == 0 || Baseline != 0) ? 3 : 1),
      .TagWidth    (TagWidth)
    ) u_round (
      .clk_i, .rst_ni,
      .cfg_we_i          (mul_cfg_we_q),
      .cfg_modulus_i     (modulus_q),
      .cfg_modulus_inv_i (modulus_inv_q),
      .cfg_one_i         (one_q),
      .cfg_alpha_i       (alpha_q),
      .mds_i             (block),
      .valid_i           (iss_valid_q),
      .full_i            (iss_full_q),
      .state_i           (iss_state_q),
      .rc_i              (iss_rc_q),
      .tag_i             (iss_tag_q),
      .valid_o           (wb_valid[e]),
      .state_o           (round_state),
      .tag_o             (wb_tag[e])
    );
    assign wb_state[e] = round_state;
  end

  // ---------------------------------------------------------------- drainer
  // Empties batches in input order (A then B, pair after pair), each entry as soon as its last
  // round has returned, resetting its round counter for the next batch.
  logic                 out_valid_q;
  logic [MaxWidth*Width-1:0] out_state_q;
  logic                 drain_ours, out_free;

  always_comb begin
    out_free   = !out_valid_q || out_ready_i;
    drain_ours = desc_active_q[drain_buf_q][drain_pair_q[0]]
                 && desc_gen_q[drain_buf_q][drain_pair_q[0]] == drain_pair_q;
    drain_end  = drain_ours && drain_idx_q == desc_fill_q[drain_buf_q][drain_pair_q[0]];
    drain_take = drain_ours && !drain_end && out_free
                 && round_q[{drain_buf_q, drain_entry}] == rounds;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      drain_buf_q  <= 1'b0;
      drain_pair_q <= '0;
      drain_idx_q  <= '0;
      out_valid_q  <= 1'b0;
    end else begin
      if (out_ready_i) begin
        out_valid_q <= 1'b0;
      end
      if (drain_take) begin
        out_valid_q <= 1'b1;
        drain_idx_q <= drain_idx_q + 1'b1;
      end
      if (drain_end) begin
        drain_idx_q <= '0;
        drain_buf_q <= !drain_buf_q;
        if (drain_buf_q) begin
          drain_pair_q <= drain_pair_q + 1'b1;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (drain_take) begin
      for (int l = 0; l < MaxWidth; l++) begin
        out_state_q[l*Width +: Width] <= state_q[drain_buf_q][drain_entry][rounds[0]][l];
      end
    end
  end
  assign out_valid_o = out_valid_q;
  assign out_state_o = out_state_q;
  assign busy_o      = |stage_closed_q || pending_empty_q || |desc_active_q || out_valid_q;
endmodule
