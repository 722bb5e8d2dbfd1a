//! Design-space sweeps of the NTT core: one knob over a list of values, the rest of the
//! configuration fixed, each point's core time beside its size (wide multipliers: one per
//! round unit, `P·m`, in the paper's cores; three in the fully pipelined one) and both
//! normalised to the base configuration.

use serde::{Deserialize, Serialize};

use super::{CoreKind, NttCoreConfig};
use crate::sweep::{parse_value, unknown_knob, SweepChart, SweepModel};
use crate::{ModelError, Names};

/// The knobs [`NttCoreConfig::sweep`] takes.
pub const NTT_SWEEP_KNOBS: [&str; 7] = [
    "log_points",
    "pipelines",
    "mul_latency",
    "width",
    "clock_mhz",
    "points",
    "core",
];

/// Most values one sweep may take.
pub const MAX_NTT_SWEEP_POINTS: usize = crate::sweep::MAX_SWEEP_POINTS;

/// The FPGA NTT core's model as a sweep runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NttFpga {}

/// A knob of the NTT core's model swept over values.
pub type NttSweep = crate::sweep::Sweep<NttFpga>;
/// One point of an NTT core sweep.
pub type NttSweepPoint = crate::sweep::SweepPoint<NttSweepResult>;

/// A sweep's base: the core and its task.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct NttSweepBase {
    /// The base configuration.
    pub config: NttCoreConfig,
    /// The base task size in points.
    pub points: u64,
}

/// The model's answer for one configuration of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NttSweepResult {
    /// The configuration.
    pub config: NttCoreConfig,
    /// The task size in points.
    pub points: u64,
    /// Core cycles of the task.
    pub cycles: u64,
    /// Core microseconds of the task at the configuration's clock.
    pub us: f64,
    /// Wide multipliers: `P·m` in the paper's cores (one shared per round unit), `3·P·m` in
    /// the fully pipelined one (three per Montgomery unit).
    pub multipliers: u32,
    /// The base configuration's time over this one's (> 1: faster).
    pub speedup: f64,
    /// Multipliers × time over the base's (< 1: more work per multiplier and second).
    pub relative_area_time: f64,
}

/// One point as a CSV row.
#[derive(Serialize)]
pub struct NttSweepRow<'a> {
    value: &'a str,
    width: u32,
    log_points: u32,
    pipelines: u32,
    mul_latency: u32,
    core: &'static str,
    clock_mhz: f64,
    points: u64,
    cycles: u64,
    us: f64,
    multipliers: u32,
    speedup: f64,
    relative_area_time: f64,
}

impl SweepModel for NttFpga {
    const NAME: &'static str = "ntt-fpga";
    const LABEL: &'static str = "FPGA NTT";
    const FILE_STEM: &'static str = "ntt-sweep";
    const KNOBS: &'static [&'static str] = &NTT_SWEEP_KNOBS;
    const MAX_POINTS: usize = MAX_NTT_SWEEP_POINTS;
    type Base = NttSweepBase;
    type Point = NttSweepResult;
    type Row<'a> = NttSweepRow<'a>;

    fn row<'a>(value: &'a str, p: &'a NttSweepResult) -> NttSweepRow<'a> {
        let c = &p.config;
        NttSweepRow {
            value,
            width: c.width_bits,
            log_points: c.log_points,
            pipelines: c.pipelines,
            mul_latency: c.mul_latency,
            core: c.kind.name(),
            clock_mhz: c.clock_mhz,
            points: p.points,
            cycles: p.cycles,
            us: p.us,
            multipliers: p.multipliers,
            speedup: p.speedup,
            relative_area_time: p.relative_area_time,
        }
    }

    /// The speedup and multipliers × time over the base.
    fn chart(sweep: &NttSweep) -> SweepChart {
        SweepChart {
            title: format!("FPGA NTT core model: against the base, vs {}", sweep.knob),
            x_desc: sweep.knob.clone(),
            y_desc: "relative to the base (×)".to_owned(),
            labels: sweep.labels(),
            series: vec![
                sweep.series("speedup", |p| p.speedup),
                sweep.series("wide multipliers × time", |p| p.relative_area_time),
            ],
        }
    }
}

impl NttCoreConfig {
    /// This configuration on a `points`-point task with `knob` set to `value`.
    ///
    /// # Errors
    /// [`ModelError::Unknown`] for an unknown knob, [`ModelError::NotANumber`] for a value that does not parse; the
    /// configuration's own errors for one out of range.
    pub fn with_knob(
        &self,
        points: u64,
        knob: &str,
        value: &str,
    ) -> Result<(Self, u64), ModelError> {
        let mut config = *self;
        let mut points = points;
        match knob {
            "log_points" => config.log_points = parse_value(knob, value)?,
            "pipelines" => config.pipelines = parse_value(knob, value)?,
            "mul_latency" => config.mul_latency = parse_value(knob, value)?,
            "width" => config.width_bits = parse_value(knob, value)?,
            "clock_mhz" => config.clock_mhz = parse_value(knob, value)?,
            "points" => points = parse_value(knob, value)?,
            "core" => {
                config.kind = match value.trim() {
                    "ours" => CoreKind::Overlapped,
                    "pipezk" => CoreKind::PipeZkReplica,
                    "pipelined" => CoreKind::FullyPipelined,
                    other => {
                        return Err(ModelError::Unknown {
                            what: "core",
                            name: crate::error::shown(other, 40),
                            known: Names(&["ours", "pipezk", "pipelined"]),
                        })
                    }
                }
            }
            other => return Err(unknown_knob::<NttFpga>(other)),
        }
        config.validate()?;
        Ok((config, points))
    }

    /// The core on a `points`-point task once per value of `knob`, the rest as `self`.
    ///
    /// # Errors
    /// As [`NttCoreConfig::with_knob`]; [`ModelError::SweepPoints`] for no or more than
    /// [`MAX_NTT_SWEEP_POINTS`] values; the configuration's and the task's own errors.
    pub fn sweep(
        &self,
        points: u64,
        knob: &str,
        values: &[String],
    ) -> Result<NttSweep, ModelError> {
        let units = |c: &Self| {
            let per_unit = if c.kind == CoreKind::FullyPipelined {
                3
            } else {
                1
            };
            c.pipelines * c.log_points * per_unit
        };
        let base = NttSweepBase {
            config: *self,
            points,
        };
        let mut base_us = None;
        NttSweep::run(knob, base, values, |value| {
            let base_us = match base_us {
                Some(us) => us,
                None => *base_us.insert(self.core_ms(points)? * 1e3),
            };
            let base_area_time = f64::from(units(self)) * base_us;
            let (config, task) = self.with_knob(points, knob, value)?;
            let cycles = config.core_cycles(task)?;
            let us = config.core_ms(task)? * 1e3;
            Ok(NttSweepResult {
                config,
                points: task,
                cycles,
                us,
                multipliers: units(&config),
                speedup: base_us / us,
                relative_area_time: f64::from(units(&config)) * us / base_area_time,
            })
        })
    }
}

impl std::fmt::Display for NttSweep {
    /// The knob and the base task, then each point's cycles, time, size and ratios.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} (base: {} points)", self.knob, self.base.points)?;
        for p in &self.points {
            writeln!(
                f,
                "  {:>9}: {:>9} cycles {:>12.3} µs  {:>4} multipliers  speedup {:.2}×  multipliers×time {:.2}×",
                p.value, p.cycles, p.us, p.multipliers, p.speedup, p.relative_area_time
            )?;
        }
        Ok(())
    }
}
