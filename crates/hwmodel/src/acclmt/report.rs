//! AcclMT's reports, as both front ends print them: [`EngineStream`] (hashes streamed through
//! the engine), [`TreeBuild`] (one tree on the batch-level controller), [`RtlTreeBuild`] (one
//! tree on the RTL controller's cycle-exact model) and [`AcclmtTables`] (Tables I and II beside
//! the paper's). Each is `Serialize` (the CLI's `--json`, Python's dicts) and `Display` (the
//! CLI's text).

use std::fmt;

use serde::Serialize;

use super::{
    paper_time_losses, table_i, table_ii, ControllerConfig, ControllerRtl, EngineConfig, EngineRun,
    PoseidonShape, TableIIModel, TableIModel, TreeGeometry, TreeRun, TreeSimRun, PAPER_TIME_LOSS,
    PAPER_UTILISATION,
};
use crate::ModelError;

/// `hashes` states streamed through the engine at full rate, as the RTL bench runs them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineStream {
    /// The engine.
    pub config: EngineConfig,
    /// The Poseidon instance.
    pub shape: PoseidonShape,
    /// The run.
    pub run: EngineRun,
}

impl EngineStream {
    /// Streams `hashes` states of `shape` through the engine `config`.
    ///
    /// # Errors
    /// As [`EngineConfig::simulate`].
    pub fn new(
        config: EngineConfig,
        shape: PoseidonShape,
        hashes: u64,
    ) -> Result<Self, ModelError> {
        Ok(Self {
            run: config.simulate(&shape, hashes)?,
            config,
            shape,
        })
    }
}

impl fmt::Display for EngineStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "cycles={}", self.run.cycles)?;
        writeln!(f, "cycles_per_hash={:.3}", self.run.cycles_per_hash)
    }
}

/// A tree's LHE and RHE utilisation: busy over their active windows and the whole build, and
/// occupied (busy or held back by the next stage) over the active windows.
fn write_utilisation(
    f: &mut fmt::Formatter<'_>,
    active: [f64; 2],
    total: [f64; 2],
    occupied: [f64; 2],
) -> fmt::Result {
    writeln!(
        f,
        "utilisation_active lhe={:.4} rhe={:.4}",
        active[0], active[1]
    )?;
    writeln!(
        f,
        "utilisation_total lhe={:.4} rhe={:.4}",
        total[0], total[1]
    )?;
    writeln!(
        f,
        "utilisation_occupied lhe={:.4} rhe={:.4}",
        occupied[0], occupied[1]
    )
}

/// One tree built on the batch-level model of the Merkle controller.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeBuild {
    /// The controller.
    pub controller: ControllerConfig,
    /// Its buffers for the tree's arity.
    pub geometry: TreeGeometry,
    /// The Poseidon instance (arity `width − 1`).
    pub shape: PoseidonShape,
    /// The build.
    pub run: TreeRun,
}

impl TreeBuild {
    /// A tree of `leaves` leaves of `shape` on `controller`.
    ///
    /// # Errors
    /// As [`ControllerConfig::geometry`] and [`ControllerConfig::build`].
    pub fn new(
        controller: ControllerConfig,
        shape: PoseidonShape,
        leaves: u64,
    ) -> Result<Self, ModelError> {
        Ok(Self {
            geometry: controller.geometry(shape.width.saturating_sub(1))?,
            run: controller.build(&shape, leaves)?,
            controller,
            shape,
        })
    }
}

impl fmt::Display for TreeBuild {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = &self.geometry;
        writeln!(
            f,
            "arity={} subtree_leaves={} level0_subtrees={} level1_entries={}",
            g.arity, g.subtree_leaves, g.level0_subtrees, g.level1_entries
        )?;
        writeln!(f, "cycles={}", self.run.cycles)?;
        writeln!(f, "milliseconds={:.4}", self.run.milliseconds)?;
        write_utilisation(
            f,
            self.run.utilisation_active,
            self.run.utilisation_total,
            self.run.utilisation_occupied,
        )
    }
}

/// One tree built on the RTL controller's cycle-exact model (its cycles are the RTL's).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RtlTreeBuild {
    /// The controller's Verilog parameters.
    pub controller: ControllerRtl,
    /// The engines.
    pub engine: EngineConfig,
    /// The Poseidon instance (arity `width − 1`).
    pub shape: PoseidonShape,
    /// The tree's depth: `leaves = arity^depth`.
    pub depth: u32,
    /// The build.
    pub run: TreeSimRun,
}

impl RtlTreeBuild {
    /// A tree of `leaves` leaves of `shape` on the RTL controller `controller` describes, its
    /// leaves offered at `bytes_per_cycle` (default: the controller's bandwidth at its clock).
    ///
    /// # Errors
    /// As [`ControllerConfig::rtl`] and [`ControllerConfig::simulate_rtl`].
    pub fn new(
        controller: &ControllerConfig,
        shape: PoseidonShape,
        leaves: u64,
        bytes_per_cycle: Option<f64>,
    ) -> Result<Self, ModelError> {
        let arity = shape.width.saturating_sub(1);
        let run = controller.simulate_rtl(&shape, leaves, bytes_per_cycle)?;
        Ok(Self {
            controller: controller.rtl(arity)?,
            engine: controller.engine,
            shape,
            // simulate_rtl accepted `leaves` as a power of the arity.
            depth: leaves.ilog(u64::from(arity)),
            run,
        })
    }
}

impl fmt::Display for RtlTreeBuild {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.controller;
        writeln!(
            f,
            "arity={} subtree_depth={} major_nodes={} level0_depth={} level1_depth={} depth={}",
            c.arity, c.subtree_depth, c.major_nodes, c.level0_depth, c.level1_depth, self.depth
        )?;
        writeln!(f, "cycles={}", self.run.cycles)?;
        writeln!(
            f,
            "milliseconds={:.4}",
            self.run.cycles as f64 / (self.engine.clock_mhz * 1e3)
        )?;
        writeln!(
            f,
            "hashes lhe={} rhe={}",
            self.run.hashes[0], self.run.hashes[1]
        )?;
        write_utilisation(
            f,
            self.run.utilisation_active,
            self.run.utilisation_total,
            self.run.utilisation_occupied,
        )
    }
}

/// The engine's time loss against two FR engines, in percent: FileCoin's arities averaged, and
/// `R_F = 8, R_P = 120`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TimeLoss {
    /// FileCoin's Table I instances, averaged.
    pub filecoin: f64,
    /// The long instance (`R_F = 8, R_P = 120`).
    pub rf8_rp120: f64,
}

/// Tables I and II modelled beside the paper's, with the time losses and the mean utilisation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcclmtTables {
    /// The controller (its `engine` ran Table I).
    pub controller: ControllerConfig,
    /// Table I: the engine's rate per arity.
    pub table_i: Vec<TableIModel>,
    /// Table II: binary trees of 2^12 … 2^23 leaves.
    pub table_ii: Vec<TableIIModel>,
    /// LHE and RHE busy over their active windows, averaged over Table II.
    pub utilisation_mean_active: [f64; 2],
    /// LHE and RHE busy over the whole build, averaged over Table II.
    pub utilisation_mean_total: [f64; 2],
    /// LHE and RHE occupied over their active windows, averaged over Table II.
    pub utilisation_mean_occupied: [f64; 2],
    /// The paper's mean utilisation (LHE, RHE).
    pub paper_utilisation_mean: [f64; 2],
    /// The paper's RHE utilisation at the largest trees.
    pub paper_rhe_utilisation_largest: f64,
    /// The model's time loss against two FR engines.
    pub time_loss_percent: TimeLoss,
    /// The paper's.
    pub paper_time_loss_percent: TimeLoss,
}

impl AcclmtTables {
    /// Tables I and II on `controller`.
    ///
    /// # Errors
    /// As [`table_i`], [`paper_time_losses`] and [`table_ii`].
    pub fn new(controller: ControllerConfig) -> Result<Self, ModelError> {
        let table_i = table_i(&controller.engine)?;
        let (filecoin, rf8_rp120) = paper_time_losses(&controller.engine)?;
        let table_ii = table_ii(&controller)?;
        let mean = |pick: fn(&TreeRun) -> [f64; 2]| -> [f64; 2] {
            let n = table_ii.len().max(1) as f64;
            std::array::from_fn(|e| table_ii.iter().map(|t| pick(&t.run)[e]).sum::<f64>() / n)
        };
        let (paper_means, paper_rhe_largest) = PAPER_UTILISATION;
        Ok(Self {
            controller,
            table_i,
            utilisation_mean_active: mean(|r| r.utilisation_active),
            utilisation_mean_total: mean(|r| r.utilisation_total),
            utilisation_mean_occupied: mean(|r| r.utilisation_occupied),
            table_ii,
            paper_utilisation_mean: paper_means,
            paper_rhe_utilisation_largest: paper_rhe_largest,
            time_loss_percent: TimeLoss {
                filecoin,
                rf8_rp120,
            },
            paper_time_loss_percent: TimeLoss {
                filecoin: PAPER_TIME_LOSS.0,
                rf8_rp120: PAPER_TIME_LOSS.1,
            },
        })
    }
}

impl fmt::Display for AcclmtTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let config = &self.controller.engine;
        writeln!(
            f,
            "AcclMT Poseidon engine, Table I (FileCoin: BLS12-381 Fr, alpha 5, R_F 8; {} MHz):",
            config.clock_mhz
        )?;
        writeln!(
            f,
            "arity  t  R_P  cycles/hash  model hash/s  paper hash/s  error     source                    RTL cycles/hash  vs paper"
        )?;
        for row in &self.table_i {
            let paper_cycles = config.clock_mhz * 1e6 / row.row.paper_hashes_per_second;
            writeln!(
                f,
                "{:>5} {:>2} {:>4} {:>12.3} {:>12.2}M {:>12.2}M {:>+7.2} %  {:<25} {:>15.3} {:>+8.2} %",
                row.row.arity,
                row.shape.width,
                row.shape.partial_rounds,
                row.cycles_per_hash,
                row.hashes_per_second / 1e6,
                row.row.paper_hashes_per_second / 1e6,
                row.error_percent,
                if row.calibrated {
                    "calibrated chunk factor"
                } else {
                    "schedule = RTL"
                },
                row.rtl_cycles_per_hash,
                100.0 * (row.rtl_cycles_per_hash / paper_cycles - 1.0),
            )?;
        }
        writeln!(
            f,
            "(RTL: hw/acclmt's engine, k² beats per full round and ⌈(t − 1)/2⌉ per partial round, k = ⌈t/3⌉; the paper gives no beat schedule for t > 3)"
        )?;
        let (loss, paper) = (self.time_loss_percent, self.paper_time_loss_percent);
        writeln!(
            f,
            "time loss against two FR engines: FileCoin average {:.3} % (paper {:.2} %), R_F 8 R_P 120 {:.3} % (paper {:.2} %)",
            loss.filecoin, paper.filecoin, loss.rf8_rp120, paper.rf8_rp120
        )?;
        writeln!(f)?;
        let c = &self.controller;
        writeln!(
            f,
            "Merkle controller, Table II (arity 2, {}-leaf subtrees, loader {} GB/s, merger {}):",
            c.subtree_leaves,
            c.bandwidth_gb_per_s,
            if c.merger { "on" } else { "off" }
        )?;
        writeln!(
            f,
            "leaves    model ms   paper ms   error     LHE act  RHE act  LHE tot  RHE tot  LHE occ"
        )?;
        for t in &self.table_ii {
            writeln!(
                f,
                "2^{:<5} {:>10.3} {:>10.2} {:>+7.2} %  {:>6.1} % {:>6.1} % {:>6.1} % {:>6.1} % {:>6.1} %",
                t.leaves.trailing_zeros(),
                t.run.milliseconds,
                t.paper_ms,
                t.error_percent,
                100.0 * t.run.utilisation_active[0],
                100.0 * t.run.utilisation_active[1],
                100.0 * t.run.utilisation_total[0],
                100.0 * t.run.utilisation_total[1],
                100.0 * t.run.utilisation_occupied[0],
            )?;
        }
        writeln!(
            f,
            "(act: busy over the engine's active window; tot: busy over the whole build; occ: busy or held back by the next stage, over the active window — the RHE's equals its act)"
        )?;
        let (active, total, occupied) = (
            self.utilisation_mean_active,
            self.utilisation_mean_total,
            self.utilisation_mean_occupied,
        );
        writeln!(
            f,
            "mean utilisation, busy over the active windows: LHE {:.1} %, RHE {:.1} % (paper {:.1} %); occupied: LHE {:.1} % (paper {:.1} %); busy over the whole build: LHE {:.1} %, RHE {:.1} %; RHE at 2^23 {:.1} % (paper {:.1} %)",
            100.0 * active[0],
            100.0 * active[1],
            100.0 * self.paper_utilisation_mean[1],
            100.0 * occupied[0],
            100.0 * self.paper_utilisation_mean[0],
            100.0 * total[0],
            100.0 * total[1],
            100.0 * self.table_ii.last().map_or(0.0, |t| t.run.utilisation_active[1]),
            100.0 * self.paper_rhe_utilisation_largest,
        )
    }
}
