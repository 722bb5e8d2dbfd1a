//! Design-space sweeps of the UniZK model: one knob over a list of values, every class's time
//! at each, normalised to the base configuration (the paper's Figure 10), on the generic
//! [`crate::sweep::Sweep`].

use serde::{Deserialize, Serialize};
use zkaccel_kernel_trace::KernelRecord;

use super::config::UNIZK_KNOBS;
use super::{ModelError, UnizkClass, UnizkConfig};
use crate::sweep::{SweepChart, SweepModel};

pub use crate::sweep::{parse_param, MAX_SWEEP_POINTS};

/// The UniZK model as a sweep runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unizk {}

/// A knob of the UniZK model swept over values.
pub type Sweep = crate::sweep::Sweep<Unizk>;
/// One point of a UniZK sweep.
pub type SweepPoint = crate::sweep::SweepPoint<UnizkSweepResult>;

/// The model's answer for one configuration of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnizkSweepResult {
    /// Milliseconds per class (NTT, polynomial, hash, layout) and in total.
    pub ms: [f64; 5],
    /// The base configuration's time over this one's, per class and in total (> 1: faster).
    pub speedup: [f64; 5],
}

/// Column names of [`UnizkSweepResult::ms`] and [`UnizkSweepResult::speedup`].
pub const SWEEP_COLUMNS: [&str; 5] = ["ntt", "polynomial", "hash", "layout", "total"];

/// One point as a CSV row.
#[derive(Serialize)]
pub struct UnizkSweepRow<'a> {
    value: &'a str,
    ntt_ms: f64,
    polynomial_ms: f64,
    hash_ms: f64,
    layout_ms: f64,
    total_ms: f64,
    ntt_speedup: f64,
    polynomial_speedup: f64,
    hash_speedup: f64,
    layout_speedup: f64,
    total_speedup: f64,
}

impl SweepModel for Unizk {
    const NAME: &'static str = "unizk";
    const LABEL: &'static str = "UniZK";
    const FILE_STEM: &'static str = "sweep";
    const KNOBS: &'static [&'static str] = &UNIZK_KNOBS;
    const MAX_POINTS: usize = MAX_SWEEP_POINTS;
    type Base = UnizkConfig;
    type Point = UnizkSweepResult;
    type Row<'a> = UnizkSweepRow<'a>;

    fn row<'a>(value: &'a str, p: &'a UnizkSweepResult) -> UnizkSweepRow<'a> {
        let ([ntt_ms, polynomial_ms, hash_ms, layout_ms, total_ms], s) = (p.ms, p.speedup);
        UnizkSweepRow {
            value,
            ntt_ms,
            polynomial_ms,
            hash_ms,
            layout_ms,
            total_ms,
            ntt_speedup: s[0],
            polynomial_speedup: s[1],
            hash_speedup: s[2],
            layout_speedup: s[3],
            total_speedup: s[4],
        }
    }

    /// The speedup per class (the layout class aside) over the base.
    fn chart(sweep: &Sweep) -> SweepChart {
        SweepChart {
            title: format!(
                "UniZK model: speedup over the base configuration vs {}",
                sweep.knob
            ),
            x_desc: sweep.knob.clone(),
            y_desc: "speedup (×)".to_owned(),
            labels: sweep.labels(),
            series: SWEEP_COLUMNS
                .iter()
                .enumerate()
                .filter(|(_, name)| **name != "layout")
                .map(|(column, name)| sweep.series(name, |p| p.speedup[column]))
                .collect(),
        }
    }
}

fn times(report: &super::UnizkReport) -> [f64; 5] {
    [
        report.class_ms(UnizkClass::Ntt),
        report.class_ms(UnizkClass::Polynomial),
        report.class_ms(UnizkClass::Hash),
        report.class_ms(UnizkClass::Layout),
        report.ms,
    ]
}

impl UnizkConfig {
    /// Replays `records` once per value of `knob`, the rest of the configuration as `self`.
    ///
    /// # Errors
    /// As [`UnizkConfig::set`] when a value is refused; [`ModelError::EmptyTrace`];
    /// [`ModelError::SweepPoints`] for no or more than [`MAX_SWEEP_POINTS`] values.
    pub fn sweep(
        &self,
        records: &[KernelRecord],
        knob: &str,
        values: &[String],
    ) -> Result<Sweep, ModelError> {
        let mut base = None;
        Sweep::run(knob, self.clone(), values, |value| {
            let base = match base {
                Some(b) => b,
                None => *base.insert(times(&self.replay(records)?)),
            };
            let mut config = self.clone();
            config.set(&format!("{knob}={value}"))?;
            let ms = times(&config.replay(records)?);
            let speedup = std::array::from_fn(|i| if ms[i] > 0.0 { base[i] / ms[i] } else { 1.0 });
            Ok(UnizkSweepResult { ms, speedup })
        })
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
