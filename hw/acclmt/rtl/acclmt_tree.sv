// AcclMT's Merkle controller (§III-C, Fig. 3, 6, 7): two Poseidon engines of acclmt_engine
// build a binary tree of 2^depth leaves in standard subtrees of 2^SubtreeDepth leaves.
// Beyond the paper, Arity = A (3 … 11) builds trees of arity A: a leaf is A elements, a hash
// takes A children ([tag, c0 … c(A−1)] on engines of t = A + 1), a buffer word holds A
// siblings, every "two" below reads "A" and every power of two a power of A (a tree of
// A^depth leaves, subtrees of A^SubtreeDepth: 4,096 leaves for A = 2, 4, 8 and 1,331 for 11
// at the paper's buffer sizes). Nothing divides by A: each count that addresses a word keeps
// its quotient and remainder by A as counters, and the rings' sizes are powers of two.
//
//   - The **input loader** takes the leaves' elements (two per leaf, Montgomery form) from a
//     stream — the off-chip read — into two ping-pong buffers of one subtree each; the leaf
//     hash engine reads a buffer once it is full, and the loader refills it once the LHE has
//     read it all.
//   - The **leaf hash engine (LHE)** hashes each leaf's two elements, [tag, e0, e1] → the
//     digest lane, into the **leaf hash buffer** (one subtree: 2^SubtreeDepth nodes, the paper's
//     128 KB). Its leaves of subtree i + 1 overwrite those of subtree i only as the RHE has read
//     them: a pair of batches enters the LHE once the RHE has read as many leaves of subtree i.
//   - The **root hash engine (RHE)** aggregates a subtree once the LHE has finished it: layer 1
//     from the leaf hash buffer, the **major aggregation** (layers of at least MajorNodes nodes)
//     through the **root hash buffer** (2^(SubtreeDepth−1) nodes, 64 KB), the **minor
//     aggregation** (the smaller layers, latency-bound) through the **scratch pad**
//     (MajorNodes nodes, 4 KB), and the subtree's two top nodes into **HIDM Level 0**
//     (2^(Level0Depth+1) nodes). Level 0 aggregates 2^Level0Depth subtrees (fewer in a smaller
//     tree) and its root goes to **Level 1** (2^Level1Depth nodes), which aggregates the rest:
//     trees up to 2^(SubtreeDepth + Level0Depth + Level1Depth) leaves (2^23 by default).
//   - The **dispatch scheduler** with the **merger** feeds the RHE one hash per cycle: minor
//     aggregation and HIDM work first (oldest subtree, lowest layer first), then major
//     aggregation, so the previous subtree's sparse top layers fill the slots of the next one's
//     dense lower layers (Fig. 7). It closes a part-filled batch only when the engine waits for
//     it (acclmt_engine's in_wanted_o / in_close_i), so batches are as full as the ready work.
//
// Buffers are word-organised (a word holds two sibling nodes; one read per hash) and used as
// rings: each subtree (Level-0 group, Level 1) takes the next region of its buffers. A word
// carries its state (live: reserved or holding unread nodes; the ring lap of its last use;
// which halves are written), and is reserved in ring order only (free, and last used on the
// previous lap), so nothing still unread is overwritten. A subtree layer's hash issues when
// the layer below has returned both its children (results return in order, so per-layer
// counts tell) and its result's word is reserved (by the first of the two siblings); a HIDM
// hash when its children's word is complete at the expected lap. Layers of up to four
// subtrees, Level 0 and Level 1 so run at once. Results leave the RHE in issue order; a FIFO
// of destinations routes them.
//
// Configuration (cfg_we_i, cfg_addr_i, cfg_data_i, written while idle): addresses below
// 0x8000 are both engines' (acclmt_engine's map: modulus, P', one, rounds and t = A + 1, round
// constants, blocks); 0x8000 the domain tag (lane 0 of every state, Montgomery form: neptune's
// 2^arity − 1, 3 for a binary tree; circomlib's 0); 0x8001 [7:0] the depth (a tree of
// Arity^depth leaves), [8] the digest lane (neptune 1, circomlib 0). cfg_error_o flags a depth
// the controller does not build or a state width the engines refuse (then it takes no input).
// root_valid_o rises with the root (Montgomery form) and stays until the shape is written again,
// which starts the next tree (no reset needed between trees).
module acclmt_tree #(
  parameter int Width        = 256,
  parameter int Arity        = 2,    // children per hash (the engines' t = Arity + 1)
  parameter int MulLatency   = 1,
  parameter int Batch        = 32,
  parameter int MaxRounds    = 128,
  parameter int SlotGap      = 1,
  parameter int HandoverGap  = 9,
  parameter int SubtreeDepth = 12,   // a standard subtree: Arity^SubtreeDepth leaves
  parameter int MajorNodes   = 128,  // a layer of at least this many nodes is major
  parameter int Level0Depth  = 7,    // Level 0 aggregates up to Arity^Level0Depth subtrees
  parameter int Level1Depth  = 4,    // Level 1 up to Arity^Level1Depth group roots
  localparam int CfgAddrWidth = 16
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    cfg_we_i,
  input  logic [CfgAddrWidth-1:0] cfg_addr_i,
  input  logic [Width-1:0]        cfg_data_i,
  output logic                    cfg_error_o,
  // The leaves' elements, leaf after leaf (Arity each), Montgomery form.
  input  logic                    in_valid_i,
  output logic                    in_ready_o,
  input  logic [Width-1:0]        in_data_i,
  output logic                    root_valid_o,
  output logic [Width-1:0]        root_o,
  // Hashes issued to each engine so far (LHE, RHE), for utilisation.
  output logic [31:0]             lhe_hashes_o,
  output logic [31:0]             rhe_hashes_o
);
  // ---------------------------------------------------------------- sizes
  // A^k, for the sizes below and, by table, for the shapes the configuration asks for.
  localparam int MaxDepth = SubtreeDepth + Level0Depth + Level1Depth;
  function automatic longint pow_arity(input int k);
    longint v = 1;
    for (int i = 0; i < k; i++) v = v * longint'(Arity);
    return v;
  endfunction
  function automatic int ceil_log2(input longint v);  // bits to hold 0 … v − 1 (v ≥ 1)
    int b = 0;
    while ((longint'(1) << b) < v) b++;
    return b;
  endfunction
  function automatic int pow2_ceil(input longint v);
    return 1 << ceil_log2(v);
  endfunction
  localparam int SubtreeLeaves = int'(pow_arity(SubtreeDepth));
  localparam int StateLanes   = Arity + 1;                 // the engines' t
  localparam int Layers       = SubtreeDepth - 1;          // layers of A^(S−1) … A nodes
  localparam int LaneWidth    = ceil_log2(longint'(Arity));          // a node's place in its word
  // Words (A nodes each) of each buffer; the node buffers are rings of a power of two words.
  localparam int LeafWords    = int'(pow_arity(SubtreeDepth - 1));       // leaf hash buffer
  localparam int RootWords    = pow2_ceil(pow_arity(SubtreeDepth - 2));  // root hash buffer
  localparam int ScratchNeed  = (MajorNodes + Arity - 1) / Arity < 2 ? 2 : (MajorNodes + Arity - 1) / Arity;
  localparam int ScratchWords = pow2_ceil(longint'(ScratchNeed));  // scratch pad
  localparam int Level0Words  = pow2_ceil(pow_arity(Level0Depth));       // HIDM Level 0
  localparam int Level1Words  = pow2_ceil(pow_arity(Level1Depth - 1));   // HIDM Level 1
  localparam int CountWidth   = ceil_log2(pow_arity(MaxDepth + 1)) + 1;  // leaf and element counters
  localparam int CntWidth     = ceil_log2(pow_arity(SubtreeDepth - 1)    // per-layer hash counters
                                          + pow_arity(Level0Depth) + pow_arity(Level1Depth)) + 1;
  localparam int Contexts     = 4;                        // subtrees the RHE works on at once
  localparam int DestDepth    = 8 * Batch;                // results in flight, at most
  localparam int DestIdxWidth = $clog2(DestDepth);
  localparam int LeafIdxW     = ceil_log2(longint'(LeafWords));
  localparam int RootIdxW     = $clog2(RootWords);
  localparam int ScrIdxW      = $clog2(ScratchWords);
  localparam int L0IdxW       = $clog2(Level0Words);
  localparam int L1IdxW       = $clog2(Level1Words);
  localparam int IdxMax01     = LeafIdxW > L0IdxW ? LeafIdxW : L0IdxW;
  localparam int WordIdxWidth = IdxMax01 > L1IdxW ? IdxMax01 : L1IdxW;  // the widest buffer's word index
  localparam int PtrWidth     = WordIdxWidth + RootIdxW + 2;  // ring pointers (words, with laps)
  localparam int L0Layers     = Level0Depth + 1;
  localparam int L1Layers     = Level1Depth;
  localparam int SubWidth     = ceil_log2(pow_arity(Level0Depth + Level1Depth) + 1);  // subtree index
  localparam int GroupWidth   = ceil_log2(pow_arity(Level1Depth) + 1);  // Level-0 group index
  localparam int LeafCntW     = ceil_log2(longint'(SubtreeLeaves));  // a leaf's place in its subtree
  localparam int PairLog      = $clog2(2 * Batch);
  localparam int LayerSelW    = $clog2(Layers + 1);
  localparam int L0SelW       = $clog2(L0Layers + 1);
  localparam int L1SelW       = $clog2(L1Layers + 1);

  // A count kept as its quotient and remainder by A: the remainder (lane) after one more, and
  // whether the quotient (word) steps with it.
  function automatic logic [LaneWidth-1:0] lane_after(input logic [LaneWidth-1:0] lane);
    return lane == LaneWidth'(Arity - 1) ? '0 : lane + 1'b1;
  endfunction
  function automatic logic lane_wraps(input logic [LaneWidth-1:0] lane);
    return lane == LaneWidth'(Arity - 1);
  endfunction

  initial begin
    if (Arity < 2 || Arity > 11) begin
      $fatal(1, "acclmt_tree: Arity 2..11 (the engines take t up to 12)");
    end
    if (SubtreeDepth < 3 || pow_arity(SubtreeDepth) < longint'(4 * Batch)
        || pow_arity(SubtreeDepth) > longint'(1 << 20)) begin
      $fatal(1, "acclmt_tree: SubtreeDepth of at least three layers, a subtree of four batches to 2^20 leaves");
    end
    if (MajorNodes < Arity || longint'(MajorNodes) > pow_arity(SubtreeDepth - 1)) begin
      $fatal(1, "acclmt_tree: MajorNodes Arity..Arity^(SubtreeDepth-1)");
    end
    if (Level0Depth < 1 || Level1Depth < 2 || CountWidth > 40) begin
      $fatal(1, "acclmt_tree: Level0Depth at least 1, Level1Depth at least 2, up to 2^39 elements");
    end
  end

  // The buffers (mem_e: where a layer's children come from and its results go).
  typedef enum logic [2:0] {
    MemRoot    = 3'd0,
    MemScratch = 3'd1,
    MemLevel0  = 3'd2,
    MemLevel1  = 3'd3,
    MemOut     = 3'd4,
    MemLeaf    = 3'd5
  } mem_e;

  // Subtree layer l (1-based) has A^(SubtreeDepth − l) nodes; its results go to the root hash
  // buffer while the next layer is major, to the scratch pad after, and the top layer's to
  // Level 0. Regions: each buffer's layers one after another, a subtree's footprint in all.
  function automatic int layer_nodes(input int l);
    return int'(pow_arity(SubtreeDepth - l));
  endfunction
  function automatic mem_e layer_dest(input int l);
    if (l == Layers) return MemLevel0;
    if (layer_nodes(l + 1) >= MajorNodes) return MemRoot;
    return MemScratch;
  endfunction
  function automatic int layer_dest_off(input int l);
    int off = 0;
    for (int k = 1; k < l; k++) begin
      if (layer_dest(k) == layer_dest(l)) off += layer_nodes(k) / Arity;
    end
    return off;
  endfunction
  function automatic int footprint(input mem_e m);
    int words = 0;
    for (int k = 1; k <= Layers; k++) begin
      if (layer_dest(k) == m) words += layer_nodes(k) / Arity;
    end
    return words;
  endfunction
  localparam int RootFoot    = footprint(MemRoot);
  localparam int ScratchFoot = footprint(MemScratch);

  function automatic int mem_words(input mem_e m);
    case (m)
      MemRoot:    return RootWords;
      MemScratch: return ScratchWords;
      MemLevel0:  return Level0Words;
      MemLevel1:  return Level1Words;
      MemLeaf:    return 1 << LeafIdxW;
      default:    return 1;
    endcase
  endfunction
  function automatic int mem_log(input mem_e m);
    return $clog2(mem_words(m));
  endfunction

  // ---------------------------------------------------------------- configuration
  logic [Width-1:0] tag_q;
  logic [7:0]       depth_q;
  logic             digest_lane_q;
  // Writing the shape starts a tree: the controller's own state (not the engines', idle between
  // trees) is cleared on the next cycle, so trees follow one another without a reset. A shape
  // written while a tree is under way (elements taken, root not out) is ignored; no element is
  // taken while the state clears.
  logic shape_we, tree_busy, clear_q, tree_rst_n;
  assign shape_we = cfg_we_i && cfg_addr_i == 16'h8001 && !tree_busy;
  always_ff @(posedge clk_i) begin
    if (cfg_we_i && cfg_addr_i == 16'h8000) tag_q <= cfg_data_i;
    if (shape_we) begin
      depth_q       <= cfg_data_i[7:0];
      digest_lane_q <= cfg_data_i[8];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) clear_q <= 1'b0;
    else         clear_q <= shape_we;
  end
  assign tree_rst_n = rst_ni && !clear_q;
  logic engine_cfg_we;
  assign engine_cfg_we = cfg_we_i && !cfg_addr_i[15];
  logic unused_cfg;
  assign unused_cfg = ^cfg_data_i[Width-1:9];

  // The tree's shape: A^log_subtrees subtrees, Level-0 groups of A^log_p subtrees, A^log_g
  // groups (logarithms base A: layers). Powers of A come from a table of constants.
  function automatic logic [CountWidth-1:0] pow_table(input logic [7:0] k);
    logic [CountWidth-1:0] v = '0;
    for (int i = 0; i <= MaxDepth + 1; i++) begin
      if (k == 8'(i)) v = CountWidth'(pow_arity(i));
    end
    return v;
  endfunction
  logic             cfg_ok, lhe_cfg_error, rhe_cfg_error;
  logic [7:0]       log_subtrees, log_p, log_g, l0_top, l1_top;
  logic [SubWidth-1:0] subtrees, per_group;
  logic [GroupWidth-1:0] groups;
  logic [CountWidth-1:0] elements;
  always_comb begin
    cfg_ok       = depth_q >= 8'(SubtreeDepth) && depth_q <= 8'(MaxDepth)
                   && !lhe_cfg_error && !rhe_cfg_error;
    log_subtrees = cfg_ok ? depth_q - 8'(SubtreeDepth) : 8'd0;
    log_p        = log_subtrees < 8'(Level0Depth) ? log_subtrees : 8'(Level0Depth);
    log_g        = log_subtrees - log_p;
    l0_top       = log_p;  // Level 0's layers above its subtrees' roots
    l1_top       = log_g;  // Level 1's layers
    subtrees     = SubWidth'(pow_table(log_subtrees));
    per_group    = SubWidth'(pow_table(log_p));
    groups       = GroupWidth'(pow_table(log_g));
    elements     = pow_table((cfg_ok ? depth_q : 8'(SubtreeDepth)) + 8'd1);
  end
  assign cfg_error_o = !cfg_ok;

  // ---------------------------------------------------------------- input loader
  logic [Width-1:0]        in_buf_q [2][SubtreeLeaves][Arity];
  logic [1:0]              loaded_q;
  logic                    ld_buf_q;
  logic [LeafCntW-1:0]     ld_leaf_q;   // the element's leaf in its subtree
  logic [LaneWidth-1:0]    ld_lane_q;   // and its place in the leaf
  logic [CountWidth-1:0]   ld_total_q;
  logic                    ld_we;
  assign tree_busy  = ld_total_q != '0 && !root_valid_o;
  assign in_ready_o = cfg_ok && !clear_q && !loaded_q[ld_buf_q] && ld_total_q < elements;
  assign ld_we      = in_valid_i && in_ready_o;
  always_ff @(posedge clk_i) begin
    if (ld_we) in_buf_q[ld_buf_q][ld_leaf_q][ld_lane_q] <= in_data_i;
  end

  // ---------------------------------------------------------------- LHE feed
  logic                  fd_valid, fd_ready, fd_take, fd_last;
  logic [SubWidth-1:0]   fd_sub_q;
  logic [LeafCntW-1:0]   fd_idx_q;
  logic [CountWidth-1:0] l1_read_q;   // leaves the RHE's layer-1 hashes read (Arity each)
  logic [CountWidth-1:0] fd_base_q;   // the leaves before this subtree's previous one
  logic [CountWidth-1:0] need;
  logic                  fd_buf;
  assign fd_buf = fd_sub_q[0];
  always_comb begin
    // Leaves of the previous subtree the RHE must have read before this pair of batches.
    need = ((CountWidth'(fd_idx_q) >> PairLog) + 1'b1) << PairLog;
    if (need > CountWidth'(SubtreeLeaves)) need = CountWidth'(SubtreeLeaves);
    fd_valid = cfg_ok && fd_sub_q < subtrees && loaded_q[fd_buf]
               && (fd_sub_q == 0 || l1_read_q >= fd_base_q + need);
    fd_take  = fd_valid && fd_ready;
    fd_last  = fd_sub_q == subtrees - 1'b1 && fd_idx_q == LeafCntW'(SubtreeLeaves - 1);
  end

  always_ff @(posedge clk_i or negedge tree_rst_n) begin
    if (!tree_rst_n) begin
      loaded_q   <= '0;
      ld_buf_q   <= 1'b0;
      ld_leaf_q  <= '0;
      ld_lane_q  <= '0;
      ld_total_q <= '0;
      fd_sub_q   <= '0;
      fd_idx_q   <= '0;
      fd_base_q  <= '0;
    end else begin
      if (ld_we) begin
        ld_total_q <= ld_total_q + 1'b1;
        ld_lane_q  <= lane_after(ld_lane_q);
        if (lane_wraps(ld_lane_q)) begin
          ld_leaf_q <= ld_leaf_q + 1'b1;
          if (ld_leaf_q == LeafCntW'(SubtreeLeaves - 1)) begin
            ld_leaf_q          <= '0;
            loaded_q[ld_buf_q] <= 1'b1;
            ld_buf_q           <= !ld_buf_q;
          end
        end
      end
      if (fd_take) begin
        fd_idx_q <= fd_idx_q + 1'b1;
        if (fd_idx_q == LeafCntW'(SubtreeLeaves - 1)) begin
          fd_idx_q         <= '0;
          loaded_q[fd_buf] <= 1'b0;
          fd_sub_q         <= fd_sub_q + 1'b1;
          if (fd_sub_q != '0) fd_base_q <= fd_base_q + CountWidth'(SubtreeLeaves);
        end
      end
    end
  end

  logic [StateLanes*Width-1:0] lhe_in_state, lhe_out_state;
  logic                        lhe_out_valid, lhe_wanted, unused_lhe_busy;
  always_comb begin
    lhe_in_state[0 +: Width] = tag_q;
    for (int j = 0; j < Arity; j++) begin
      lhe_in_state[(j + 1) * Width +: Width] = in_buf_q[fd_buf][fd_idx_q][j];
    end
  end

  acclmt_engine #(
    .Width(Width), .MulLatency(MulLatency), .Batch(Batch), .MaxRounds(MaxRounds),
    .MaxWidth(StateLanes), .Baseline(0), .SlotGap(SlotGap), .HandoverGap(HandoverGap)
  ) u_lhe (
    .clk_i, .rst_ni,
    .cfg_we_i    (engine_cfg_we),
    .cfg_addr_i  (cfg_addr_i[14:0]),
    .cfg_data_i,
    .cfg_error_o (lhe_cfg_error),
    .in_valid_i  (fd_valid),
    .in_ready_o  (fd_ready),
    .in_last_i   (fd_last),
    .in_state_i  (lhe_in_state),
    // A subtree of leaves no multiple of the batch (A^SubtreeDepth, A odd) would leave its last
    // batch part-filled while the next subtree's leaves wait on the RHE reading this one's:
    // at a subtree's end, a part-filled batch closes when the engine waits for it and no leaf
    // is ready (a subtree of whole pairs of batches, as at A = 2, 4, 8, leaves none).
    .in_close_i  (lhe_wanted && !fd_valid && fd_idx_q == '0 && fd_sub_q != '0),
    .in_wanted_o (lhe_wanted),
    .out_valid_o (lhe_out_valid),
    .out_ready_i (1'b1),
    .out_state_o (lhe_out_state),
    .busy_o      (unused_lhe_busy)
  );

  // ---------------------------------------------------------------- leaf hash buffer
  logic [Width-1:0]      leaf_q [1 << LeafIdxW][Arity];
  logic [LeafIdxW-1:0]   lhe_word_q;      // the next leaf hash's word in the buffer
  logic [LaneWidth-1:0]  lhe_lane_q;      // and its place in the word
  logic [SubWidth:0]     lhe_subtrees_q;  // subtrees the LHE has finished
  logic [Width-1:0]      lhe_digest, rhe_digest;
  assign lhe_digest   = digest_lane_q ? lhe_out_state[Width +: Width] : lhe_out_state[0 +: Width];
  always_ff @(posedge clk_i) begin
    if (lhe_out_valid) leaf_q[lhe_word_q][lhe_lane_q] <= lhe_digest;
  end

  // ---------------------------------------------------------------- node buffers
  // Root hash buffer, scratch pad, Level 0 and Level 1, each word Arity sibling nodes.
  logic [Width-1:0] root_buf_q [RootWords][Arity];
  logic [Width-1:0] scratch_q [ScratchWords][Arity];
  logic [Width-1:0] level0_q [Level0Words][Arity];
  logic [Width-1:0] level1_q [Level1Words][Arity];
  // Their words' state, in one space (the buffers one after another): live (reserved or holding
  // unread nodes), the lap of the ring it belongs to, and the lanes written.
  localparam int StateWords = RootWords + ScratchWords + Level0Words + Level1Words;
  localparam int StateWidth = $clog2(StateWords);
  logic [StateWords-1:0]            live_q, lap_q;
  logic [StateWords-1:0][Arity-1:0] wr_q;

  function automatic int mem_base(input mem_e m);
    case (m)
      MemRoot:    return 0;
      MemScratch: return RootWords;
      MemLevel0:  return RootWords + ScratchWords;
      default:    return RootWords + ScratchWords + Level0Words;
    endcase
  endfunction
  function automatic logic [WordIdxWidth-1:0] word_idx(input mem_e m, input logic [PtrWidth-1:0] p);
    return WordIdxWidth'(p & PtrWidth'(mem_words(m) - 1));
  endfunction
  function automatic logic word_lap(input mem_e m, input logic [PtrWidth-1:0] p);
    return p[mem_log(m)];
  endfunction
  // The word's place in the state space (the node buffers only).
  function automatic logic [StateWidth-1:0] state_id(input mem_e m, input logic [PtrWidth-1:0] p);
    return StateWidth'(mem_base(m)) + StateWidth'(word_idx(m, p));
  endfunction
  function automatic logic node_mem(input mem_e m);
    return m == MemRoot || m == MemScratch || m == MemLevel0 || m == MemLevel1;
  endfunction

  // A word holds all its children at the expected lap (the leaf buffer: its subtree is complete).
  function automatic logic word_ready(input mem_e m, input logic [PtrWidth-1:0] p);
    logic [StateWidth-1:0] i;
    i = state_id(m, p);
    return !node_mem(m) || (live_q[i] && lap_q[i] == word_lap(m, p) && &wr_q[i]);
  endfunction
  // A word may be reserved for p: it is free, and its last use was the ring's previous lap
  // (words are reused in ring order, so a lap bit tells a word's uses apart).
  function automatic logic word_free(input mem_e m, input logic [PtrWidth-1:0] p);
    logic [StateWidth-1:0] i;
    i = state_id(m, p);
    return !node_mem(m) || (!live_q[i] && lap_q[i] != word_lap(m, p));
  endfunction

  // ---------------------------------------------------------------- subtree contexts
  // Each count that addresses a word also keeps its quotient and remainder by A (the word
  // and the lane of the hash's result), so nothing divides by A.
  logic [Contexts-1:0]       ctx_open_q;
  logic [PtrWidth-1:0]       ctx_root_q [Contexts], ctx_scr_q [Contexts];
  logic [PtrWidth-1:0]       ctx_l0_q [Contexts];            // the subtree's Level-0 word
  logic [CntWidth-1:0]       issued_q [Contexts][Layers+1];  // [c][l], l = 1 … Layers
  logic [CntWidth-1:0]       issued_w_q [Contexts][Layers+1];  // issued_q / A
  logic [LaneWidth-1:0]      issued_l_q [Contexts][Layers+1];  // issued_q mod A
  logic [CntWidth-1:0]       done_q [Contexts][Layers+1];    // results written
  logic [1:0]                oldest_q;
  logic [SubWidth:0]         next_sub_q;                     // the next subtree to open
  logic [PtrWidth-1:0]       root_next_q, scr_next_q;
  // The next subtree's Level-0 word, its group's base, and its place in the group.
  logic [PtrWidth-1:0]       open_l0_q, open_base_q;
  logic [SubWidth-1:0]       open_in_group_q;

  // HIDM: the Level-0 group being aggregated (its index, and that index's word and lane in
  // Level 1), its base in the Level-0 ring and its layers' counters; Level 1's.
  logic [GroupWidth-1:0]     l0_group_q, l0_group_w_q;
  logic [LaneWidth-1:0]      l0_group_l_q;
  logic [PtrWidth-1:0]       l0_base_q;
  logic [CntWidth-1:0]       l0_issued_q [L0Layers+1];       // m = 1 … L0Layers
  logic [CntWidth-1:0]       l0_issued_w_q [L0Layers+1];
  logic [LaneWidth-1:0]      l0_issued_l_q [L0Layers+1];
  logic [CntWidth-1:0]       l1_issued_q [L1Layers+1];       // m = 1 … L1Layers
  logic [CntWidth-1:0]       l1_issued_w_q [L1Layers+1];
  logic [LaneWidth-1:0]      l1_issued_l_q [L1Layers+1];

  // Level 0 of a group of p = A^log_p subtrees: their top words (p), then its layers' results
  // (p/A, p/A², … words): layer m reads at l0_off(m − 1) and writes at l0_off(m), l0_off(j) the
  // sum of p / A^i for i < j.
  function automatic logic [PtrWidth-1:0] l0_off(input int j);
    logic [PtrWidth-1:0] off = '0;
    for (int i = 0; i < L0Layers; i++) begin
      if (i < j && 8'(i) <= log_p) off += PtrWidth'(pow_table(log_p - 8'(i)));
    end
    return off;
  endfunction
  // A group's words in the Level-0 ring: l0_off(l0_top + 1); each group's base follows the last.
  logic [PtrWidth-1:0] l0_region;
  assign l0_region = l0_off(int'(l0_top) + 1);
  // Level 1 over G = A^log_g group roots: their words (G/A), then its layers' results: layer m
  // reads at l1_off(m − 1) and writes at l1_off(m), l1_off(j) the sum of G / A^i for 1 ≤ i ≤ j.
  function automatic logic [PtrWidth-1:0] l1_off(input int j);
    logic [PtrWidth-1:0] off = '0;
    for (int i = 1; i <= L1Layers; i++) begin
      if (i <= j && 8'(i) <= log_g) off += PtrWidth'(pow_table(log_g - 8'(i)));
    end
    return off;
  endfunction

  // ---------------------------------------------------------------- the dispatch scheduler
  // A candidate: the next hash of one layer. Priority: minor and HIDM work (oldest subtree,
  // lowest layer first; Level 0; Level 1), then major aggregation (oldest subtree first).
  typedef struct packed {
    logic                  ready;
    mem_e                  src_mem;
    logic [PtrWidth-1:0]   src;
    mem_e                  dst_mem;
    logic [PtrWidth-1:0]   dst;
    logic [LaneWidth-1:0]  lane;
  } cand_t;

  // A candidate's result has its word: a later sibling's was reserved by the first; the first
  // reserves a free word, or the word it reads itself (a layer overwriting its inputs in place).
  function automatic logic dest_reservable(input logic [LaneWidth-1:0] lane, input mem_e dst_mem,
                                           input logic [PtrWidth-1:0] dst, input mem_e src_mem,
                                           input logic [PtrWidth-1:0] src);
    return lane != '0 || word_free(dst_mem, dst)
           || (dst_mem == src_mem && word_idx(dst_mem, dst) == word_idx(src_mem, src));
  endfunction

  // Subtree context c, layer l.
  function automatic cand_t subtree_cand(input logic [1:0] c, input int l);
    cand_t k;
    logic [CntWidth-1:0] n;
    n = issued_q[c][l];
    k.src_mem = l == 1 ? MemLeaf : layer_dest(l - 1);
    k.src     = l == 1 ? PtrWidth'(n)
                       : (layer_dest(l - 1) == MemRoot ? ctx_root_q[c] : ctx_scr_q[c])
                         + PtrWidth'(layer_dest_off(l - 1)) + PtrWidth'(n);
    k.dst_mem = layer_dest(l);
    k.lane    = issued_l_q[c][l];
    case (layer_dest(l))
      MemRoot:    k.dst = ctx_root_q[c] + PtrWidth'(layer_dest_off(l)) + PtrWidth'(issued_w_q[c][l]);
      MemScratch: k.dst = ctx_scr_q[c] + PtrWidth'(layer_dest_off(l)) + PtrWidth'(issued_w_q[c][l]);
      default:    k.dst = ctx_l0_q[c];
    endcase
    // Children ready: layer l − 1's results return in order, so its count tells.
    k.ready = ctx_open_q[c] && n < CntWidth'(layer_nodes(l))
              && (l == 1 || {1'b0, done_q[c][l-1]} >= ({1'b0, n} + 1'b1) * (CntWidth + 1)'(Arity))
              && dest_reservable(k.lane, k.dst_mem, k.dst, k.src_mem, k.src);
    return k;
  endfunction

  // Level-0 layer m of the current group: per_group / A^(m − 1) hashes, reading at the group's
  // base + l0_off(m − 1), writing at base + l0_off(m); the last layer's one result to Level 1
  // (group g: node g) or, with one group, out.
  function automatic cand_t level0_cand(input int m);
    cand_t k;
    logic [CntWidth-1:0] n, hashes;
    n      = l0_issued_q[m];
    hashes = 8'(m - 1) <= log_p ? CntWidth'(pow_table(log_p - 8'(m - 1))) : '0;
    k.src_mem = MemLevel0;
    k.src     = l0_base_q + l0_off(m - 1) + PtrWidth'(n);
    if (m < int'(l0_top) + 1) begin
      k.dst_mem = MemLevel0;
      k.dst     = l0_base_q + l0_off(m) + PtrWidth'(l0_issued_w_q[m]);
      k.lane    = l0_issued_l_q[m];
    end else if (log_g != 0) begin
      k.dst_mem = MemLevel1;
      k.dst     = PtrWidth'(l0_group_w_q);
      k.lane    = l0_group_l_q;
    end else begin
      k.dst_mem = MemOut;
      k.dst     = '0;
      k.lane    = '0;
    end
    k.ready = m <= int'(l0_top) + 1 && l0_group_q < groups
              && n < hashes && word_ready(k.src_mem, k.src)
              && dest_reservable(k.lane, k.dst_mem, k.dst, k.src_mem, k.src);
    return k;
  endfunction

  // Level-1 layer m: G / A^m hashes, reading at l1_off(m − 1), writing at l1_off(m); the last
  // layer's result out.
  function automatic cand_t level1_cand(input int m);
    cand_t k;
    logic [CntWidth-1:0] n, hashes;
    n      = l1_issued_q[m];
    hashes = 8'(m) <= log_g ? CntWidth'(pow_table(log_g - 8'(m))) : '0;
    k.src_mem = MemLevel1;
    k.src     = l1_off(m - 1) + PtrWidth'(n);
    if (m < int'(l1_top)) begin
      k.dst_mem = MemLevel1;
      k.dst     = l1_off(m) + PtrWidth'(l1_issued_w_q[m]);
      k.lane    = l1_issued_l_q[m];
    end else begin
      k.dst_mem = MemOut;
      k.dst     = '0;
      k.lane    = '0;
    end
    k.ready = m <= int'(l1_top) && n < hashes && word_ready(k.src_mem, k.src)
              && dest_reservable(k.lane, k.dst_mem, k.dst, k.src_mem, k.src);
    return k;
  endfunction

  // The pick: kind 0 subtree (context, layer), 1 Level 0 (layer), 2 Level 1 (layer).
  cand_t       pick;
  logic        pick_found;
  logic [1:0]  pick_kind;
  logic [1:0]  pick_ctx;
  logic [4:0]  pick_layer;
  always_comb begin
    cand_t k;
    pick       = '0;
    pick_found = 1'b0;
    pick_kind  = '0;
    pick_ctx   = '0;
    pick_layer = '0;
    // Minor aggregation, oldest subtree first.
    for (int a = 0; a < Contexts; a++) begin
      for (int l = 1; l <= Layers; l++) begin
        if (layer_nodes(l) < MajorNodes) begin
          k = subtree_cand(oldest_q + 2'(a), l);
          if (k.ready && !pick_found) begin
            pick = k; pick_found = 1'b1; pick_kind = 2'd0;
            pick_ctx = oldest_q + 2'(a); pick_layer = 5'(l);
          end
        end
      end
    end
    for (int m = 1; m <= L0Layers; m++) begin
      k = level0_cand(m);
      if (k.ready && !pick_found) begin
        pick = k; pick_found = 1'b1; pick_kind = 2'd1; pick_layer = 5'(m);
      end
    end
    for (int m = 1; m <= L1Layers; m++) begin
      k = level1_cand(m);
      if (k.ready && !pick_found) begin
        pick = k; pick_found = 1'b1; pick_kind = 2'd2; pick_layer = 5'(m);
      end
    end
    // Major aggregation, oldest subtree first.
    for (int a = 0; a < Contexts; a++) begin
      for (int l = 1; l <= Layers; l++) begin
        if (layer_nodes(l) >= MajorNodes) begin
          k = subtree_cand(oldest_q + 2'(a), l);
          if (k.ready && !pick_found) begin
            pick = k; pick_found = 1'b1; pick_kind = 2'd0;
            pick_ctx = oldest_q + 2'(a); pick_layer = 5'(l);
          end
        end
      end
    end
  end

  // The RHE's input: the pick reads its children's word (registered), then a two-entry FIFO.
  logic                   rd_pend_q;
  logic [Arity*Width-1:0] rd_data_q;
  logic [Arity*Width-1:0] rq_q [2];
  logic [1:0]             rq_cnt_q;
  logic                   rq_head_q;
  logic                   rhe_in_ready, rhe_wanted, rhe_take, issue;
  logic [DestIdxWidth:0]  dq_cnt_q;
  assign issue    = pick_found && 2'(rq_cnt_q) + 2'(rd_pend_q) < 2'd2
                    && dq_cnt_q < (DestIdxWidth + 1)'(DestDepth);
  assign rhe_take = rq_cnt_q != 0 && rhe_in_ready;

  logic [Arity*Width-1:0] pick_data;
  always_comb begin
    logic [WordIdxWidth-1:0] i;
    i = word_idx(pick.src_mem, pick.src);
    for (int j = 0; j < Arity; j++) begin
      case (pick.src_mem)
        MemRoot:    pick_data[j * Width +: Width] = root_buf_q[RootIdxW'(i)][j];
        MemScratch: pick_data[j * Width +: Width] = scratch_q[ScrIdxW'(i)][j];
        MemLevel0:  pick_data[j * Width +: Width] = level0_q[L0IdxW'(i)][j];
        MemLevel1:  pick_data[j * Width +: Width] = level1_q[L1IdxW'(i)][j];
        default:    pick_data[j * Width +: Width] = leaf_q[LeafIdxW'(i)][j];
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (issue) rd_data_q <= pick_data;
    if (rd_pend_q) rq_q[rq_head_q ^ rq_cnt_q[0]] <= rd_data_q;
  end
  always_ff @(posedge clk_i or negedge tree_rst_n) begin
    if (!tree_rst_n) begin
      rd_pend_q <= 1'b0;
      rq_cnt_q  <= '0;
      rq_head_q <= 1'b0;
    end else begin
      rd_pend_q <= issue;
      rq_cnt_q  <= rq_cnt_q + 2'(rd_pend_q) - 2'(rhe_take);
      if (rhe_take) rq_head_q <= !rq_head_q;
    end
  end

  // The destinations, in issue order.
  typedef struct packed {
    mem_e                    mem;
    logic [WordIdxWidth-1:0] idx;
    logic [StateWidth-1:0]   id;
    logic [LaneWidth-1:0]    lane;
    logic                    subtree;  // a subtree layer's result: counts in done_q[ctx][layer]
    logic [1:0]              ctx;
    logic [LayerSelW-1:0]    layer;
  } dest_t;
  dest_t                   dq_q [DestDepth];
  logic [DestIdxWidth-1:0] dq_wr_q, dq_rd_q;
  logic                    rhe_out_valid;
  logic [StateLanes*Width-1:0] rhe_out_state;
  dest_t                   dst;
  assign dst        = dq_q[dq_rd_q];
  assign rhe_digest = digest_lane_q ? rhe_out_state[Width +: Width] : rhe_out_state[0 +: Width];

  always_ff @(posedge clk_i) begin
    if (issue) dq_q[dq_wr_q] <= '{mem: pick.dst_mem, idx: word_idx(pick.dst_mem, pick.dst),
                                  id: state_id(pick.dst_mem, pick.dst), lane: pick.lane,
                                  subtree: pick_kind == 2'd0, ctx: pick_ctx,
                                  layer: LayerSelW'(pick_layer)};
    if (rhe_out_valid) begin
      case (dst.mem)
        MemRoot:    root_buf_q[RootIdxW'(dst.idx)][dst.lane] <= rhe_digest;
        MemScratch: scratch_q[ScrIdxW'(dst.idx)][dst.lane] <= rhe_digest;
        MemLevel0:  level0_q[L0IdxW'(dst.idx)][dst.lane] <= rhe_digest;
        MemLevel1:  level1_q[L1IdxW'(dst.idx)][dst.lane] <= rhe_digest;
        default:    ;
      endcase
    end
  end

  logic rhe_busy;
  acclmt_engine #(
    .Width(Width), .MulLatency(MulLatency), .Batch(Batch), .MaxRounds(MaxRounds),
    .MaxWidth(StateLanes), .Baseline(0), .SlotGap(SlotGap), .HandoverGap(HandoverGap)
  ) u_rhe (
    .clk_i, .rst_ni,
    .cfg_we_i    (engine_cfg_we),
    .cfg_addr_i  (cfg_addr_i[14:0]),
    .cfg_data_i,
    .cfg_error_o (rhe_cfg_error),
    .in_valid_i  (rq_cnt_q != 0),
    .in_ready_o  (rhe_in_ready),
    .in_last_i   (1'b0),
    .in_state_i  ({rq_q[rq_head_q], tag_q}),
    .in_close_i  (rhe_wanted && !pick_found && rq_cnt_q == 0 && !rd_pend_q),
    .in_wanted_o (rhe_wanted),
    .out_valid_o (rhe_out_valid),
    .out_ready_i (1'b1),
    .out_state_o (rhe_out_state),
    .busy_o      (rhe_busy)
  );
  logic unused_rhe;
  assign unused_rhe = ^{rhe_busy, lhe_out_state[StateLanes*Width-1:2*Width],
                        rhe_out_state[StateLanes*Width-1:2*Width]};

  // ---------------------------------------------------------------- state updates
  logic ctx_retire, ctx_opening;
  logic [1:0] open_ctx;
  always_comb begin
    // The oldest subtree retires once all its results are written.
    ctx_retire = ctx_open_q[oldest_q];
    for (int l = 1; l <= Layers; l++) begin
      if (done_q[oldest_q][l] != CntWidth'(layer_nodes(l))) ctx_retire = 1'b0;
    end
    open_ctx    = next_sub_q[1:0];
    ctx_opening = next_sub_q < lhe_subtrees_q && !ctx_open_q[open_ctx];
  end

  // The words a pick reads and reserves, and a result writes.
  logic [StateWidth-1:0] rd_id, rs_id;
  logic                  reserve;
  assign rd_id   = state_id(pick.src_mem, pick.src);
  assign rs_id   = state_id(pick.dst_mem, pick.dst);
  assign reserve = issue && pick.lane == '0 && node_mem(pick.dst_mem);

  always_ff @(posedge clk_i or negedge tree_rst_n) begin
    if (!tree_rst_n) begin
      live_q <= '0;
      lap_q  <= '1;  // as if lap −1 were used: lap 0 comes first
      wr_q   <= '0;
    end else begin
      // A result fills its lane.
      if (rhe_out_valid && node_mem(dst.mem)) wr_q[dst.id][dst.lane] <= 1'b1;
      // A pick frees the word it reads, then reserves the one it writes (the same word, the
      // next lap, for the first hash of a layer that overwrites its inputs in place).
      if (issue && node_mem(pick.src_mem)) live_q[rd_id] <= 1'b0;
      if (reserve) begin
        live_q[rs_id] <= 1'b1;
        lap_q[rs_id]  <= word_lap(pick.dst_mem, pick.dst);
        wr_q[rs_id]   <= '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge tree_rst_n) begin
    if (!tree_rst_n) begin
      ctx_open_q      <= '0;
      oldest_q        <= '0;
      next_sub_q      <= '0;
      root_next_q     <= '0;
      scr_next_q      <= '0;
      open_l0_q       <= '0;
      open_base_q     <= '0;
      open_in_group_q <= '0;
      l0_group_q      <= '0;
      l0_group_w_q    <= '0;
      l0_group_l_q    <= '0;
      l0_base_q       <= '0;
      l1_read_q       <= '0;
      lhe_word_q      <= '0;
      lhe_lane_q      <= '0;
      lhe_subtrees_q  <= '0;
      dq_wr_q         <= '0;
      dq_rd_q         <= '0;
      dq_cnt_q        <= '0;
      root_valid_o    <= 1'b0;
      lhe_hashes_o    <= '0;
      rhe_hashes_o    <= '0;
      for (int c = 0; c < Contexts; c++) begin
        ctx_root_q[c] <= '0;
        ctx_scr_q[c]  <= '0;
        ctx_l0_q[c]   <= '0;
        for (int l = 0; l <= Layers; l++) begin
          issued_q[c][l]   <= '0;
          issued_w_q[c][l] <= '0;
          issued_l_q[c][l] <= '0;
          done_q[c][l]     <= '0;
        end
      end
      for (int m = 0; m <= L0Layers; m++) begin
        l0_issued_q[m]   <= '0;
        l0_issued_w_q[m] <= '0;
        l0_issued_l_q[m] <= '0;
      end
      for (int m = 0; m <= L1Layers; m++) begin
        l1_issued_q[m]   <= '0;
        l1_issued_w_q[m] <= '0;
        l1_issued_l_q[m] <= '0;
      end
    end else begin
      // A leaf hash lands in the next lane of the leaf hash buffer; a subtree's last closes it.
      if (lhe_out_valid) begin
        lhe_lane_q <= lane_after(lhe_lane_q);
        if (lane_wraps(lhe_lane_q)) begin
          lhe_word_q <= lhe_word_q + 1'b1;
          if (lhe_word_q == LeafIdxW'(LeafWords - 1)) begin
            lhe_word_q     <= '0;
            lhe_subtrees_q <= lhe_subtrees_q + 1'b1;
          end
        end
      end
      if (fd_take) lhe_hashes_o <= lhe_hashes_o + 1'b1;
      if (issue) rhe_hashes_o <= rhe_hashes_o + 1'b1;
      dq_cnt_q <= dq_cnt_q + (DestIdxWidth + 1)'(issue) - (DestIdxWidth + 1)'(rhe_out_valid);
      if (issue) dq_wr_q <= dq_wr_q + 1'b1;
      if (rhe_out_valid) begin
        dq_rd_q <= dq_rd_q + 1'b1;
        if (dst.subtree) done_q[dst.ctx][dst.layer] <= done_q[dst.ctx][dst.layer] + 1'b1;
        if (dst.mem == MemOut) root_valid_o <= 1'b1;
      end
      if (ctx_retire) begin
        ctx_open_q[oldest_q] <= 1'b0;
        oldest_q             <= oldest_q + 1'b1;
      end
      if (ctx_opening) begin
        ctx_open_q[open_ctx] <= 1'b1;
        ctx_root_q[open_ctx] <= root_next_q;
        ctx_scr_q[open_ctx]  <= scr_next_q;
        ctx_l0_q[open_ctx]   <= open_l0_q;
        for (int l = 0; l <= Layers; l++) begin
          issued_q[open_ctx][l]   <= '0;
          issued_w_q[open_ctx][l] <= '0;
          issued_l_q[open_ctx][l] <= '0;
          done_q[open_ctx][l]     <= '0;
        end
        next_sub_q  <= next_sub_q + 1'b1;
        root_next_q <= root_next_q + PtrWidth'(RootFoot);
        scr_next_q  <= scr_next_q + PtrWidth'(ScratchFoot);
        // Subtree i's top word is its group's base plus its place in the group.
        if (open_in_group_q == per_group - 1'b1) begin
          open_in_group_q <= '0;
          open_base_q     <= open_base_q + l0_region;
          open_l0_q       <= open_base_q + l0_region;
        end else begin
          open_in_group_q <= open_in_group_q + 1'b1;
          open_l0_q       <= open_l0_q + 1'b1;
        end
      end
      if (issue) begin
        case (pick_kind)
          2'd0: begin
            issued_q[pick_ctx][LayerSelW'(pick_layer)] <= issued_q[pick_ctx][LayerSelW'(pick_layer)] + 1'b1;
            issued_l_q[pick_ctx][LayerSelW'(pick_layer)] <= lane_after(issued_l_q[pick_ctx][LayerSelW'(pick_layer)]);
            if (lane_wraps(issued_l_q[pick_ctx][LayerSelW'(pick_layer)])) begin
              issued_w_q[pick_ctx][LayerSelW'(pick_layer)] <= issued_w_q[pick_ctx][LayerSelW'(pick_layer)] + 1'b1;
            end
            if (pick_layer == 5'd1) l1_read_q <= l1_read_q + CountWidth'(Arity);
          end
          2'd1: begin
            l0_issued_q[L0SelW'(pick_layer)] <= l0_issued_q[L0SelW'(pick_layer)] + 1'b1;
            l0_issued_l_q[L0SelW'(pick_layer)] <= lane_after(l0_issued_l_q[L0SelW'(pick_layer)]);
            if (lane_wraps(l0_issued_l_q[L0SelW'(pick_layer)])) begin
              l0_issued_w_q[L0SelW'(pick_layer)] <= l0_issued_w_q[L0SelW'(pick_layer)] + 1'b1;
            end
            // The group's last hash: the next group starts, after this one's region.
            if (int'(pick_layer) == int'(l0_top) + 1) begin
              l0_group_q   <= l0_group_q + 1'b1;
              l0_group_l_q <= lane_after(l0_group_l_q);
              if (lane_wraps(l0_group_l_q)) l0_group_w_q <= l0_group_w_q + 1'b1;
              l0_base_q <= l0_base_q + l0_region;
              for (int m = 0; m <= L0Layers; m++) begin
                l0_issued_q[m]   <= '0;
                l0_issued_w_q[m] <= '0;
                l0_issued_l_q[m] <= '0;
              end
            end
          end
          default: begin
            l1_issued_q[L1SelW'(pick_layer)] <= l1_issued_q[L1SelW'(pick_layer)] + 1'b1;
            l1_issued_l_q[L1SelW'(pick_layer)] <= lane_after(l1_issued_l_q[L1SelW'(pick_layer)]);
            if (lane_wraps(l1_issued_l_q[L1SelW'(pick_layer)])) begin
              l1_issued_w_q[L1SelW'(pick_layer)] <= l1_issued_w_q[L1SelW'(pick_layer)] + 1'b1;
            end
          end
        endcase
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (rhe_out_valid && dst.mem == MemOut) root_o <= rhe_digest;
  end

  logic unused_ptr;
  assign unused_ptr = pick.ready;

`ifdef ACCLMT_TREE_DEBUG
  // +define+ACCLMT_TREE_DEBUG: the scheduler's state every 50,000 cycles (a stalled tree shows
  // which layer waits on what).
  int unsigned dbg_cycle_q = 0;
  always_ff @(posedge clk_i) begin
    dbg_cycle_q <= dbg_cycle_q + 1;
    if (dbg_cycle_q % 50000 == 0) begin
      $display("[%0d] lhe_out %0d.%0d.%0d fd %0d.%0d valid %b ready %b l1_read %0d | open %b oldest %0d next %0d | l0g %0d | pick %b rq %0d dq %0d wanted %b rin %b",
               dbg_cycle_q, lhe_subtrees_q, lhe_word_q, lhe_lane_q, fd_sub_q, fd_idx_q, fd_valid, fd_ready, l1_read_q,
               ctx_open_q, oldest_q, next_sub_q, l0_group_q, pick_found, rq_cnt_q, dq_cnt_q,
               rhe_wanted, rhe_in_ready);
      $display("  lhe wanted %b close %b", lhe_wanted, lhe_wanted && !fd_valid && fd_idx_q == '0 && fd_sub_q != '0);
      for (int c = 0; c < Contexts; c++) begin
        $write("  ctx %0d l0 %0d root %0d scr %0d:", c, ctx_l0_q[c], ctx_root_q[c], ctx_scr_q[c]);
        for (int l = 1; l <= Layers; l++) $write(" %0d", issued_q[c][l]);
        $write("\n");
      end
      $write("  l0:");
      for (int m = 1; m <= L0Layers; m++) $write(" %0d", l0_issued_q[m]);
      $write("  l1:");
      for (int m = 1; m <= L1Layers; m++) $write(" %0d", l1_issued_q[m]);
      $write("\n");
    end
  end
`endif
endmodule
