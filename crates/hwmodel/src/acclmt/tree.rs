//! The Merkle controller (§III-C, Fig. 6–7, Table II, Fig. 8): a leaf hash engine (LHE) and a
//! root hash engine (RHE), each the two-batch engine of [`EngineConfig`], building a binary
//! tree in standard subtrees of 4,096 leaves, simulated batch by batch. Trees of arity 4, 8, 11
//! (any of 2 … 11) are built the same way, beyond the paper: each buffer holds the largest power
//! of the arity that fits ([`ControllerConfig::geometry`]; subtrees of 4,096 leaves for arity 4
//! and 8, 1,331 for 11), a leaf is `arity` elements, and a hash takes `arity` children.
//!
//! - **Loader.** Each subtree's input (`arity` elements of 32 bytes per leaf) streams from
//!   off-chip memory at [`ControllerConfig::bandwidth_gb_per_s`] into one of two ping-pong
//!   buffers; subtree `i + 2` loads once the LHE has read subtree `i`.
//! - **LHE.** One permutation per leaf, pairs of full batches back to back; its results fill the
//!   leaf hash buffer, which holds one subtree: leaves of subtree `i + 1` overwrite those of
//!   subtree `i` only as the RHE has read them (in order, a pair of batches at a time).
//! - **RHE.** Takes subtree `i` once the LHE has finished it. A batch holds hashes of one layer of
//!   one subtree (one base address); a pair of batches starts as soon as the RHE is free and
//!   has work. **Major aggregation** (layers whose node count is at least the scratch pad's
//!   128) goes first; with the **merger** the pair's second batch takes the previous subtree's
//!   **minor aggregation** (its small, latency-bound top layers up to layer 11, partial
//!   batches) or HIDM work, so they fill the major sequence's slots instead of running alone.
//!   Without it (the paper's pre-optimisation design) a subtree's layers all finish before the
//!   next subtree's begin.
//! - **HIDM.** The two layer-11 nodes of each subtree go to Level 0; every 128 subtrees (and at
//!   the end) the RHE aggregates Level 0 (layers 12–19), and at the end Level 1 (layers 20–23):
//!   trees up to 2^23 leaves.
//!
//! A pair of batches of `a` and `b` hashes takes the engine's schedule with slots of
//! `max(n + SlotGap, round latency + 2)` cycles (a partial batch waits for its own results:
//! [`EngineConfig::pair_cycles`]). Batch A's results are back one round latency after its last
//! round, before batch B's last half of full rounds; B's one round latency after the pair.
//! With the merger, batch B is formed when its first round starts (after A's first half of
//! full rounds), from the work ready then, as the RTL's dispatch scheduler closes a
//! part-filled batch only when a sub-engine waits for it. The paper states no memory bandwidth; the default is fitted to Table II's fixed
//! overhead (about two subtree periods: "the execution time also includes initial data loading
//! and final aggregation in HIDM"), and at it the loader is just fast enough for the steady
//! state, which the ping-pong buffers then hide ("masked by the ping-pong mechanism").

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use super::{ControllerRtl, EngineConfig, PoseidonShape, TreeSimRun};
use crate::error::{invalid, out_of_range};
use crate::ModelError;

/// The Merkle controller's parameters. From JSON, missing fields take the defaults and unknown
/// ones are errors.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ControllerConfig {
    /// Both hash engines' parameters (and the clock).
    pub engine: EngineConfig,
    /// Leaves per standard subtree (the leaf hash buffer's capacity; 4,096).
    pub subtree_leaves: u64,
    /// Layers with at least this many nodes are major aggregation (the scratch pad's 128).
    pub major_min_nodes: u64,
    /// Subtree roots per HIDM Level-0 aggregation (128: layers 12–19).
    pub level0_subtrees: u64,
    /// Level-0 results HIDM Level 1 holds (16: layers 20–23).
    pub level1_entries: u64,
    /// Off-chip read bandwidth for the leaves' elements, GB/s (10^9 bytes per second).
    pub bandwidth_gb_per_s: f64,
    /// Whether the merger interleaves minor aggregation with the next subtree's major.
    pub merger: bool,
    /// Nanoseconds before the loader's first transfer starts: the paper's "initial data
    /// loading", which its times include (0 by default; see
    /// [`ControllerConfig::with_paper_overheads`]).
    pub initial_load_ns: f64,
    /// Cycles the RHE's dispatch scheduler takes to set up each pair of batches (gathering
    /// its nodes from the root hash buffer and the scratch pad through the merger), in which
    /// the RHE computes nothing: the paper's "RHE incurs more scheduling overhead".
    pub rhe_dispatch_cycles: u64,
}

/// The loader bandwidth of [`ControllerConfig::with_paper_overheads`]: one DDR4-2400
/// channel, fast enough that the loader never binds.
pub const DDR4_CHANNEL_GB_PER_S: f64 = 19.2;

/// The initial data loading of [`ControllerConfig::with_paper_overheads`], fitted to Table
/// II's small trees (about one subtree period).
pub const FITTED_INITIAL_LOAD_NS: f64 = 290_000.0;

/// The RHE's dispatch overhead of [`ControllerConfig::with_paper_overheads`], fitted to the
/// RHE's 96.7 % at 2^23 and Table II's large trees (3.5 % of a full pair's 2,268 cycles).
pub const FITTED_RHE_DISPATCH_CYCLES: u64 = 80;

/// The most batches an engine is simulated for (2^23 leaves in batches of 32 are 2^18).
pub const MAX_SIMULATED_BATCHES: u64 = 1 << 20;

/// The loader bandwidth fitted to Table II's fixed overhead (the paper states none): one
/// subtree's input, 4,096 leaves × 2 elements × 32 bytes, in about one subtree period.
pub const FITTED_BANDWIDTH_GB_PER_S: f64 = 0.87;

impl Default for ControllerConfig {
    /// The paper's controller: 4,096-leaf subtrees, a 128-node scratch pad, HIDM 128 × 16, the
    /// merger on, the fitted loader bandwidth, and the engine's defaults.
    fn default() -> Self {
        Self {
            engine: EngineConfig::default(),
            subtree_leaves: 4096,
            major_min_nodes: 128,
            level0_subtrees: 128,
            level1_entries: 16,
            bandwidth_gb_per_s: FITTED_BANDWIDTH_GB_PER_S,
            merger: true,
            initial_load_ns: 0.0,
            rhe_dispatch_cycles: 0,
        }
    }
}

/// One modelled tree build.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeRun {
    /// Leaves (LHE permutations).
    pub leaves: u64,
    /// Cycles from the first byte requested to the root written.
    pub cycles: u64,
    /// The same in milliseconds at the clock.
    pub milliseconds: f64,
    /// Hashes the RHE computed (`leaves − 1`).
    pub rhe_hashes: u64,
    /// LHE and RHE utilisation over each engine's active window (first pair issued to last
    /// result), the paper's measure: hashes × the full-pair cycles per hash / window.
    pub utilisation_active: [f64; 2],
    /// The same over the whole build.
    pub utilisation_total: [f64; 2],
    /// LHE and RHE occupancy over the active window: the busy share of
    /// [`TreeRun::utilisation_active`] plus the cycles in which the engine's next input was
    /// loaded but held back because the next stage had no room for its results (the LHE waiting
    /// for the RHE to read the leaf buffer; the RHE writes to buffers that never refuse it, so
    /// its figure equals its active one). A back-pressured pipeline counts as occupied: the one
    /// reading of the paper's "LHE nearing 100%" that its Table II allows.
    pub utilisation_occupied: [f64; 2],
}

impl ControllerConfig {
    /// The paper's controller with the overheads its text names, in place of the default's
    /// slow loader: a loader at [`DDR4_CHANNEL_GB_PER_S`] that never binds, the "initial data
    /// loading" its times include ([`FITTED_INITIAL_LOAD_NS`]), and the scheduling overhead
    /// the "RHE incurs" ([`FITTED_RHE_DISPATCH_CYCLES`] per pair of batches). The last two
    /// are fitted: together they reproduce Table II and the paper's utilisation figures in
    /// one configuration (the RHE binds, so the LHE is held back rather than starved). Our
    /// RTL has neither overhead; [`ControllerConfig::default`] is the configuration it
    /// matches.
    pub fn with_paper_overheads() -> Self {
        Self {
            bandwidth_gb_per_s: DDR4_CHANNEL_GB_PER_S,
            initial_load_ns: FITTED_INITIAL_LOAD_NS,
            rhe_dispatch_cycles: FITTED_RHE_DISPATCH_CYCLES,
            ..Self::default()
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`ModelError::OutOfRange`] or [`ModelError::Invalid`] naming the first violation.
    pub fn validate(&self) -> Result<(), ModelError> {
        self.engine.validate()?;
        let batch = u64::from(self.engine.batch);
        if !self.subtree_leaves.is_power_of_two()
            || self.subtree_leaves < (4 * batch).max(256)
            || self.subtree_leaves > 1 << 20
        {
            return Err(invalid(
                "subtree_leaves",
                self.subtree_leaves as f64,
                "must be a power of two, at least 256 and 4 batches, at most 2^20",
            ));
        }
        if self.major_min_nodes < 2 || self.major_min_nodes > self.subtree_leaves {
            return Err(out_of_range(
                "scratch_pad_nodes",
                self.major_min_nodes as f64,
                2.0,
                self.subtree_leaves as f64,
            ));
        }
        for (what, n) in [
            ("level0_subtrees", self.level0_subtrees),
            ("level1_entries", self.level1_entries),
        ] {
            if !n.is_power_of_two() || n > 1 << 16 {
                return Err(invalid(what, n as f64, "must be a power of two up to 2^16"));
            }
        }
        let reals = [
            ("bandwidth_gbps", self.bandwidth_gb_per_s, 1e-3, 1e4),
            ("initial_load_ns", self.initial_load_ns, 0.0, 1e9),
            (
                "rhe_dispatch_cycles",
                self.rhe_dispatch_cycles as f64,
                0.0,
                (1u64 << 20) as f64,
            ),
        ];
        for (name, value, min, max) in reals {
            if !(value.is_finite() && (min..=max).contains(&value)) {
                return Err(out_of_range(name, value, min, max));
            }
        }
        Ok(())
    }

    /// The most leaves the HIDM holds in a binary tree: subtree × Level 0 × Level 1 (2^23 by
    /// default). [`TreeGeometry::capacity`] gives it for another arity.
    pub fn capacity(&self) -> u64 {
        self.subtree_leaves * self.level0_subtrees * self.level1_entries
    }

    /// The controller's buffers laid out for a tree of `arity` (2 … 11): each holds the largest
    /// power of the arity that fits (beyond the paper, which builds binary trees only).
    ///
    /// # Errors
    /// [`ModelError::OutOfRange`] for an arity outside 2 … 11 (the engine's state widths
    /// 3 … 12).
    pub fn geometry(&self, arity: u32) -> Result<TreeGeometry, ModelError> {
        if !(2..=MAX_ARITY).contains(&arity) {
            return Err(out_of_range("arity", arity.into(), 2.0, MAX_ARITY.into()));
        }
        let arity = u64::from(arity);
        let fit = |n: u64| {
            let mut p = 1;
            while p * arity <= n {
                p *= arity;
            }
            p
        };
        Ok(TreeGeometry {
            arity,
            subtree_leaves: fit(self.subtree_leaves),
            level0_subtrees: fit(self.level0_subtrees),
            level1_entries: fit(self.level1_entries),
        })
    }

    /// The RTL controller's parameters for a tree of `arity` with these buffers
    /// ([`ControllerConfig::geometry`]): its depths are the logarithms of the fitted sizes, and
    /// `MajorNodes` is the threshold as given.
    ///
    /// # Errors
    /// As [`ControllerConfig::validate`], [`ControllerConfig::geometry`] and
    /// [`ControllerRtl::validate`].
    pub fn rtl(&self, arity: u32) -> Result<ControllerRtl, ModelError> {
        self.validate()?;
        let geometry = self.geometry(arity)?;
        // The fitted sizes are powers of the arity.
        let depth = |n: u64| n.ilog(geometry.arity);
        let rtl = ControllerRtl {
            arity,
            subtree_depth: depth(geometry.subtree_leaves),
            major_nodes: self.major_min_nodes,
            level0_depth: depth(geometry.level0_subtrees),
            level1_depth: depth(geometry.level1_entries),
        };
        rtl.validate(&self.engine)?;
        Ok(rtl)
    }

    /// Builds a tree of `leaves` leaves (a power of the arity, `shape.width − 1`) on the RTL
    /// controller these buffers give ([`ControllerConfig::rtl`]), cycle by cycle
    /// ([`ControllerRtl::simulate`]), its elements offered at `bytes_per_cycle` (by default the
    /// bandwidth at the clock).
    ///
    /// # Errors
    /// As [`ControllerConfig::rtl`] and [`ControllerRtl::simulate`];
    /// [`ModelError::Leaves`] for a leaf count that is no power of the arity;
    /// [`ModelError::NotInRtl`] for an initial load or an RHE dispatch overhead, which the RTL
    /// does not have.
    pub fn simulate_rtl(
        &self,
        shape: &PoseidonShape,
        leaves: u64,
        bytes_per_cycle: Option<f64>,
    ) -> Result<TreeSimRun, ModelError> {
        if self.initial_load_ns != 0.0 || self.rhe_dispatch_cycles != 0 {
            return Err(ModelError::NotInRtl {
                initial_load_ns: self.initial_load_ns,
                rhe_dispatch_cycles: self.rhe_dispatch_cycles,
            });
        }
        let arity = shape.width.saturating_sub(1);
        let rtl = self.rtl(arity)?;
        let a = u64::from(arity);
        let depth = leaves
            .checked_ilog(a)
            .filter(|&d| a.checked_pow(d) == Some(leaves))
            .ok_or(ModelError::Leaves {
                leaves,
                arity: a,
                min: 1,
                max: u64::MAX,
            })?;
        let bytes_per_cycle =
            bytes_per_cycle.unwrap_or(self.bandwidth_gb_per_s * 1e3 / self.engine.clock_mhz);
        rtl.simulate(&self.engine, shape, depth, bytes_per_cycle)
    }

    /// Builds a tree of `leaves` leaves with the Poseidon instance `shape`, whose arity is
    /// `t − 1` (FileCoin's 2, 4, 8, 11 or any in between). Each leaf is `arity` elements, one
    /// permutation on the LHE; the buffers are laid out by [`ControllerConfig::geometry`].
    /// `leaves` is a power of the arity from `max(4·batch, arity²)` to
    /// [`TreeGeometry::capacity`], in at most [`MAX_SIMULATED_BATCHES`] batches.
    ///
    /// # Errors
    /// As [`ControllerConfig::validate`], [`PoseidonShape::validate`] and
    /// [`ControllerConfig::geometry`]; [`ModelError::Leaves`] for a leaf count outside that
    /// range (the HIDM's capacity, and at most [`MAX_SIMULATED_BATCHES`] batches per engine).
    pub fn build(&self, shape: &PoseidonShape, leaves: u64) -> Result<TreeRun, ModelError> {
        self.validate()?;
        shape.validate()?;
        let geometry = self.geometry(shape.width.saturating_sub(1))?;
        let arity = geometry.arity;
        let batch = u64::from(self.engine.batch);
        let least = (4 * batch).max(arity * arity);
        let most = geometry.capacity().min(MAX_SIMULATED_BATCHES * batch);
        if !is_power_of(leaves, arity) || leaves < least || leaves > most {
            return Err(ModelError::Leaves {
                leaves,
                arity,
                min: least,
                max: most,
            });
        }
        Ok(Simulation::new(self, shape, &geometry, leaves).run())
    }
}

/// The largest arity the controller builds (the engine's widest state, t = 12).
pub const MAX_ARITY: u32 = 11;

/// The controller's buffers for one arity (see [`ControllerConfig::geometry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeGeometry {
    /// The tree's arity.
    pub arity: u64,
    /// Leaves per standard subtree: `arity^⌊log_arity 4096⌋` by default (4,096 for arity 2, 4
    /// and 8; 1,331 for 11).
    pub subtree_leaves: u64,
    /// Subtree roots per HIDM Level-0 aggregation.
    pub level0_subtrees: u64,
    /// Level-0 results HIDM Level 1 holds.
    pub level1_entries: u64,
}

impl TreeGeometry {
    /// The most leaves the HIDM holds: subtree × Level 0 × Level 1.
    pub fn capacity(&self) -> u64 {
        self.subtree_leaves * self.level0_subtrees * self.level1_entries
    }
}

/// Whether `n` is a power of `base` (`base^0 = 1` included).
fn is_power_of(n: u64, base: u64) -> bool {
    let mut p = 1u64;
    while p < n {
        match p.checked_mul(base) {
            Some(q) => p = q,
            None => return false,
        }
    }
    p == n
}

/// Which aggregation a layer belongs to (the merger's priority classes).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Major,
    Minor,
    Hidm,
}

/// One layer of a job: hashes in total, issued to the RHE, and done.
#[derive(Clone, Copy, Default)]
struct Layer {
    total: u64,
    issued: u64,
    done: u64,
}

/// A piece of the tree the RHE aggregates: a subtree's layers 1–11, a Level-0 group or Level 1.
struct Job {
    class_of_layer: Vec<Class>,
    layers: Vec<Layer>,
    /// Input nodes available to the first layer.
    inputs: u64,
    /// The subtree's index (for the leaf buffer's credits), if a subtree.
    subtree: Option<usize>,
    /// Where the last layer's results go: (job, input nodes added per hash).
    parent: Option<usize>,
}

impl Job {
    /// Hashes of `layer` ready to issue: one per `arity` children returned.
    fn ready(&self, layer: usize, arity: u64) -> u64 {
        let inputs = if layer == 0 {
            self.inputs
        } else {
            self.layers[layer - 1].done
        };
        let l = &self.layers[layer];
        (inputs / arity).min(l.total) - l.issued
    }

    fn finished(&self) -> bool {
        self.layers.iter().all(|l| l.done == l.total)
    }
}

/// Part of a batch issued to the RHE: job, layer, hashes.
type Part = (usize, usize, u64);

/// A batch: its parts (one without the merger; with it, minor and HIDM hashes first and major
/// ones after, as the merger lays them into one sequence).
type Batch = Vec<Part>;

fn hashes(batch: &Batch) -> u64 {
    batch.iter().map(|p| p.2).sum()
}

struct Simulation<'a> {
    config: &'a ControllerConfig,
    shape: &'a PoseidonShape,
    leaves: u64,
    arity: u64,
    /// Leaves of one subtree, and of the HIDM's levels.
    subtree: u64,
    level0_subtrees: u64,
    subtrees: usize,
    batch: u64,
    full_pair: u64,
    latency: u64,
    load_cycles: u64,
    /// Cycles before the loader's first transfer.
    load_latency: u64,
    jobs: Vec<Job>,
    /// The oldest subtree job not finished (earlier ones are done).
    first_open: usize,
    /// Completion events: (time, job, layer, hashes); layer `usize::MAX` marks the LHE's
    /// finishing a subtree (job = the subtree's job).
    events: BinaryHeap<Reverse<(u64, usize, usize, u64)>>,
}

impl<'a> Simulation<'a> {
    fn new(
        config: &'a ControllerConfig,
        shape: &'a PoseidonShape,
        geometry: &TreeGeometry,
        leaves: u64,
    ) -> Self {
        let subtree = geometry.subtree_leaves.min(leaves);
        let subtrees = (leaves / subtree) as usize;
        let batch = u64::from(config.engine.batch);
        let full_pair = config.engine.pair_cycles(shape, batch, batch);
        let bytes = subtree as f64 * geometry.arity as f64 * 32.0;
        let load_cycles =
            (bytes / (config.bandwidth_gb_per_s * 1e9) * config.engine.clock_mhz * 1e6).ceil()
                as u64;
        let load_latency = (config.initial_load_ns * config.engine.clock_mhz / 1e3).ceil() as u64;
        let mut sim = Self {
            config,
            shape,
            leaves,
            arity: geometry.arity,
            subtree,
            level0_subtrees: geometry.level0_subtrees,
            subtrees,
            batch,
            full_pair,
            latency: config.engine.round_latency(),
            load_cycles,
            load_latency,
            jobs: Vec::new(),
            first_open: 0,
            events: BinaryHeap::new(),
        };
        sim.plan_jobs();
        sim
    }

    /// The jobs: subtrees (layers up to `arity` nodes), Level-0 groups (their subtrees' roots
    /// and up), Level 1 (the groups' roots and up).
    fn plan_jobs(&mut self) {
        let arity = self.arity;
        let per_group = self.level0_subtrees.min(self.subtrees as u64);
        let groups = self.subtrees as u64 / per_group;
        let level1 = (groups > 1).then_some(0);
        let first_group = self.subtrees;
        for i in 0..self.subtrees {
            let mut layers = Vec::new();
            let mut classes = Vec::new();
            let mut nodes = self.subtree / arity;
            while nodes >= arity {
                layers.push(Layer {
                    total: nodes,
                    ..Layer::default()
                });
                classes.push(if nodes >= self.config.major_min_nodes {
                    Class::Major
                } else {
                    Class::Minor
                });
                nodes /= arity;
            }
            self.jobs.push(Job {
                class_of_layer: classes,
                layers,
                inputs: 0,
                subtree: Some(i),
                parent: Some(first_group + i / per_group as usize),
            });
        }
        let hidm = |hashes: u64, parent| {
            let mut layers = Vec::new();
            let mut n = hashes;
            while n >= 1 {
                layers.push(Layer {
                    total: n,
                    ..Layer::default()
                });
                n /= arity;
            }
            Job {
                class_of_layer: vec![Class::Hidm; layers.len()],
                layers,
                inputs: 0,
                subtree: None,
                parent,
            }
        };
        let level1_job = first_group + groups as usize;
        for _ in 0..groups {
            self.jobs.push(hidm(per_group, level1.map(|_| level1_job)));
        }
        if level1.is_some() {
            self.jobs.push(hidm(groups / arity, None));
        }
    }

    fn run(mut self) -> TreeRun {
        let pairs_per_subtree = self.subtree.div_ceil(2 * self.batch);
        let mut lhe_free = 0u64;
        let mut lhe_first = None;
        let mut lhe_last_end = 0u64;
        // Cycles the LHE waited with its input loaded, for the leaf buffer's credit only.
        let mut lhe_blocked = 0u64;
        let mut load_done = vec![0u64; self.subtrees];
        let mut lhe_read_done = vec![0u64; self.subtrees];
        // For each subtree, when the RHE's layer-1 issue count reached each value (credit log).
        let mut layer1_issue_times: Vec<Vec<(u64, u64)>> = vec![Vec::new(); self.subtrees];
        let (mut lhe_sub, mut lhe_pair) = (0usize, 0u64);
        let mut rhe_free = 0u64;
        let mut rhe_first = None;
        let mut rhe_last_end = 0u64;
        let mut rhe_hashes = 0u64;
        loop {
            // The LHE's next pair: when its input is loaded and its leaves' buffer slots have
            // been read by the RHE (None: waiting for the RHE, or done).
            let lhe_next = if lhe_sub < self.subtrees {
                let i = lhe_sub;
                if lhe_pair == 0 {
                    let buffer_free = if i >= 2 { lhe_read_done[i - 2] } else { 0 };
                    let previous = if i >= 1 {
                        load_done[i - 1]
                    } else {
                        self.load_latency
                    };
                    load_done[i] = previous.max(buffer_free) + self.load_cycles;
                }
                let leaves_needed = ((lhe_pair + 1) * 2 * self.batch).min(self.subtree);
                let credit = if i == 0 {
                    Some(0)
                } else {
                    layer1_issue_times[i - 1]
                        .iter()
                        .find(|(issued, _)| self.arity * issued >= leaves_needed)
                        .map(|&(_, t)| t)
                };
                // When it starts, and how long it waits with its leaves loaded for the credit.
                credit.map(|c| {
                    let ready = lhe_free.max(load_done[i]);
                    (ready.max(c), c.saturating_sub(ready))
                })
            } else {
                None
            };
            // Whichever engine acts first acts (events a later action adds lie after it).
            if lhe_next.is_none_or(|(l, _)| rhe_free <= l) {
                if let Some((a, b)) = self.next_rhe_pair(rhe_free) {
                    // The pair enters once the dispatch scheduler has set it up.
                    let t = rhe_free + self.config.rhe_dispatch_cycles;
                    let phases = self
                        .config
                        .engine
                        .pair_phases(self.shape, hashes(&a), hashes(&b));
                    let d = phases.cycles;
                    rhe_first.get_or_insert(t);
                    let done = t + d + self.latency;
                    let a_done = t + phases.a_done + self.latency;
                    let parts = a.into_iter().map(|p| (p, a_done));
                    for ((job, layer, n), done) in parts.chain(b.into_iter().map(|p| (p, done))) {
                        self.jobs[job].layers[layer].issued += n;
                        rhe_hashes += n;
                        if let (0, Some(s)) = (layer, self.jobs[job].subtree) {
                            let issued = self.jobs[job].layers[0].issued;
                            layer1_issue_times[s].push((issued, t));
                        }
                        self.events.push(Reverse((done, job, layer, n)));
                    }
                    rhe_free = t + d;
                    rhe_last_end = rhe_last_end.max(done);
                    continue;
                }
                // Idle until the next result, unless the LHE acts before it.
                match self.events.peek().map(|Reverse(e)| e.0) {
                    Some(e) if lhe_next.is_none_or(|(l, _)| e <= l) => {
                        rhe_free = rhe_free.max(e);
                        continue;
                    }
                    None if lhe_next.is_none() => break,
                    _ => {}
                }
            }
            let (t, blocked) = lhe_next.expect("the LHE acts");
            lhe_blocked += blocked;
            let n = (self.subtree - lhe_pair * 2 * self.batch).min(2 * self.batch);
            let d = self.config.engine.pair_cycles(
                self.shape,
                n.min(self.batch),
                n.saturating_sub(self.batch),
            );
            lhe_first.get_or_insert(t);
            lhe_free = t + d;
            lhe_last_end = t + d + self.latency;
            lhe_pair += 1;
            if lhe_pair == pairs_per_subtree {
                lhe_read_done[lhe_sub] = lhe_free;
                self.events
                    .push(Reverse((lhe_last_end, lhe_sub, usize::MAX, 0)));
                lhe_sub += 1;
                lhe_pair = 0;
            }
        }
        let end = lhe_last_end.max(rhe_last_end);
        debug_assert!(self.jobs.iter().all(Job::finished));
        let per_hash = self.full_pair as f64 / (2 * self.batch) as f64;
        let window = |first: Option<u64>, last: u64| (last - first.unwrap_or(0)).max(1) as f64;
        let lhe_work = self.leaves as f64 * per_hash;
        let rhe_work = rhe_hashes as f64 * per_hash;
        TreeRun {
            leaves: self.leaves,
            cycles: end,
            milliseconds: end as f64 / (self.config.engine.clock_mhz * 1e3),
            rhe_hashes,
            utilisation_active: [
                lhe_work / window(lhe_first, lhe_last_end),
                rhe_work / window(rhe_first, rhe_last_end),
            ],
            utilisation_total: [lhe_work / end as f64, rhe_work / end as f64],
            utilisation_occupied: [
                ((lhe_work + lhe_blocked as f64) / window(lhe_first, lhe_last_end)).min(1.0),
                rhe_work / window(rhe_first, rhe_last_end),
            ],
        }
    }

    /// Applies every event at or before `t`.
    fn apply_events(&mut self, t: u64) {
        while let Some(&Reverse((time, job, layer, n))) = self.events.peek() {
            if time > t {
                break;
            }
            self.events.pop();
            if layer == usize::MAX {
                self.jobs[job].inputs = self.subtree;
                continue;
            }
            let j = &mut self.jobs[job];
            j.layers[layer].done += n;
            if layer + 1 == j.layers.len() {
                // The job's top nodes are the parent's inputs.
                if let Some(p) = j.parent {
                    self.jobs[p].inputs += n;
                }
            }
        }
        while self.first_open < self.subtrees && self.jobs[self.first_open].finished() {
            self.first_open += 1;
        }
    }

    /// The RHE's pair set up from time `t` (it enters [`ControllerConfig::rhe_dispatch_cycles`]
    /// later) from the work ready then: (first batch, second batch, maybe empty); `None` when
    /// nothing is ready.
    fn next_rhe_pair(&mut self, t: u64) -> Option<(Batch, Batch)> {
        self.apply_events(t);
        let mut taken = Vec::new();
        let a = self.take_batch(&mut taken);
        if a.is_empty() {
            return None;
        }
        // The dispatch scheduler (with the merger) keeps batch B open until its first round
        // starts, after A's first half of full rounds, as the RTL does (it closes a part-filled
        // batch only when a sub-engine waits for it); without it both batches form at once.
        if self.config.merger {
            let b_starts = self
                .config
                .engine
                .pair_phases(self.shape, hashes(&a), 0)
                .b_starts;
            self.apply_events(t + self.config.rhe_dispatch_cycles + b_starts);
        }
        let b = self.take_batch(&mut taken);
        Some((a, b))
    }

    /// The next batch from the ready work, less what `taken` already holds (and adds it there).
    ///
    /// With the merger: minor and HIDM hashes first (oldest job, lowest layer first), then
    /// major ones, in one batch. Without it: one layer of the oldest unfinished subtree (lowest
    /// layer first), or HIDM work.
    fn take_batch(&self, taken: &mut Vec<Part>) -> Batch {
        let mut batch = Vec::new();
        let mut room = self.batch;
        let classes: &[&[Class]] = if self.config.merger {
            &[&[Class::Minor, Class::Hidm], &[Class::Major]]
        } else {
            &[&[Class::Major, Class::Minor, Class::Hidm]]
        };
        // Open subtrees (from the oldest unfinished up to the first the LHE has not delivered;
        // only the oldest without the merger), then the HIDM groups.
        let open_subtrees = (self.first_open..self.subtrees)
            .take_while(|&j| self.jobs[j].inputs > 0)
            .take(if self.config.merger { usize::MAX } else { 1 });
        let candidates: Vec<usize> = open_subtrees
            .chain(self.subtrees..self.jobs.len())
            .collect();
        for wanted in classes {
            for &j in &candidates {
                let job = &self.jobs[j];
                for (l, class) in job.class_of_layer.iter().enumerate() {
                    if room == 0 || !wanted.contains(class) {
                        continue;
                    }
                    let already: u64 = taken
                        .iter()
                        .filter(|p| (p.0, p.1) == (j, l))
                        .map(|p| p.2)
                        .sum();
                    let n = (job.ready(l, self.arity) - already).min(room);
                    if n > 0 {
                        batch.push((j, l, n));
                        taken.push((j, l, n));
                        room -= n;
                        if !self.config.merger {
                            return batch;
                        }
                    }
                }
            }
        }
        batch
    }
}

/// One row of Table II: the paper's time for a binary tree (500 MHz).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TableIIRow {
    /// Leaves.
    pub leaves: u64,
    /// The paper's milliseconds.
    pub paper_ms: f64,
}

/// Table II's AcclMT row, 2^12 … 2^23 leaves.
pub const TABLE_II: [TableIIRow; 12] = {
    const MS: [f64; 12] = [
        0.91, 1.22, 1.83, 3.04, 5.45, 10.3, 19.8, 39.0, 77.4, 154.0, 308.0, 615.0,
    ];
    let mut rows = [TableIIRow {
        leaves: 0,
        paper_ms: 0.0,
    }; 12];
    let mut i = 0;
    while i < 12 {
        rows[i] = TableIIRow {
            leaves: 1 << (12 + i),
            paper_ms: MS[i],
        };
        i += 1;
    }
    rows
};

/// The paper's utilisation figures: LHE and RHE averaged over 2^12 … 2^23 ("99.2% and 95.9%"),
/// and the RHE's at the largest trees ("RHE reaching 96.7%").
pub const PAPER_UTILISATION: ([f64; 2], f64) = ([0.992, 0.959], 0.967);

/// A modelled Table II row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableIIModel {
    /// Leaves.
    pub leaves: u64,
    /// The paper's milliseconds.
    pub paper_ms: f64,
    /// The modelled build.
    pub run: TreeRun,
    /// Relative error of the modelled time against the paper's, in percent.
    pub error_percent: f64,
}

/// Table II modelled for `config` with FileCoin's arity-2 instance (`R_F = 8, R_P = 56`).
///
/// # Errors
/// As [`ControllerConfig::build`].
pub fn table_ii(config: &ControllerConfig) -> Result<Vec<TableIIModel>, ModelError> {
    let shape = PoseidonShape::filecoin(2)?;
    TABLE_II
        .iter()
        .map(|row| {
            let run = config.build(&shape, row.leaves)?;
            Ok(TableIIModel {
                leaves: row.leaves,
                paper_ms: row.paper_ms,
                error_percent: 100.0 * (run.milliseconds / row.paper_ms - 1.0),
                run,
            })
        })
        .collect()
}
