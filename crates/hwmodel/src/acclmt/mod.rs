//! Cycle model of AcclMT's Poseidon hash engine (Liu et al., "AcclMT: A Highly
//! Resource-Efficient and Flexible Poseidon Hash-Based Merkle Tree Architecture", §III, Fig. 5,
//! Table I), the same structure as the RTL in `hw/acclmt` and equal to its measured cycles
//! exactly (the bench checks it on every instance it runs).
//!
//! The engine has a full-round (FR) sub-engine of three full threads (18 modular multipliers)
//! and a partial-round (PR) sub-engine of one full and two partial threads (12). Hashes move in
//! batches of `B`; a sub-engine issues one hash's beat per cycle (every other cycle for
//! `α = 7`, the S-box's initiation interval of 2), beat after beat over its batch — a round is
//! one beat at `t = 3`, `k²` (full) or `⌈(t − 1)/2⌉` (partial, sparse) beats of three lanes at
//! wider states, `k = ⌈t/3⌉` — and each result returns `4·Lm + 4` cycles later (`Lm = 3·(MulLatency + 1)`, the pipelined Montgomery
//! multiplier's latency). In the paper's **two-batch schedule** a pair of batches A, B runs as
//!
//! ```text
//! FR: A[0,h)  B[0,h)  B[h,R_P)  A[h+R_P,R)  B[h+R_P,R)      R_P + 1.5·R_F rounds per pair
//! PR:         A[h,h+R_P)        B[R_P,h+R_P)                R_P + R_F/2
//! ```
//!
//! (`h = R_F/2`, rounds `0 … R − 1`, `R = R_F + R_P`), against `R_F + R_P` rounds per pair for
//! the **baseline** of two FR engines. A round of a batch of `n` hashes takes `n + SlotGap`
//! cycles and a segment whose batch comes from the other sub-engine starts `HandoverGap`
//! cycles late: the paper's unexplained overheads (about 3.4 % per slot and 0.54 slot per pair
//! of batches over the ideal; `docs/notes/ntt-fpga-and-acclmt.md` §C.2 M6), which put the
//! engine on Table I's 35.44 cycles per hash and its 7.04 % / 3.55 % time-loss claims.
//!
//! [`EngineConfig::simulate`] runs the RTL's scheduler cycle by cycle (the input loader, the
//! segments with their per-entry round counters, the round pipelines, the in-order drainer) for
//! a stream at full rate; [`EngineConfig::steady_cycles_per_pair`] is its closed form once the
//! pipeline is full; both cover every state width the RTL takes. [`table_i`] carries Table I's
//! wider rows (arity 4, 8, 11) through the notes' calibrated chunk factor (§C.2 M5) and reports
//! the RTL's own beat schedule beside it ([`TableIModel::rtl_cycles_per_hash`]).

use serde::{Deserialize, Serialize};

use crate::error::{invalid, out_of_range};
/// The models' errors: [`crate::ModelError`], under the name this module had for them.
pub use crate::ModelError as AcclmtModelError;

/// The largest round count the engine holds (the RTL's `MaxRounds`).
pub const MAX_ROUNDS: u32 = 128;

/// The most hashes [`EngineConfig::simulate`] runs (about 40 cycles each, simulated one by one).
pub const MAX_SIMULATED_HASHES: u64 = 1 << 20;

/// A Poseidon instance as the engine sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoseidonShape {
    /// State width `t` (arity + 1).
    pub width: u32,
    /// S-box exponent: 3, 5 or 7.
    pub alpha: u32,
    /// Full rounds `R_F` (even).
    pub full_rounds: u32,
    /// Partial rounds `R_P`.
    pub partial_rounds: u32,
}

impl PoseidonShape {
    /// FileCoin's configuration for `arity` as the paper ran it: BLS12-381 Fr, `α = 5`,
    /// `R_F = 8` and Ingonyama's partial rounds, 56 / 56 / 57 / 57 for `t` = 3 / 5 / 9 / 12
    /// (notes §C.2 M3; neptune uses 55 for `t = 3`).
    ///
    /// # Errors
    /// [`crate::ModelError::Invalid`] for an arity other than 2, 4, 8, 11.
    pub fn filecoin(arity: u32) -> Result<Self, AcclmtModelError> {
        let partial_rounds = match arity {
            2 | 4 => 56,
            8 | 11 => 57,
            _ => {
                return Err(invalid(
                    "arity",
                    f64::from(arity),
                    "FileCoin's arities are 2, 4, 8 and 11",
                ))
            }
        };
        Ok(Self {
            width: arity + 1,
            alpha: 5,
            full_rounds: 8,
            partial_rounds,
        })
    }

    /// Total rounds `R_F + R_P`.
    pub fn rounds(&self) -> u32 {
        self.full_rounds + self.partial_rounds
    }

    /// Beats of a full round on a sub-engine, `k²` with `k = ⌈t/3⌉` (a dense layer in 3 × 3
    /// tiles; `hw/acclmt/rtl/acclmt_engine.sv`).
    pub fn full_round_beats(&self) -> u32 {
        let k = self.width.div_ceil(3);
        k * k
    }

    /// Beats of a partial round, `⌈(t − 1)/2⌉` (the sparse layer, two lanes per beat beside
    /// lane 0).
    pub fn partial_round_beats(&self) -> u32 {
        self.width / 2
    }

    /// Slots (beat passes over a batch) per pair of batches: the FR sub-engine's in the
    /// two-batch schedule (`2·R_F` full rounds and `R_P − R_F/2` partial rounds; it bounds the
    /// period), or one baseline engine's (a batch's `R_F + R_P` rounds).
    fn slots_per_pair(&self, baseline: bool) -> u64 {
        let (f, p) = (
            u64::from(self.full_round_beats()),
            u64::from(self.partial_round_beats()),
        );
        let (rf, rp) = (u64::from(self.full_rounds), u64::from(self.partial_rounds));
        if baseline {
            rf * f + rp * p
        } else {
            2 * rf * f + (rp - rf / 2) * p
        }
    }

    /// Checks the shape against the engine: `t` from 3 to 12, `α` ∈ {3, 5, 7}, `R_F` even and
    /// at least 2, `R_F/2 ≤ R_P`, at most [`MAX_ROUNDS`] rounds.
    ///
    /// # Errors
    /// [`crate::ModelError::OutOfRange`] or [`crate::ModelError::Invalid`] naming the first
    /// violation.
    pub fn validate(&self) -> Result<(), AcclmtModelError> {
        if !(3..=12).contains(&self.width) {
            return Err(out_of_range("state width", self.width.into(), 3.0, 12.0));
        }
        if ![3, 5, 7].contains(&self.alpha) {
            return Err(invalid(
                "S-box exponent",
                self.alpha.into(),
                "must be 3, 5 or 7",
            ));
        }
        if self.full_rounds < 2 || !self.full_rounds.is_multiple_of(2) {
            return Err(invalid(
                "full rounds",
                self.full_rounds.into(),
                "must be even, at least 2",
            ));
        }
        if self.partial_rounds < self.full_rounds / 2 {
            return Err(out_of_range(
                "partial rounds",
                self.partial_rounds.into(),
                (self.full_rounds / 2).into(),
                f64::INFINITY,
            ));
        }
        if self.rounds() > MAX_ROUNDS {
            return Err(out_of_range(
                "rounds",
                self.rounds().into(),
                1.0,
                MAX_ROUNDS.into(),
            ));
        }
        Ok(())
    }
}

/// The engine's parameters (the RTL's, `hw/acclmt/rtl/acclmt_engine.sv`). From JSON, missing
/// fields take the defaults and unknown ones are errors.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EngineConfig {
    /// The wide multiplier's pipeline stages (`MulLatency`); the Montgomery multiplier takes
    /// `3·(MulLatency + 1)` cycles.
    pub mul_latency: u32,
    /// Hashes per batch (a power of two, at least 2).
    pub batch: u32,
    /// Idle cycles after each round of a batch.
    pub slot_gap: u32,
    /// Cycles a sub-engine waits before a batch it takes from the other sub-engine.
    pub handover_gap: u32,
    /// Two FR engines, a batch each (the paper's baseline), instead of the two-batch schedule.
    pub baseline: bool,
    /// Clock in MHz (the paper's 500).
    pub clock_mhz: f64,
}

impl Default for EngineConfig {
    /// The RTL's defaults: `MulLatency 1`, `Batch 32`, `SlotGap 1`, `HandoverGap 9`, 500 MHz.
    fn default() -> Self {
        Self {
            mul_latency: 1,
            batch: 32,
            slot_gap: 1,
            handover_gap: 9,
            baseline: false,
            clock_mhz: 500.0,
        }
    }
}

/// A pair of batches' times from its start ([`EngineConfig::pair_phases`]): when batch B's
/// first round starts (it may be closed until then), when batch A's last round has issued,
/// and the whole pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PairPhases {
    pub(crate) b_starts: u64,
    pub(crate) a_done: u64,
    pub(crate) cycles: u64,
}

/// One streamed run of the engine (full rate: a state offered every cycle, every result taken
/// at once), as the RTL bench measures it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EngineRun {
    /// Hashes streamed.
    pub hashes: u64,
    /// Cycles from the first state accepted to the last result taken, inclusive.
    pub cycles: u64,
    /// Steady-state cycles per hash between the ends of the first and the last whole pair of
    /// batches (0 with fewer than two whole pairs), the bench's `cycles_per_hash`.
    pub cycles_per_hash: f64,
    /// FR and PR (or the two baseline engines') busy issue cycles over `cycles`.
    pub utilisation: [f64; 2],
}

impl EngineConfig {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`crate::ModelError::OutOfRange`] or [`crate::ModelError::Invalid`] naming the first
    /// violation.
    pub fn validate(&self) -> Result<(), AcclmtModelError> {
        if self.mul_latency > 16 {
            return Err(out_of_range(
                "multiplier latency",
                self.mul_latency.into(),
                0.0,
                16.0,
            ));
        }
        if self.batch < 2 || !self.batch.is_power_of_two() || self.batch > 1024 {
            return Err(invalid(
                "batch",
                self.batch.into(),
                "must be a power of two, 2 to 1024",
            ));
        }
        for (name, gap) in [
            ("slot gap", self.slot_gap),
            ("handover gap", self.handover_gap),
        ] {
            if gap > 255 {
                return Err(out_of_range(name, gap.into(), 0.0, 255.0));
            }
        }
        if !(self.clock_mhz.is_finite() && self.clock_mhz > 0.0 && self.clock_mhz <= 1e5) {
            return Err(invalid(
                "clock_mhz",
                self.clock_mhz,
                "must be above 0, at most 10^5",
            ));
        }
        Ok(())
    }

    /// The Montgomery multiplier's latency, `3·(MulLatency + 1)`.
    pub fn montgomery_latency(&self) -> u64 {
        3 * (u64::from(self.mul_latency) + 1)
    }

    /// A round's latency through a sub-engine, `4·Lm + 4`: the round constants (1), a thread
    /// (S-box `3·Lm + 1`, an MDS product `Lm`), the adder tree (2).
    pub fn round_latency(&self) -> u64 {
        4 * self.montgomery_latency() + 4
    }

    /// Cycles one sub-engine spends on one round of a full batch, `B·ii + SlotGap` (`ii` 2 for
    /// `α = 7`, whose issue gap and slot gap overlap in the RTL: the slot gap replaces the
    /// last issue's).
    fn slot_cycles(&self, shape: &PoseidonShape) -> u64 {
        self.slot_cycles_of(shape, u64::from(self.batch))
    }

    /// [`EngineConfig::slot_cycles`] for a batch of `b ≥ 1` hashes.
    fn slot_cycles_of(&self, shape: &PoseidonShape, b: u64) -> u64 {
        let gap = u64::from(self.slot_gap);
        if shape.alpha == 7 {
            2 * (b - 1) + 1 + gap.max(1)
        } else {
            b + gap
        }
    }

    /// Steady-state cycles per pair of full batches, once the pipeline is full and when rounds
    /// never wait for their data (`B + SlotGap ≥ round latency + 2`): the FR sub-engine's
    /// slots plus two handovers, or the baseline's (at `t = 3`, where every round is one beat,
    /// `R_P + 1.5·R_F` and `R_F + R_P` slots).
    ///
    /// # Errors
    /// As [`EngineConfig::validate`] and [`PoseidonShape::validate`].
    pub fn steady_cycles_per_pair(&self, shape: &PoseidonShape) -> Result<u64, AcclmtModelError> {
        self.validate()?;
        shape.validate()?;
        let slot = self.slot_cycles(shape);
        let handovers = if self.baseline {
            0
        } else {
            2 * u64::from(self.handover_gap)
        };
        Ok(shape.slots_per_pair(self.baseline) * slot + handovers)
    }

    /// Cycles the engine spends on a pair of batches of `a ≥ 1` and `b ≥ 0` hashes (at most a
    /// batch each; `b = 0`: one batch alone) in the two-batch schedule: the FR sub-engine's
    /// slots and handovers, or batch A's chain through both sub-engines if longer. A beat pass
    /// of `n` hashes takes `n + SlotGap` cycles, and a round's last at least
    /// `round latency + 2`: a partial batch's next round waits for its first hash's result.
    /// For full batches this is [`EngineConfig::steady_cycles_per_pair`]. The baseline runs
    /// the two batches side by side on its two FR engines.
    pub fn pair_cycles(&self, shape: &PoseidonShape, a: u64, b: u64) -> u64 {
        self.pair_phases(shape, a, b).cycles
    }

    /// [`EngineConfig::pair_cycles`] with the pair's inner times, from its start.
    pub(crate) fn pair_phases(&self, shape: &PoseidonShape, a: u64, b: u64) -> PairPhases {
        let floor = self.round_latency() + 2;
        // A round of `beats` passes over `n` hashes.
        let round = |n: u64, beats: u64| {
            if n == 0 {
                0
            } else {
                let pass = self.slot_cycles_of(shape, n);
                (beats - 1) * pass + pass.max(floor)
            }
        };
        let (f, p) = (
            u64::from(shape.full_round_beats()),
            u64::from(shape.partial_round_beats()),
        );
        let (rf, rp) = (
            u64::from(shape.full_rounds),
            u64::from(shape.partial_rounds),
        );
        let h = rf / 2;
        if self.baseline {
            let n = a.max(b);
            let cycles = rf * round(n, f) + rp * round(n, p);
            return PairPhases {
                b_starts: 0,
                a_done: cycles,
                cycles,
            };
        }
        let handovers = 2 * u64::from(self.handover_gap);
        let fr = rf * round(a, f) + rf * round(b, f) + (rp - h) * round(b, p) + handovers;
        let chain_a = rf * round(a, f) + rp * round(a, p) + h * round(b, f) + handovers;
        let cycles = fr.max(chain_a);
        PairPhases {
            b_starts: h * round(a, f),
            a_done: cycles - h * round(b, f),
            cycles,
        }
    }

    /// Streams `hashes` states through the engine at full rate, cycle by cycle, as the RTL
    /// does.
    ///
    /// # Errors
    /// As [`EngineConfig::validate`] and [`PoseidonShape::validate`];
    /// [`crate::ModelError::OutOfRange`] for no hashes or more than [`MAX_SIMULATED_HASHES`].
    pub fn simulate(
        &self,
        shape: &PoseidonShape,
        hashes: u64,
    ) -> Result<EngineRun, AcclmtModelError> {
        self.validate()?;
        shape.validate()?;
        if hashes == 0 || hashes > MAX_SIMULATED_HASHES {
            return Err(out_of_range(
                "hashes",
                hashes as f64,
                1.0,
                MAX_SIMULATED_HASHES as f64,
            ));
        }
        Ok(engine_sim::run(self, shape, hashes))
    }

    /// Hashes per second at the clock, from a cycles-per-hash figure.
    pub fn hashes_per_second(&self, cycles_per_hash: f64) -> f64 {
        self.clock_mhz * 1e6 / cycles_per_hash
    }
}

mod engine_sim;
mod report;
mod sweep;
pub mod trace;
mod tree;
mod tree_sim;

pub use report::{AcclmtTables, EngineStream, RtlTreeBuild, TimeLoss, TreeBuild};
pub use sweep::{
    Acclmt, AcclmtSweep, AcclmtSweepBase, AcclmtSweepPoint, AcclmtSweepResult, ACCLMT_SWEEP_KNOBS,
    MAX_ACCLMT_SWEEP_POINTS,
};
pub use tree_sim::{ControllerRtl, TreeSimRun, MAX_SIMULATED_TREE_CYCLES};

pub use tree::{
    table_ii, ControllerConfig, TableIIModel, TableIIRow, TreeGeometry, TreeRun,
    DDR4_CHANNEL_GB_PER_S, FITTED_BANDWIDTH_GB_PER_S, FITTED_INITIAL_LOAD_NS,
    FITTED_RHE_DISPATCH_CYCLES, MAX_ARITY, MAX_SIMULATED_BATCHES, PAPER_UTILISATION, TABLE_II,
};

/// One row of Table I: the paper's rate for an arity (500 MHz, FileCoin's configuration).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TableIRow {
    /// Tree arity (state width arity + 1).
    pub arity: u32,
    /// The paper's hashes per second.
    pub paper_hashes_per_second: f64,
    /// NEPTUNE's CPU rate the paper quotes (i7-13700F), hashes per second.
    pub paper_neptune_hashes_per_second: f64,
}

/// Table I's AcclMT column and its NEPTUNE column.
pub const TABLE_I: [TableIRow; 4] = [
    TableIRow {
        arity: 2,
        paper_hashes_per_second: 14.11e6,
        paper_neptune_hashes_per_second: 97.00e3,
    },
    TableIRow {
        arity: 4,
        paper_hashes_per_second: 5.93e6,
        paper_neptune_hashes_per_second: 57.67e3,
    },
    TableIRow {
        arity: 8,
        paper_hashes_per_second: 3.79e6,
        paper_neptune_hashes_per_second: 30.29e3,
    },
    TableIRow {
        arity: 11,
        paper_hashes_per_second: 2.69e6,
        paper_neptune_hashes_per_second: 20.96e3,
    },
];

/// The per-slot cost of a state of `k = ⌈t/3⌉` three-lane chunks relative to `t = 3`, the
/// notes' calibration `g(k) = 1 + 1.37·(k − 1)` (§C.2 M5: Table I's rows 2–4 within
/// −1.2 … +1.9 %). The paper gives no beat-level schedule for `t > 3` ("block processing for
/// input and output"); this factor is a fit to its figures. Our RTL's own schedule (k² beats
/// per full round, ⌈(t − 1)/2⌉ per partial round) is [`TableIModel::rtl_cycles_per_hash`].
pub fn chunk_factor(width: u32) -> f64 {
    let k = f64::from(width.div_ceil(3));
    1.0 + 1.37 * (k - 1.0)
}

/// A modelled Table I row.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TableIModel {
    /// The paper's row.
    pub row: TableIRow,
    /// The Poseidon instance (FileCoin's).
    pub shape: PoseidonShape,
    /// Modelled cycles per hash (exact at `t = 3`, calibrated above).
    pub cycles_per_hash: f64,
    /// Modelled hashes per second at the engine's clock.
    pub hashes_per_second: f64,
    /// Relative error against the paper, in percent.
    pub error_percent: f64,
    /// Whether the figure comes from the cycle-level schedule (`t = 3`) or the calibrated chunk
    /// factor.
    pub calibrated: bool,
    /// Steady-state cycles per hash of this repository's engine (`hw/acclmt`) at the row's
    /// width: its beat schedule, equal to the RTL's measured figure.
    pub rtl_cycles_per_hash: f64,
}

/// Table I modelled for `config`: `t = 3` from the steady-state schedule, wider states scaled
/// by [`chunk_factor`].
///
/// # Errors
/// As [`EngineConfig::steady_cycles_per_pair`].
pub fn table_i(config: &EngineConfig) -> Result<Vec<TableIModel>, AcclmtModelError> {
    TABLE_I
        .iter()
        .map(|row| {
            let shape = PoseidonShape::filecoin(row.arity)?;
            let base = PoseidonShape { width: 3, ..shape };
            let per_pair = config.steady_cycles_per_pair(&base)? as f64;
            let cycles_per_hash =
                per_pair / (2.0 * f64::from(config.batch)) * chunk_factor(shape.width);
            let hashes_per_second = config.hashes_per_second(cycles_per_hash);
            let rtl_cycles_per_hash =
                config.steady_cycles_per_pair(&shape)? as f64 / (2.0 * f64::from(config.batch));
            Ok(TableIModel {
                row: *row,
                shape,
                cycles_per_hash,
                hashes_per_second,
                error_percent: 100.0 * (hashes_per_second / row.paper_hashes_per_second - 1.0),
                calibrated: shape.width > 3,
                rtl_cycles_per_hash,
            })
        })
        .collect()
}

/// The two-batch schedule's time loss against the two-FR baseline, in percent, for `shape`:
/// steady-state cycles per pair of the two designs.
///
/// # Errors
/// As [`EngineConfig::steady_cycles_per_pair`].
pub fn time_loss_percent(
    config: &EngineConfig,
    shape: &PoseidonShape,
) -> Result<f64, AcclmtModelError> {
    let ours = config.steady_cycles_per_pair(shape)? as f64;
    let baseline = EngineConfig {
        baseline: true,
        ..*config
    }
    .steady_cycles_per_pair(shape)? as f64;
    Ok(100.0 * (ours / baseline - 1.0))
}

/// The paper's time-loss claims: the average over FileCoin's four configurations, and
/// `R_F = 8, R_P = 120`.
pub const PAPER_TIME_LOSS: (f64, f64) = (7.04, 3.55);

/// The time loss averaged over FileCoin's four configurations at `t = 3` schedule slots (the
/// paper's claim compares schedules, so the state width only scales both designs alike), and at
/// `R_F = 8, R_P = 120`.
///
/// # Errors
/// As [`EngineConfig::steady_cycles_per_pair`].
pub fn paper_time_losses(config: &EngineConfig) -> Result<(f64, f64), AcclmtModelError> {
    let mut sum = 0.0;
    for row in &TABLE_I {
        let shape = PoseidonShape {
            width: 3,
            ..PoseidonShape::filecoin(row.arity)?
        };
        sum += time_loss_percent(config, &shape)?;
    }
    let long = PoseidonShape {
        width: 3,
        alpha: 5,
        full_rounds: 8,
        partial_rounds: 120,
    };
    Ok((
        sum / TABLE_I.len() as f64,
        time_loss_percent(config, &long)?,
    ))
}

#[cfg(test)]
mod tests;
