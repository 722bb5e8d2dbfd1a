//! Design-space sweeps of the Merkle controller: one knob over a list of values, the rest of
//! the configuration fixed, each point's tree time and engine utilisation beside its speedup
//! over the base configuration.

use serde::{Deserialize, Serialize};

use super::{ControllerConfig, PoseidonShape, TreeRun};
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

/// Most values one sweep may take.
pub const MAX_ACCLMT_SWEEP_POINTS: usize = 32;

/// One configuration of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AcclmtSweepPoint {
    /// The knob's value, as given.
    pub value: String,
    /// The configuration.
    pub config: ControllerConfig,
    /// The modelled build.
    pub run: TreeRun,
    /// The base configuration's time over this one's (> 1: faster).
    pub speedup: f64,
}

/// A knob swept over values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AcclmtSweep {
    /// The knob.
    pub knob: String,
    /// The base configuration.
    pub base: ControllerConfig,
    /// The base tree's leaves.
    pub base_leaves: u64,
    /// The points, in the order given.
    pub points: Vec<AcclmtSweepPoint>,
}

fn parse<T: std::str::FromStr>(knob: &str, value: &str) -> Result<T, ModelError> {
    value.trim().parse().map_err(|_| ModelError::NotANumber {
        name: knob.to_owned(),
        value: crate::error::shown(value, 40),
        expected: "a number of its kind",
    })
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
            "batch" => c.engine.batch = parse(knob, value)?,
            "mul_latency" => c.engine.mul_latency = parse(knob, value)?,
            "slot_gap" => c.engine.slot_gap = parse(knob, value)?,
            "handover_gap" => c.engine.handover_gap = parse(knob, value)?,
            "clock_mhz" => c.engine.clock_mhz = parse(knob, value)?,
            "bandwidth_gbps" => c.bandwidth_gb_per_s = parse(knob, value)?,
            "subtree_leaves" => c.subtree_leaves = parse(knob, value)?,
            "scratch_pad_nodes" => c.major_min_nodes = parse(knob, value)?,
            "level0_subtrees" => c.level0_subtrees = parse(knob, value)?,
            "initial_load_ns" => c.initial_load_ns = parse(knob, value)?,
            "rhe_dispatch_cycles" => c.rhe_dispatch_cycles = parse(knob, value)?,
            "leaves" => leaves = parse(knob, value)?,
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
            other => {
                return Err(ModelError::Unknown {
                    what: "knob",
                    name: crate::error::shown(other, 40),
                    known: crate::Names(&ACCLMT_SWEEP_KNOBS),
                })
            }
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
        if values.is_empty() || values.len() > MAX_ACCLMT_SWEEP_POINTS {
            return Err(ModelError::SweepPoints {
                knob: crate::error::shown(knob, 40),
                got: values.len(),
                max: MAX_ACCLMT_SWEEP_POINTS,
            });
        }
        let shape = PoseidonShape::filecoin(2)?;
        let base = self.build(&shape, leaves)?;
        let points = values
            .iter()
            .map(|value| {
                let (config, n) = self.with_knob(leaves, knob, value)?;
                let run = config.build(&shape, n)?;
                Ok(AcclmtSweepPoint {
                    value: value.trim().to_owned(),
                    config,
                    speedup: base.milliseconds / run.milliseconds,
                    run,
                })
            })
            .collect::<Result<_, ModelError>>()?;
        Ok(AcclmtSweep {
            knob: knob.to_owned(),
            base: *self,
            base_leaves: leaves,
            points,
        })
    }
}

impl AcclmtSweep {
    /// The sweep as CSV: the knob's value, the configuration, the tree, cycles, ms, the
    /// engines' utilisation (busy over the active window and the whole build, LHE occupied) and the
    /// speedup.
    pub fn to_csv(&self) -> String {
        let mut out = format!(
            "{},batch,mul_latency,slot_gap,handover_gap,clock_mhz,bandwidth_gbps,subtree_leaves,scratch_pad_nodes,level0_subtrees,initial_load_ns,rhe_dispatch_cycles,merger,leaves,cycles,ms,lhe_active,rhe_active,lhe_total,rhe_total,lhe_occupied,speedup\n",
            self.knob
        );
        for p in &self.points {
            let (c, r) = (&p.config, &p.run);
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6}\n",
                p.value,
                c.engine.batch,
                c.engine.mul_latency,
                c.engine.slot_gap,
                c.engine.handover_gap,
                c.engine.clock_mhz,
                c.bandwidth_gb_per_s,
                c.subtree_leaves,
                c.major_min_nodes,
                c.level0_subtrees,
                c.initial_load_ns,
                c.rhe_dispatch_cycles,
                if c.merger { "on" } else { "off" },
                r.leaves,
                r.cycles,
                r.milliseconds,
                r.utilisation_active[0],
                r.utilisation_active[1],
                r.utilisation_total[0],
                r.utilisation_total[1],
                r.utilisation_occupied[0],
                p.speedup
            ));
        }
        out
    }
}

impl std::fmt::Display for AcclmtSweep {
    /// The knob and the base tree, then each point's build, utilisation and speedup.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} (base: {} leaves)", self.knob, self.base_leaves)?;
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
