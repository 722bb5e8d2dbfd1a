//! Design-space sweeps of the Merkle controller: one knob over a list of values, the rest of
//! the configuration fixed, each point's tree time and engine utilisation beside its speedup
//! over the base configuration.

use serde::{Deserialize, Serialize};

use super::{ControllerConfig, PoseidonShape, TreeRun};
use crate::sweep::{parse_value, unknown_knob, SweepChart, SweepModel};
use crate::ModelError;

/// The knobs [`ControllerConfig::sweep`] takes.
pub const ACCLMT_SWEEP_KNOBS: [&str; 13] = [
    "batch",
    "mul_latency",
    "slot_gap",
    "handover_gap",
    "clock_mhz",
    "bandwidth_gbps",
    "subtree_leaves",
    "scratch_pad_nodes",
    "level0_subtrees",
    "initial_load_ns",
    "rhe_dispatch_cycles",
    "merger",
    "leaves",
];

/// Most values one sweep may take (each builds a tree).
pub const MAX_ACCLMT_SWEEP_POINTS: usize = 32;

/// The AcclMT Merkle controller's model as a sweep runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acclmt {}

/// A knob of the Merkle controller swept over values.
pub type AcclmtSweep = crate::sweep::Sweep<Acclmt>;
/// One point of an AcclMT sweep.
pub type AcclmtSweepPoint = crate::sweep::SweepPoint<AcclmtSweepResult>;

/// A sweep's base: the controller and its tree.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AcclmtSweepBase {
    /// The base configuration.
    pub config: ControllerConfig,
    /// The base tree's leaves.
    pub leaves: u64,
}

/// The model's answer for one configuration of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AcclmtSweepResult {
    /// The configuration.
    pub config: ControllerConfig,
    /// The modelled build.
    pub run: TreeRun,
    /// The base configuration's time over this one's (> 1: faster).
    pub speedup: f64,
}

/// One point as a CSV row.
#[derive(Serialize)]
pub struct AcclmtSweepRow<'a> {
    value: &'a str,
    batch: u32,
    mul_latency: u32,
    slot_gap: u32,
    handover_gap: u32,
    clock_mhz: f64,
    bandwidth_gbps: f64,
    subtree_leaves: u64,
    scratch_pad_nodes: u64,
    level0_subtrees: u64,
    initial_load_ns: f64,
    rhe_dispatch_cycles: u64,
    merger: &'static str,
    leaves: u64,
    cycles: u64,
    ms: f64,
    lhe_active: f64,
    rhe_active: f64,
    lhe_total: f64,
    rhe_total: f64,
    lhe_occupied: f64,
    speedup: f64,
}

impl SweepModel for Acclmt {
    const NAME: &'static str = "acclmt";
    const LABEL: &'static str = "AcclMT";
    const FILE_STEM: &'static str = "acclmt-sweep";
    const KNOBS: &'static [&'static str] = &ACCLMT_SWEEP_KNOBS;
    const MAX_POINTS: usize = MAX_ACCLMT_SWEEP_POINTS;
    type Base = AcclmtSweepBase;
    type Point = AcclmtSweepResult;
    type Row<'a> = AcclmtSweepRow<'a>;

    fn row<'a>(value: &'a str, p: &'a AcclmtSweepResult) -> AcclmtSweepRow<'a> {
        let (c, r) = (&p.config, &p.run);
        AcclmtSweepRow {
            value,
            batch: c.engine.batch,
            mul_latency: c.engine.mul_latency,
            slot_gap: c.engine.slot_gap,
            handover_gap: c.engine.handover_gap,
            clock_mhz: c.engine.clock_mhz,
            bandwidth_gbps: c.bandwidth_gb_per_s,
            subtree_leaves: c.subtree_leaves,
            scratch_pad_nodes: c.major_min_nodes,
            level0_subtrees: c.level0_subtrees,
            initial_load_ns: c.initial_load_ns,
            rhe_dispatch_cycles: c.rhe_dispatch_cycles,
            merger: if c.merger { "on" } else { "off" },
            leaves: r.leaves,
            cycles: r.cycles,
            ms: r.milliseconds,
            lhe_active: r.utilisation_active[0],
            rhe_active: r.utilisation_active[1],
            lhe_total: r.utilisation_total[0],
            rhe_total: r.utilisation_total[1],
            lhe_occupied: r.utilisation_occupied[0],
            speedup: p.speedup,
        }
    }

    /// The speedup over the base and both engines' utilisation (active windows).
    fn chart(sweep: &AcclmtSweep) -> SweepChart {
        SweepChart {
            title: format!(
                "AcclMT controller model: {} leaves vs {}",
                sweep.base.leaves, sweep.knob
            ),
            x_desc: sweep.knob.clone(),
            y_desc: "speedup (×), utilisation (fraction)".to_owned(),
            labels: sweep.labels(),
            series: vec![
                sweep.series("speedup", |p| p.speedup),
                sweep.series("LHE utilisation", |p| p.run.utilisation_active[0]),
                sweep.series("RHE utilisation", |p| p.run.utilisation_active[1]),
            ],
        }
    }
}

impl ControllerConfig {
    /// This configuration building a tree of `leaves` leaves with `knob` set to `value`.
    ///
    /// # Errors
    /// [`ModelError::Unknown`] for an unknown knob, [`ModelError::NotANumber`] for a value that
    /// does not parse, or the configuration's errors for one out of range.
    pub fn with_knob(
        &self,
        leaves: u64,
        knob: &str,
        value: &str,
    ) -> Result<(Self, u64), ModelError> {
        let mut c = *self;
        let mut leaves = leaves;
        match knob {
            "batch" => c.engine.batch = parse_value(knob, value)?,
            "mul_latency" => c.engine.mul_latency = parse_value(knob, value)?,
            "slot_gap" => c.engine.slot_gap = parse_value(knob, value)?,
            "handover_gap" => c.engine.handover_gap = parse_value(knob, value)?,
            "clock_mhz" => c.engine.clock_mhz = parse_value(knob, value)?,
            "bandwidth_gbps" => c.bandwidth_gb_per_s = parse_value(knob, value)?,
            "subtree_leaves" => c.subtree_leaves = parse_value(knob, value)?,
            "scratch_pad_nodes" => c.major_min_nodes = parse_value(knob, value)?,
            "level0_subtrees" => c.level0_subtrees = parse_value(knob, value)?,
            "initial_load_ns" => c.initial_load_ns = parse_value(knob, value)?,
            "rhe_dispatch_cycles" => c.rhe_dispatch_cycles = parse_value(knob, value)?,
            "leaves" => leaves = parse_value(knob, value)?,
            "merger" => {
                c.merger = match value.trim() {
                    "on" => true,
                    "off" => false,
                    other => {
                        return Err(ModelError::NotANumber {
                            name: "merger".into(),
                            value: crate::error::shown(other, 40),
                            expected: "on or off",
                        })
                    }
                }
            }
            other => return Err(unknown_knob::<Acclmt>(other)),
        }
        c.validate()?;
        Ok((c, leaves))
    }

    /// A binary tree of `leaves` leaves (FileCoin's arity-2 instance) built once per value of
    /// `knob`, the rest as `self`.
    ///
    /// # Errors
    /// As [`ControllerConfig::with_knob`]; [`ModelError::SweepPoints`] for no or more than
    /// [`MAX_ACCLMT_SWEEP_POINTS`] values; [`ControllerConfig::build`]'s errors.
    pub fn sweep(
        &self,
        leaves: u64,
        knob: &str,
        values: &[String],
    ) -> Result<AcclmtSweep, ModelError> {
        let shape = PoseidonShape::filecoin(2)?;
        let base = AcclmtSweepBase {
            config: *self,
            leaves,
        };
        let mut base_ms = None;
        AcclmtSweep::run(knob, base, values, |value| {
            let base_ms = match base_ms {
                Some(ms) => ms,
                None => *base_ms.insert(self.build(&shape, leaves)?.milliseconds),
            };
            let (config, n) = self.with_knob(leaves, knob, value)?;
            let run = config.build(&shape, n)?;
            Ok(AcclmtSweepResult {
                config,
                speedup: base_ms / run.milliseconds,
                run,
            })
        })
    }
}

impl std::fmt::Display for AcclmtSweep {
    /// The knob and the base tree, then each point's build, utilisation and speedup.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} (base: {} leaves)", self.knob, self.base.leaves)?;
        for p in &self.points {
            writeln!(
                f,
                "  {:>9}: {:>11} cycles {:>10.3} ms  LHE {:>5.1} %  RHE {:>5.1} %  speedup {:.3}×",
                p.value,
                p.run.cycles,
                p.run.milliseconds,
                100.0 * p.run.utilisation_active[0],
                100.0 * p.run.utilisation_active[1],
                p.speedup
            )?;
        }
        Ok(())
    }
}
