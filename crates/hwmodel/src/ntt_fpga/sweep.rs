//! Design-space sweeps of the NTT core: one knob over a list of values, the rest of the
//! configuration fixed, each point's core time beside its size (wide multipliers: one per
//! round unit, `P·m`, in the paper's cores; three in the fully pipelined one) and both
//! normalised to the base configuration.

use serde::{Deserialize, Serialize};

use super::{CoreKind, NttCoreConfig};
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
pub const MAX_NTT_SWEEP_POINTS: usize = 64;

/// One configuration of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NttSweepPoint {
    /// The knob's value, as given.
    pub value: String,
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

/// A knob swept over values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NttSweep {
    /// The knob.
    pub knob: String,
    /// The base configuration.
    pub base: NttCoreConfig,
    /// The base task size.
    pub base_points: u64,
    /// The points, in the order given.
    pub points: Vec<NttSweepPoint>,
}

fn parse<T: std::str::FromStr>(knob: &str, value: &str) -> Result<T, ModelError> {
    value.trim().parse().map_err(|_| ModelError::NotANumber {
        name: knob.to_owned(),
        value: crate::error::shown(value, 40),
        expected: "a number of its kind",
    })
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
            "log_points" => config.log_points = parse(knob, value)?,
            "pipelines" => config.pipelines = parse(knob, value)?,
            "mul_latency" => config.mul_latency = parse(knob, value)?,
            "width" => config.width_bits = parse(knob, value)?,
            "clock_mhz" => config.clock_mhz = parse(knob, value)?,
            "points" => points = parse(knob, value)?,
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
            other => {
                return Err(ModelError::Unknown {
                    what: "knob",
                    name: crate::error::shown(other, 40),
                    known: Names(&NTT_SWEEP_KNOBS),
                })
            }
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
        if values.is_empty() || values.len() > MAX_NTT_SWEEP_POINTS {
            return Err(ModelError::SweepPoints {
                knob: crate::error::shown(knob, 40),
                got: values.len(),
                max: MAX_NTT_SWEEP_POINTS,
            });
        }
        let units = |c: &Self| {
            let per_unit = if c.kind == CoreKind::FullyPipelined {
                3
            } else {
                1
            };
            c.pipelines * c.log_points * per_unit
        };
        let base_us = self.core_ms(points)? * 1e3;
        let base_area_time = f64::from(units(self)) * base_us;
        let points_list = values
            .iter()
            .map(|value| {
                let (config, task) = self.with_knob(points, knob, value)?;
                let cycles = config.core_cycles(task)?;
                let us = config.core_ms(task)? * 1e3;
                Ok(NttSweepPoint {
                    value: value.trim().to_owned(),
                    config,
                    points: task,
                    cycles,
                    us,
                    multipliers: units(&config),
                    speedup: base_us / us,
                    relative_area_time: f64::from(units(&config)) * us / base_area_time,
                })
            })
            .collect::<Result<_, ModelError>>()?;
        Ok(NttSweep {
            knob: knob.to_owned(),
            base: *self,
            base_points: points,
            points: points_list,
        })
    }
}

impl NttSweep {
    /// The sweep as CSV: the knob's value, the configuration, the task, cycles, µs,
    /// multipliers, speedup and relative area × time.
    pub fn to_csv(&self) -> String {
        let mut out = format!(
            "{},width,log_points,pipelines,mul_latency,core,clock_mhz,points,cycles,us,multipliers,speedup,relative_area_time\n",
            self.knob
        );
        for p in &self.points {
            let c = &p.config;
            let core = c.kind.name();
            out.push_str(&format!(
                "{},{},{},{},{},{core},{},{},{},{:.3},{},{:.6},{:.6}\n",
                p.value,
                c.width_bits,
                c.log_points,
                c.pipelines,
                c.mul_latency,
                c.clock_mhz,
                p.points,
                p.cycles,
                p.us,
                p.multipliers,
                p.speedup,
                p.relative_area_time
            ));
        }
        out
    }
}

impl std::fmt::Display for NttSweep {
    /// The knob and the base task, then each point's cycles, time, size and ratios.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} (base: {} points)", self.knob, self.base_points)?;
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
