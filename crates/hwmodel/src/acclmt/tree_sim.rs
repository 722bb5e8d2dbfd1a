//! The Merkle controller, cycle by cycle, exactly as `hw/acclmt/rtl/acclmt_tree.sv` runs it,
//! on two engines of [`EngineCore`] (the RTL's `acclmt_engine`), fed as the Verilator bench
//! feeds it: element `n` is offered once `(n + 1)·32` bytes have arrived at the stated bytes
//! per cycle. Every register below is one of the RTL's; each cycle computes the combinational
//! values from the registers, then updates them in the RTL's order (later non-blocking
//! assignments win). No data moves: the model follows the control only, so its cycles are the
//! RTL's (`hw/acclmt/run.sh` requires them equal for every tree it runs).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::engine_sim::EngineCore;
use super::{EngineConfig, PoseidonShape};
use crate::error::{invalid, out_of_range};
use crate::ModelError;

/// The controller's Verilog parameters (besides the engines'): `Arity`, `SubtreeDepth`,
/// `MajorNodes`, `Level0Depth`, `Level1Depth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ControllerRtl {
    /// Children per hash (the engines' `t − 1`), 2 … 11.
    pub arity: u32,
    /// A standard subtree holds `arity^subtree_depth` leaves.
    pub subtree_depth: u32,
    /// A layer of at least this many nodes is major aggregation (the scratch pad's threshold).
    pub major_nodes: u64,
    /// HIDM Level 0 aggregates up to `arity^level0_depth` subtrees.
    pub level0_depth: u32,
    /// HIDM Level 1 aggregates up to `arity^level1_depth` group roots.
    pub level1_depth: u32,
}

/// One tree built cycle by cycle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TreeSimRun {
    /// Cycles from the first element offered to the root, the bench's `RESULT cycles`.
    pub cycles: u64,
    /// Hashes the LHE and the RHE took (`lhe_hashes_o`, `rhe_hashes_o`).
    pub hashes: [u64; 2],
    /// LHE and RHE utilisation over each engine's active window (its first state taken to
    /// its last result), the paper's measure and the batch model's
    /// ([`super::TreeRun::utilisation_active`]): hashes × the full-pair cycles per hash /
    /// window.
    pub utilisation_active: [f64; 2],
    /// The same over the whole build.
    pub utilisation_total: [f64; 2],
    /// LHE and RHE occupancy over the active window, as the batch model's
    /// ([`super::TreeRun::utilisation_occupied`]): the busy share plus the cycles in which a
    /// sub-engine of the LHE waited for a batch whose leaves were loaded but held back by the
    /// leaf buffer's credit.
    pub utilisation_occupied: [f64; 2],
}

/// Cycles without any element taken or hash issued after which the model reports a stall.
const STALL_CYCLES: u64 = 1 << 20;
/// The most cycles a tree is simulated for: 2^23 binary leaves take 3.1·10^8, 42 s on one
/// core of the 2-core Xeon, so the bound is about two and a half minutes there.
pub const MAX_SIMULATED_TREE_CYCLES: u64 = 1 << 30;
/// Bytes of one element (the RTL's `Width` of 256 bits).
const ELEMENT_BYTES: u64 = 32;
/// Subtrees the RHE works on at once (`Contexts`).
const CONTEXTS: usize = 4;

/// The buffers a layer's children come from and its results go to (`mem_e`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mem {
    Root,
    Scratch,
    Level0,
    Level1,
    Out,
    Leaf,
}

/// A candidate: the next hash of one layer.
#[derive(Debug, Clone, Copy)]
struct Cand {
    src_mem: Mem,
    src: u64,
    dst_mem: Mem,
    dst: u64,
    lane: u32,
}

/// Which counters a pick advances (`pick_kind`, `pick_ctx`, `pick_layer`).
#[derive(Debug, Clone, Copy)]
enum Kind {
    Subtree(usize, usize),
    Level0(usize),
    Level1(usize),
}

/// A result's destination (`dest_t`).
#[derive(Debug, Clone, Copy)]
struct Dest {
    mem: Mem,
    id: usize,
    lane: u32,
    subtree: Option<(usize, usize)>,
}

/// A count kept as its quotient (`word`) and remainder (`lane`) by `a`: one more. Returns
/// whether the word stepped.
fn lane_step(a: u64, word: &mut u64, lane: &mut u64) -> bool {
    if *lane == a - 1 {
        *lane = 0;
        *word += 1;
        true
    } else {
        *lane += 1;
        false
    }
}

/// `v` rounded up to a power of two.
fn pow2_ceil(v: u64) -> u64 {
    v.max(1).next_power_of_two()
}

impl ControllerRtl {
    /// The RTL's elaboration checks (`$fatal`), and the engines' state width.
    ///
    /// # Errors
    /// [`ModelError::OutOfRange`] or [`ModelError::Invalid`] naming the first violation.
    pub fn validate(&self, engine: &EngineConfig) -> Result<(), ModelError> {
        let a = u64::from(self.arity);
        if !(2..=11).contains(&self.arity) {
            return Err(out_of_range("arity", self.arity.into(), 2.0, 11.0));
        }
        let leaves = a.checked_pow(self.subtree_depth).unwrap_or(u64::MAX);
        if self.subtree_depth < 3 || leaves < 4 * u64::from(engine.batch) || leaves > 1 << 20 {
            return Err(invalid(
                "subtree depth",
                self.subtree_depth.into(),
                "needs at least three layers, four batches to 2^20 leaves",
            ));
        }
        if self.major_nodes < a || self.major_nodes > a.pow(self.subtree_depth - 1) {
            return Err(out_of_range(
                "major threshold (nodes)",
                self.major_nodes as f64,
                a as f64,
                a.pow(self.subtree_depth - 1) as f64,
            ));
        }
        let total = self.subtree_depth + self.level0_depth + self.level1_depth;
        if self.level0_depth < 1
            || self.level1_depth < 2
            || a.checked_pow(total + 1).is_none_or(|e| e > 1 << 39)
        {
            return Err(invalid(
                "HIDM Level-0 depth",
                self.level0_depth.into(),
                "with the Level-1 depth, at least 1 and 2, up to 2^39 elements",
            ));
        }
        Ok(())
    }

    /// Builds the tree of `arity^depth` leaves, its elements offered at `bytes_per_cycle`.
    ///
    /// # Errors
    /// As [`ControllerRtl::validate`], [`EngineConfig::validate`] and
    /// [`PoseidonShape::validate`]; [`ModelError::WidthForArity`] for a shape whose width is
    /// not `arity + 1`; [`ModelError::OutOfRange`] for a depth the controller does not build
    /// (it raises `cfg_error_o`) or a bandwidth outside 0.01 … 1,024 bytes per cycle (the
    /// bench's); [`ModelError::Leaves`] for more than 2^26 leaves; [`ModelError::Stalled`] for
    /// a stall (a model defect).
    pub fn simulate(
        &self,
        engine: &EngineConfig,
        shape: &PoseidonShape,
        depth: u32,
        bytes_per_cycle: f64,
    ) -> Result<TreeSimRun, ModelError> {
        engine.validate()?;
        shape.validate()?;
        self.validate(engine)?;
        if shape.width != self.arity + 1 {
            return Err(ModelError::WidthForArity {
                width: shape.width,
                arity: self.arity,
            });
        }
        let most = self.subtree_depth + self.level0_depth + self.level1_depth;
        if depth < self.subtree_depth || depth > most {
            return Err(out_of_range(
                "depth",
                depth.into(),
                self.subtree_depth.into(),
                most.into(),
            ));
        }
        let leaves = u64::from(self.arity).pow(depth);
        if leaves > 1 << 26 {
            return Err(ModelError::Leaves {
                leaves,
                arity: self.arity.into(),
                min: 1,
                max: 1 << 26,
            });
        }
        if !(bytes_per_cycle.is_finite() && (0.01..=1024.0).contains(&bytes_per_cycle)) {
            return Err(out_of_range(
                "bytes per cycle",
                bytes_per_cycle,
                0.01,
                1024.0,
            ));
        }
        // The elements alone take this long to arrive; the engines cannot be faster than the
        // loader.
        let elements = u64::from(self.arity).pow(depth + 1);
        let arrival = (elements * ELEMENT_BYTES) as f64 / bytes_per_cycle;
        if arrival > MAX_SIMULATED_TREE_CYCLES as f64 {
            return Err(invalid(
                "bytes per cycle",
                bytes_per_cycle,
                "the tree's elements would take more cycles to arrive than the model runs",
            ));
        }
        let per_hash = engine.steady_cycles_per_pair(shape)? as f64 / (2 * engine.batch) as f64;
        Tree::new(self, engine, shape, depth).run(bytes_per_cycle, per_hash)
    }
}

/// The controller's registers and its shape.
struct Tree {
    // Sizes.
    a: u64,
    subtree_leaves: u64,
    layers: usize,
    leaf_words: u64,
    layer_nodes: Vec<u64>,
    layer_dest: Vec<Mem>,
    layer_dest_off: Vec<u64>,
    minor_layers: Vec<usize>,
    major_layers: Vec<usize>,
    words: [u64; 5],
    bases: [usize; 4],
    root_foot: u64,
    scratch_foot: u64,
    l0_layers: usize,
    l1_layers: usize,
    dest_depth: usize,
    pair_log: u32,
    // The configured shape.
    log_p: u32,
    log_g: u32,
    subtrees: u64,
    per_group: u64,
    groups: u64,
    elements: u64,
    l0_off: Vec<u64>,
    l1_off: Vec<u64>,
    l0_region: u64,
    // Loader and LHE feed.
    loaded: [bool; 2],
    ld_buf: usize,
    ld_leaf: u64,
    ld_lane: u64,
    ld_total: u64,
    fd_sub: u64,
    fd_idx: u64,
    fd_base: u64,
    l1_read: u64,
    // Engines and the leaf hash buffer.
    lhe: EngineCore,
    rhe: EngineCore,
    lhe_word: u64,
    lhe_lane: u64,
    lhe_subtrees: u64,
    // Node buffers' word states.
    live: Vec<bool>,
    lap: Vec<bool>,
    wr: Vec<u32>,
    full_mask: u32,
    // Subtree contexts.
    ctx_open: [bool; CONTEXTS],
    ctx_root: [u64; CONTEXTS],
    ctx_scr: [u64; CONTEXTS],
    ctx_l0: [u64; CONTEXTS],
    issued: [Vec<u64>; CONTEXTS],
    issued_w: [Vec<u64>; CONTEXTS],
    issued_l: [Vec<u64>; CONTEXTS],
    done: [Vec<u64>; CONTEXTS],
    oldest: usize,
    next_sub: u64,
    root_next: u64,
    scr_next: u64,
    open_l0: u64,
    open_base: u64,
    open_in_group: u64,
    // HIDM.
    l0_group: u64,
    l0_group_w: u64,
    l0_group_l: u64,
    l0_base: u64,
    l0_issued: Vec<u64>,
    l0_issued_w: Vec<u64>,
    l0_issued_l: Vec<u64>,
    l1_issued: Vec<u64>,
    l1_issued_w: Vec<u64>,
    l1_issued_l: Vec<u64>,
    // The RHE's input and the destinations.
    rd_pend: bool,
    rq_cnt: u32,
    dq: VecDeque<Dest>,
    root_valid: bool,
    hashes: [u64; 2],
    // Each engine's first state taken and last result, for the active window.
    first_in: [Option<u64>; 2],
    last_out: [u64; 2],
    // Cycles the LHE waited for loaded leaves held back by the leaf buffer's credit.
    lhe_blocked: u64,
    now: u64,
}

impl Tree {
    fn new(rtl: &ControllerRtl, engine: &EngineConfig, shape: &PoseidonShape, depth: u32) -> Self {
        let a = u64::from(rtl.arity);
        let pow = |k: u32| a.pow(k);
        let s = rtl.subtree_depth;
        let layers = (s - 1) as usize;
        let major = rtl.major_nodes;
        // Layer l (1-based) has A^(S − l) nodes; index 0 unused.
        let layer_nodes: Vec<u64> = (0..=layers as u32)
            .map(|l| if l == 0 { 0 } else { pow(s - l) })
            .collect();
        let dest = |l: usize| {
            if l == layers {
                Mem::Level0
            } else if layer_nodes[l + 1] >= major {
                Mem::Root
            } else {
                Mem::Scratch
            }
        };
        let layer_dest: Vec<Mem> = (0..=layers)
            .map(|l| if l == 0 { Mem::Leaf } else { dest(l) })
            .collect();
        let layer_dest_off: Vec<u64> = (0..=layers)
            .map(|l| {
                (1..l.max(1))
                    .filter(|&k| l > 0 && layer_dest[k] == layer_dest[l])
                    .map(|k| layer_nodes[k] / a)
                    .sum()
            })
            .collect();
        let foot = |m: Mem| -> u64 {
            (1..=layers)
                .filter(|&k| layer_dest[k] == m)
                .map(|k| layer_nodes[k] / a)
                .sum()
        };
        let (root_foot, scratch_foot) = (foot(Mem::Root), foot(Mem::Scratch));
        let leaf_words = pow(s - 1);
        let root_words = pow2_ceil(pow(s - 2));
        let scratch_words = pow2_ceil(major.div_ceil(a).max(2));
        let level0_words = pow2_ceil(pow(rtl.level0_depth));
        let level1_words = pow2_ceil(pow(rtl.level1_depth - 1));
        let leaf_ring = pow2_ceil(leaf_words);
        let words = [
            root_words,
            scratch_words,
            level0_words,
            level1_words,
            leaf_ring,
        ];
        let bases = [
            0,
            root_words as usize,
            (root_words + scratch_words) as usize,
            (root_words + scratch_words + level0_words) as usize,
        ];
        let state_words = (root_words + scratch_words + level0_words + level1_words) as usize;
        let l0_layers = rtl.level0_depth as usize + 1;
        let l1_layers = rtl.level1_depth as usize;

        let log_subtrees = depth - s;
        let log_p = log_subtrees.min(rtl.level0_depth);
        let log_g = log_subtrees - log_p;
        let l0_off: Vec<u64> = (0..=l0_layers + 1)
            .map(|j| {
                (0..l0_layers as u32)
                    .filter(|&i| (i as usize) < j && i <= log_p)
                    .map(|i| pow(log_p - i))
                    .sum()
            })
            .collect();
        let l1_off: Vec<u64> = (0..=l1_layers)
            .map(|j| {
                (1..=l1_layers as u32)
                    .filter(|&i| (i as usize) <= j && i <= log_g)
                    .map(|i| pow(log_g - i))
                    .sum()
            })
            .collect();
        let l0_region = l0_off[log_p as usize + 1];
        let counters = || vec![0u64; layers + 1];
        Self {
            a,
            subtree_leaves: pow(s),
            layers,
            leaf_words,
            minor_layers: (1..=layers).filter(|&l| layer_nodes[l] < major).collect(),
            major_layers: (1..=layers).filter(|&l| layer_nodes[l] >= major).collect(),
            layer_nodes,
            layer_dest,
            layer_dest_off,
            words,
            bases,
            root_foot,
            scratch_foot,
            l0_layers,
            l1_layers,
            dest_depth: 8 * engine.batch as usize,
            pair_log: (2 * engine.batch).trailing_zeros(),
            log_p,
            log_g,
            subtrees: pow(log_subtrees),
            per_group: pow(log_p),
            groups: pow(log_g),
            elements: pow(depth + 1),
            l0_off,
            l1_off,
            l0_region,
            loaded: [false; 2],
            ld_buf: 0,
            ld_leaf: 0,
            ld_lane: 0,
            ld_total: 0,
            fd_sub: 0,
            fd_idx: 0,
            fd_base: 0,
            l1_read: 0,
            lhe: EngineCore::new(engine, shape),
            rhe: EngineCore::new(engine, shape),
            lhe_word: 0,
            lhe_lane: 0,
            lhe_subtrees: 0,
            live: vec![false; state_words],
            // As if lap −1 were used: lap 0 comes first.
            lap: vec![true; state_words],
            wr: vec![0; state_words],
            full_mask: (1u32 << rtl.arity) - 1,
            ctx_open: [false; CONTEXTS],
            ctx_root: [0; CONTEXTS],
            ctx_scr: [0; CONTEXTS],
            ctx_l0: [0; CONTEXTS],
            issued: std::array::from_fn(|_| counters()),
            issued_w: std::array::from_fn(|_| counters()),
            issued_l: std::array::from_fn(|_| counters()),
            done: std::array::from_fn(|_| counters()),
            oldest: 0,
            next_sub: 0,
            root_next: 0,
            scr_next: 0,
            open_l0: 0,
            open_base: 0,
            open_in_group: 0,
            l0_group: 0,
            l0_group_w: 0,
            l0_group_l: 0,
            l0_base: 0,
            l0_issued: vec![0; l0_layers + 1],
            l0_issued_w: vec![0; l0_layers + 1],
            l0_issued_l: vec![0; l0_layers + 1],
            l1_issued: vec![0; l1_layers + 1],
            l1_issued_w: vec![0; l1_layers + 1],
            l1_issued_l: vec![0; l1_layers + 1],
            rd_pend: false,
            rq_cnt: 0,
            dq: VecDeque::new(),
            root_valid: false,
            hashes: [0; 2],
            first_in: [None; 2],
            last_out: [0; 2],
            lhe_blocked: 0,
            now: 0,
        }
    }

    fn mem_words(&self, m: Mem) -> u64 {
        match m {
            Mem::Root => self.words[0],
            Mem::Scratch => self.words[1],
            Mem::Level0 => self.words[2],
            Mem::Level1 => self.words[3],
            Mem::Leaf => self.words[4],
            Mem::Out => 1,
        }
    }

    fn node_mem(m: Mem) -> bool {
        matches!(m, Mem::Root | Mem::Scratch | Mem::Level0 | Mem::Level1)
    }

    fn word_idx(&self, m: Mem, p: u64) -> u64 {
        p & (self.mem_words(m) - 1)
    }

    fn word_lap(&self, m: Mem, p: u64) -> bool {
        (p >> self.mem_words(m).trailing_zeros()) & 1 == 1
    }

    fn state_id(&self, m: Mem, p: u64) -> usize {
        let base = match m {
            Mem::Root => self.bases[0],
            Mem::Scratch => self.bases[1],
            Mem::Level0 => self.bases[2],
            _ => self.bases[3],
        };
        base + self.word_idx(m, p) as usize
    }

    /// The word holds all its children at the expected lap.
    fn word_ready(&self, m: Mem, p: u64) -> bool {
        if !Self::node_mem(m) {
            return true;
        }
        let i = self.state_id(m, p);
        self.live[i] && self.lap[i] == self.word_lap(m, p) && self.wr[i] == self.full_mask
    }

    /// The word is free and was last used on the ring's previous lap.
    fn word_free(&self, m: Mem, p: u64) -> bool {
        if !Self::node_mem(m) {
            return true;
        }
        let i = self.state_id(m, p);
        !self.live[i] && self.lap[i] != self.word_lap(m, p)
    }

    fn dest_reservable(&self, k: &Cand) -> bool {
        k.lane != 0
            || self.word_free(k.dst_mem, k.dst)
            || (k.dst_mem == k.src_mem
                && self.word_idx(k.dst_mem, k.dst) == self.word_idx(k.src_mem, k.src))
    }

    fn subtree_cand(&self, c: usize, l: usize) -> Option<Cand> {
        if !self.ctx_open[c] {
            return None;
        }
        let n = self.issued[c][l];
        if n >= self.layer_nodes[l] || (l > 1 && self.done[c][l - 1] < (n + 1) * self.a) {
            return None;
        }
        let (src_mem, src) = if l == 1 {
            (Mem::Leaf, n)
        } else {
            let m = self.layer_dest[l - 1];
            let base = if m == Mem::Root {
                self.ctx_root[c]
            } else {
                self.ctx_scr[c]
            };
            (m, base + self.layer_dest_off[l - 1] + n)
        };
        let dst_mem = self.layer_dest[l];
        let dst = match dst_mem {
            Mem::Root => self.ctx_root[c] + self.layer_dest_off[l] + self.issued_w[c][l],
            Mem::Scratch => self.ctx_scr[c] + self.layer_dest_off[l] + self.issued_w[c][l],
            _ => self.ctx_l0[c],
        };
        let k = Cand {
            src_mem,
            src,
            dst_mem,
            dst,
            lane: self.issued_l[c][l] as u32,
        };
        self.dest_reservable(&k).then_some(k)
    }

    fn level0_cand(&self, m: usize) -> Option<Cand> {
        let n = self.l0_issued[m];
        let hashes = if (m as u32 - 1) <= self.log_p {
            self.a.pow(self.log_p - (m as u32 - 1))
        } else {
            0
        };
        if m > self.log_p as usize + 1 || self.l0_group >= self.groups || n >= hashes {
            return None;
        }
        let src = self.l0_base + self.l0_off[m - 1] + n;
        let (dst_mem, dst, lane) = if m < self.log_p as usize + 1 {
            (
                Mem::Level0,
                self.l0_base + self.l0_off[m] + self.l0_issued_w[m],
                self.l0_issued_l[m],
            )
        } else if self.log_g != 0 {
            (Mem::Level1, self.l0_group_w, self.l0_group_l)
        } else {
            (Mem::Out, 0, 0)
        };
        self.hidm_cand(Mem::Level0, src, dst_mem, dst, lane)
    }

    fn level1_cand(&self, m: usize) -> Option<Cand> {
        let n = self.l1_issued[m];
        let hashes = if m as u32 <= self.log_g {
            self.a.pow(self.log_g - m as u32)
        } else {
            0
        };
        if m > self.log_g as usize || n >= hashes {
            return None;
        }
        let src = self.l1_off[m - 1] + n;
        let (dst_mem, dst, lane) = if m < self.log_g as usize {
            (
                Mem::Level1,
                self.l1_off[m] + self.l1_issued_w[m],
                self.l1_issued_l[m],
            )
        } else {
            (Mem::Out, 0, 0)
        };
        self.hidm_cand(Mem::Level1, src, dst_mem, dst, lane)
    }

    /// A HIDM hash reading the word at `src` of `src_mem`: ready once that word holds all its
    /// children at the expected lap and its result's word can be had.
    fn hidm_cand(&self, src_mem: Mem, src: u64, dst_mem: Mem, dst: u64, lane: u64) -> Option<Cand> {
        let k = Cand {
            src_mem,
            src,
            dst_mem,
            dst,
            lane: lane as u32,
        };
        (self.word_ready(src_mem, src) && self.dest_reservable(&k)).then_some(k)
    }

    /// The dispatch scheduler's pick: minor aggregation (oldest subtree, lowest layer first),
    /// Level 0, Level 1, then major aggregation.
    fn pick(&self) -> Option<(Cand, Kind)> {
        for a in 0..CONTEXTS {
            let c = (self.oldest + a) % CONTEXTS;
            for &l in &self.minor_layers {
                if let Some(k) = self.subtree_cand(c, l) {
                    return Some((k, Kind::Subtree(c, l)));
                }
            }
        }
        for m in 1..=self.l0_layers {
            if let Some(k) = self.level0_cand(m) {
                return Some((k, Kind::Level0(m)));
            }
        }
        for m in 1..=self.l1_layers {
            if let Some(k) = self.level1_cand(m) {
                return Some((k, Kind::Level1(m)));
            }
        }
        for a in 0..CONTEXTS {
            let c = (self.oldest + a) % CONTEXTS;
            for &l in &self.major_layers {
                if let Some(k) = self.subtree_cand(c, l) {
                    return Some((k, Kind::Subtree(c, l)));
                }
            }
        }
        None
    }

    fn run(mut self, bytes_per_cycle: f64, per_hash: f64) -> Result<TreeSimRun, ModelError> {
        let mut fed = 0u64;
        let mut cycle = 0u64;
        let mut idle = 0u64;
        while !self.root_valid {
            // The bench: element `fed` is offered once (fed + 1)·32 bytes have arrived.
            let offer = fed < self.elements
                && (cycle + 1) as f64 * bytes_per_cycle >= ((fed + 1) * ELEMENT_BYTES) as f64;
            let in_ready = !self.loaded[self.ld_buf] && self.ld_total < self.elements;
            let ld_we = offer && in_ready;
            fed += u64::from(ld_we);
            self.now = cycle;
            let moved = self.cycle(ld_we);
            idle = if moved || ld_we { 0 } else { idle + 1 };
            if idle > STALL_CYCLES || cycle > MAX_SIMULATED_TREE_CYCLES {
                return Err(ModelError::Stalled {
                    cycle,
                    fed,
                    elements: self.elements,
                    max_cycles: MAX_SIMULATED_TREE_CYCLES,
                });
            }
            cycle += 1;
        }
        let work = |e: usize| self.hashes[e] as f64 * per_hash;
        let window = |e: usize| (self.last_out[e] + 1 - self.first_in[e].unwrap_or(0)) as f64;
        Ok(TreeSimRun {
            cycles: cycle,
            hashes: self.hashes,
            utilisation_active: [work(0) / window(0), work(1) / window(1)],
            utilisation_total: [work(0) / cycle as f64, work(1) / cycle as f64],
            utilisation_occupied: [
                ((work(0) + self.lhe_blocked as f64) / window(0)).min(1.0),
                work(1) / window(1),
            ],
        })
    }

    /// One cycle with `ld_we` (an element taken). Returns whether an engine took a hash.
    fn cycle(&mut self, ld_we: bool) -> bool {
        // ---------------- LHE feed
        let fd_buf = (self.fd_sub & 1) as usize;
        let need = (((self.fd_idx >> self.pair_log) + 1) << self.pair_log).min(self.subtree_leaves);
        let fd_loaded = self.fd_sub < self.subtrees && self.loaded[fd_buf];
        let fd_credit = self.fd_sub == 0 || self.l1_read >= self.fd_base + need;
        let fd_valid = fd_loaded && fd_credit;
        self.lhe_blocked += u64::from(fd_loaded && !fd_credit && self.lhe.in_wanted());
        let fd_last = self.fd_sub == self.subtrees - 1 && self.fd_idx == self.subtree_leaves - 1;
        let fd_take = fd_valid && self.lhe.in_ready();
        let lhe_close = self.lhe.in_wanted() && !fd_valid && self.fd_idx == 0 && self.fd_sub != 0;
        let lhe_out_valid = self.lhe.step(fd_valid, fd_last, lhe_close);
        if fd_take {
            self.first_in[0].get_or_insert(self.now);
        }
        if lhe_out_valid {
            self.last_out[0] = self.now;
        }

        // ---------------- the dispatch scheduler and the RHE
        let pick = self.pick();
        let issue = pick.is_some()
            && self.rq_cnt + u32::from(self.rd_pend) < 2
            && self.dq.len() < self.dest_depth;
        let rhe_take = self.rq_cnt != 0 && self.rhe.in_ready();
        let rhe_close = self.rhe.in_wanted() && pick.is_none() && self.rq_cnt == 0 && !self.rd_pend;
        let rhe_out_valid = self.rhe.step(self.rq_cnt != 0, false, rhe_close);
        if rhe_take {
            self.first_in[1].get_or_insert(self.now);
        }
        if rhe_out_valid {
            self.last_out[1] = self.now;
        }
        let dst = if rhe_out_valid {
            self.dq.pop_front()
        } else {
            None
        };

        let oldest = self.oldest;
        let ctx_retire = self.ctx_open[oldest]
            && (1..=self.layers).all(|l| self.done[oldest][l] == self.layer_nodes[l]);
        let open_ctx = (self.next_sub % CONTEXTS as u64) as usize;
        let ctx_opening = self.next_sub < self.lhe_subtrees && !self.ctx_open[open_ctx];

        // ---------------- registers: loader and feed
        if ld_we {
            self.ld_total += 1;
            if lane_step(self.a, &mut self.ld_leaf, &mut self.ld_lane)
                && self.ld_leaf == self.subtree_leaves
            {
                self.ld_leaf = 0;
                self.loaded[self.ld_buf] = true;
                self.ld_buf ^= 1;
            }
        }
        if fd_take {
            self.fd_idx += 1;
            if self.fd_idx == self.subtree_leaves {
                self.fd_idx = 0;
                self.loaded[fd_buf] = false;
                if self.fd_sub != 0 {
                    self.fd_base += self.subtree_leaves;
                }
                self.fd_sub += 1;
            }
        }

        // ---------------- registers: the words' states
        if let Some(d) = dst {
            if Self::node_mem(d.mem) {
                self.wr[d.id] |= 1 << d.lane;
            }
        }
        if let (true, Some((k, _))) = (issue, pick) {
            if Self::node_mem(k.src_mem) {
                let rd = self.state_id(k.src_mem, k.src);
                self.live[rd] = false;
            }
            if k.lane == 0 && Self::node_mem(k.dst_mem) {
                let rs = self.state_id(k.dst_mem, k.dst);
                self.live[rs] = true;
                self.lap[rs] = self.word_lap(k.dst_mem, k.dst);
                self.wr[rs] = 0;
            }
        }

        // ---------------- registers: counters
        if lhe_out_valid
            && lane_step(self.a, &mut self.lhe_word, &mut self.lhe_lane)
            && self.lhe_word == self.leaf_words
        {
            self.lhe_word = 0;
            self.lhe_subtrees += 1;
        }
        self.hashes[0] += u64::from(fd_take);
        self.hashes[1] += u64::from(issue);
        if let Some(d) = dst {
            if let Some((c, l)) = d.subtree {
                self.done[c][l] += 1;
            }
            if d.mem == Mem::Out {
                self.root_valid = true;
            }
        }
        if ctx_retire {
            self.ctx_open[oldest] = false;
            self.oldest = (oldest + 1) % CONTEXTS;
        }
        if ctx_opening {
            let c = open_ctx;
            self.ctx_open[c] = true;
            self.ctx_root[c] = self.root_next;
            self.ctx_scr[c] = self.scr_next;
            self.ctx_l0[c] = self.open_l0;
            for v in [
                &mut self.issued[c],
                &mut self.issued_w[c],
                &mut self.issued_l[c],
                &mut self.done[c],
            ] {
                v.fill(0);
            }
            self.next_sub += 1;
            self.root_next += self.root_foot;
            self.scr_next += self.scratch_foot;
            // Subtree i's top word is its group's base plus its place in the group.
            if self.open_in_group == self.per_group - 1 {
                self.open_in_group = 0;
                self.open_base += self.l0_region;
                self.open_l0 = self.open_base;
            } else {
                self.open_in_group += 1;
                self.open_l0 += 1;
            }
        }
        if let (true, Some((k, kind))) = (issue, pick) {
            self.dq.push_back(Dest {
                mem: k.dst_mem,
                id: self.state_id(k.dst_mem, k.dst),
                lane: k.lane,
                subtree: match kind {
                    Kind::Subtree(c, l) => Some((c, l)),
                    _ => None,
                },
            });
            match kind {
                Kind::Subtree(c, l) => {
                    self.issued[c][l] += 1;
                    lane_step(self.a, &mut self.issued_w[c][l], &mut self.issued_l[c][l]);
                    if l == 1 {
                        self.l1_read += self.a;
                    }
                }
                Kind::Level0(m) => {
                    if m == self.log_p as usize + 1 {
                        // The group's last hash: the next group starts after this one's region.
                        self.l0_group += 1;
                        lane_step(self.a, &mut self.l0_group_w, &mut self.l0_group_l);
                        self.l0_base += self.l0_region;
                        for v in [
                            &mut self.l0_issued,
                            &mut self.l0_issued_w,
                            &mut self.l0_issued_l,
                        ] {
                            v.fill(0);
                        }
                    } else {
                        self.l0_issued[m] += 1;
                        lane_step(self.a, &mut self.l0_issued_w[m], &mut self.l0_issued_l[m]);
                    }
                }
                Kind::Level1(m) => {
                    self.l1_issued[m] += 1;
                    lane_step(self.a, &mut self.l1_issued_w[m], &mut self.l1_issued_l[m]);
                }
            }
        }
        // The pick's word is read (registered), then queued for the RHE.
        self.rq_cnt = self.rq_cnt + u32::from(self.rd_pend) - u32::from(rhe_take);
        self.rd_pend = issue;
        fd_take || issue
    }
}
