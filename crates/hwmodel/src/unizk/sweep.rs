//! Design-space sweeps: one knob over a list of values, every class's time at each, normalised
//! to the base configuration (the paper's Figure 10).

use serde::{Deserialize, Serialize};
use zkaccel_kernel_trace::KernelRecord;

use super::{ModelError, UnizkClass, UnizkConfig};

/// Most values one sweep may take.
pub const MAX_SWEEP_POINTS: usize = 64;

/// One configuration of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// The knob's value, as given.
    pub value: String,
    /// Milliseconds per class (NTT, polynomial, hash, layout) and in total.
    pub ms: [f64; 5],
    /// The base configuration's time over this one's, per class and in total (> 1: faster).
    pub speedup: [f64; 5],
}

/// A knob swept over values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// The knob.
    pub knob: String,
    /// The points, in the order given.
    pub points: Vec<SweepPoint>,
}

/// Column names of [`SweepPoint::ms`] and [`SweepPoint::speedup`].
pub const SWEEP_COLUMNS: [&str; 5] = ["ntt", "polynomial", "hash", "layout", "total"];

fn times(report: &super::UnizkReport) -> [f64; 5] {
    [
        report.class_ms(UnizkClass::Ntt),
        report.class_ms(UnizkClass::Polynomial),
        report.class_ms(UnizkClass::Hash),
        report.class_ms(UnizkClass::Layout),
        report.ms,
    ]
}

/// Parses `knob=v1,v2,…`.
///
/// # Errors
/// [`ModelError::Syntax`] without `=`; [`ModelError::SweepPoints`] with no values or more
/// than [`MAX_SWEEP_POINTS`].
pub fn parse_param(param: &str) -> Result<(String, Vec<String>), ModelError> {
    let (knob, values) = param.split_once('=').ok_or_else(|| ModelError::Syntax {
        text: crate::error::shown(param, 80),
        expected: "knob=v1,v2,…",
    })?;
    let values: Vec<String> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .collect();
    if values.is_empty() || values.len() > MAX_SWEEP_POINTS {
        return Err(ModelError::SweepPoints {
            knob: crate::error::shown(knob.trim(), 40),
            got: values.len(),
            max: MAX_SWEEP_POINTS,
        });
    }
    Ok((knob.trim().to_owned(), values))
}

impl UnizkConfig {
    /// Replays `records` once per value of `knob`, the rest of the configuration as `self`.
    ///
    /// # Errors
    /// As [`UnizkConfig::set`] when a value is refused; [`ModelError::EmptyTrace`].
    pub fn sweep(
        &self,
        records: &[KernelRecord],
        knob: &str,
        values: &[String],
    ) -> Result<Sweep, ModelError> {
        let base = times(&self.replay(records)?);
        let points = values
            .iter()
            .map(|value| {
                let mut config = self.clone();
                config.set(&format!("{knob}={value}"))?;
                let ms = times(&config.replay(records)?);
                let speedup =
                    std::array::from_fn(|i| if ms[i] > 0.0 { base[i] / ms[i] } else { 1.0 });
                Ok(SweepPoint {
                    value: value.clone(),
                    ms,
                    speedup,
                })
            })
            .collect::<Result<_, ModelError>>()?;
        Ok(Sweep {
            knob: knob.to_owned(),
            points,
        })
    }
}

impl Sweep {
    /// The sweep as CSV: the knob's value, then ms and speedup per class.
    pub fn to_csv(&self) -> String {
        let mut out = self.knob.clone();
        for c in SWEEP_COLUMNS {
            out.push_str(&format!(",{c}_ms"));
        }
        for c in SWEEP_COLUMNS {
            out.push_str(&format!(",{c}_speedup"));
        }
        out.push('\n');
        for p in &self.points {
            out.push_str(&p.value);
            for v in p.ms.iter().chain(&p.speedup) {
                out.push_str(&format!(",{v:.6}"));
            }
            out.push('\n');
        }
        out
    }
}

impl std::fmt::Display for Sweep {
    /// The knob, then each point's speedup per class and its total time.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.knob)?;
        for p in &self.points {
            writeln!(
                f,
                "  {:>8}: NTT {:.2}×, polynomial {:.2}×, hash {:.2}×, total {:.2}× ({:.3} ms)",
                p.value, p.speedup[0], p.speedup[1], p.speedup[2], p.speedup[4], p.ms[4]
            )?;
        }
        Ok(())
    }
}
