//! A kernel trace replayed on the FPGA NTT system: every `ntt` record over a 256-bit field
//! (BN254 Fr, BLS12-381 Fr) or the 384-bit one (BLS12-377 Fq) costs its batch of transforms
//! at the calibrated end-to-end latency of Table V ([`end_to_end_ms`]: the paper's core or
//! its PipeZK replica, host and transfers included), plus, for a coset transform, one pass of
//! the twiddle scaler over its points (`n` products at the butterfly interval: the shift's
//! powers are not folded into the √N×√N plan's inter-pass twiddles). An inverse costs the
//! same as a forward transform (its `1/n` folds into the inter-pass twiddles); orders and
//! layouts cost nothing extra (the end-to-end figures include the host's re-partition).
//!
//! Every other record is listed as not modelled, with the reason: the FPGA system computes
//! NTTs over wide fields only (Goldilocks kernels belong to the UniZK model).

use std::fmt;

use serde::Serialize;
use zkaccel_kernel_trace::{Kernel, KernelId, KernelRecord, TraceField};

use super::{end_to_end_ms, CoreKind, EndToEndSeries, PAPER_MUL_LATENCY};
use crate::ModelError;

/// One modelled `ntt` record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NttTraceRow {
    /// The record's id.
    pub id: KernelId,
    /// Its phase.
    pub phase: String,
    /// Its field.
    pub field: TraceField,
    /// log2 of the transform size.
    pub log_n: u32,
    /// Transforms in the batch.
    pub batch: u64,
    /// Over a coset.
    pub coset: bool,
    /// The model's milliseconds for the whole batch.
    pub model_ms: f64,
    /// The CPU's measured milliseconds, when the trace has them.
    pub cpu_ms: Option<f64>,
}

/// A record the FPGA system does not compute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotModelled {
    /// The record's id.
    pub id: KernelId,
    /// Its kind (`merkle`, `ntt`, …).
    pub kind: String,
    /// Why.
    pub reason: String,
}

impl NotModelled {
    /// The report lines for `list` (nothing when empty): a count, the first 20 with their
    /// reasons, and how many more.
    ///
    /// # Errors
    /// The formatter's.
    pub fn write_list(f: &mut fmt::Formatter<'_>, list: &[Self]) -> fmt::Result {
        if list.is_empty() {
            return Ok(());
        }
        writeln!(f, "not modelled: {} record(s)", list.len())?;
        for skipped in list.iter().take(20) {
            writeln!(f, "  {} {}: {}", skipped.id, skipped.kind, skipped.reason)?;
        }
        if list.len() > 20 {
            writeln!(f, "  … and {} more", list.len() - 20)?;
        }
        Ok(())
    }
}

/// A trace replayed on the FPGA NTT system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NttTraceReport {
    /// The core the end-to-end figures are calibrated on.
    pub core: CoreKind,
    /// Clock in MHz.
    pub clock_mhz: f64,
    /// The modelled records, in trace order.
    pub rows: Vec<NttTraceRow>,
    /// The rest, in trace order.
    pub not_modelled: Vec<NotModelled>,
    /// The model's milliseconds over every modelled record.
    pub model_ms: f64,
    /// The CPU's milliseconds over the modelled records that carry a measurement.
    pub cpu_ms: f64,
}

fn series(field: TraceField, core: CoreKind) -> Result<EndToEndSeries, String> {
    if core == CoreKind::FullyPipelined {
        return Err("the end-to-end model is calibrated on the paper's cores".to_owned());
    }
    let wide = match field {
        TraceField::Bn254 | TraceField::Bls12381 => false,
        TraceField::Bls12377Fq => true,
        other => {
            return Err(format!(
                "field {other:?}: the FPGA NTT system computes over 256- and 384-bit fields"
            ))
        }
    };
    Ok(match (core, wide) {
        (CoreKind::PipeZkReplica, false) => EndToEndSeries::PipeZk256,
        (CoreKind::PipeZkReplica, true) => EndToEndSeries::PipeZk384,
        (_, false) => EndToEndSeries::Ours256,
        (_, true) => EndToEndSeries::Ours384,
    })
}

/// Milliseconds of one `2^log_n`-point transform (plus its coset scaling) on `series`.
fn transform_ms(
    series: EndToEndSeries,
    log_n: u32,
    coset: bool,
    clock_mhz: f64,
) -> Result<f64, ModelError> {
    if log_n == 0 {
        return Ok(0.0); // one point: the identity, coset or not
    }
    let n = 1u64
        .checked_shl(log_n)
        .filter(|&n| n <= 1 << 40)
        .ok_or(ModelError::Points {
            points: u64::MAX,
            subtask: 2,
        })?;
    let mut ms = end_to_end_ms(series, n, clock_mhz)?;
    if coset {
        let interval = 3 * (u64::from(PAPER_MUL_LATENCY) + 1) + 1;
        ms += (n * interval) as f64 / (clock_mhz * 1e3);
    }
    Ok(ms)
}

/// Replays `records` on the FPGA NTT system (see the module documentation).
///
/// # Errors
/// [`ModelError::Invalid`] for a clock that is not positive and finite, or a batch whose time
/// overflows; [`ModelError::Uncalibrated`] for the fully pipelined core (no end-to-end
/// figures); [`ModelError::Points`] for a transform beyond 2^40 points.
pub fn replay(
    records: &[KernelRecord],
    core: CoreKind,
    clock_mhz: f64,
) -> Result<NttTraceReport, ModelError> {
    if !(clock_mhz.is_finite() && clock_mhz > 0.0) {
        return Err(ModelError::Invalid {
            name: "clock_mhz".into(),
            value: clock_mhz,
            reason: "must be positive and finite",
        });
    }
    if core == CoreKind::FullyPipelined {
        return Err(ModelError::Uncalibrated { core: core.name() });
    }
    let mut report = NttTraceReport {
        core,
        clock_mhz,
        rows: Vec::new(),
        not_modelled: Vec::new(),
        model_ms: 0.0,
        cpu_ms: 0.0,
    };
    for record in records {
        let skip = |reason: String| NotModelled {
            id: record.id,
            kind: record.kernel.kind().to_owned(),
            reason,
        };
        let Kernel::Ntt {
            field,
            log_n,
            batch,
            coset,
            ..
        } = &record.kernel
        else {
            report
                .not_modelled
                .push(skip("the FPGA NTT system computes NTTs only".to_owned()));
            continue;
        };
        let series = match series(*field, core) {
            Ok(series) => series,
            Err(reason) => {
                report.not_modelled.push(skip(reason));
                continue;
            }
        };
        let model_ms = transform_ms(series, *log_n, *coset, clock_mhz)? * *batch as f64;
        if !(model_ms.is_finite() && (report.model_ms + model_ms).is_finite()) {
            return Err(ModelError::Invalid {
                name: "batch".into(),
                value: *batch as f64,
                reason: "a batch too large to time",
            });
        }
        let cpu_ms = record.cpu.as_ref().map(|c| c.wall_ns as f64 / 1e6);
        report.model_ms += model_ms;
        report.cpu_ms += cpu_ms.unwrap_or(0.0);
        report.rows.push(NttTraceRow {
            id: record.id,
            phase: record.phase.clone(),
            field: *field,
            log_n: *log_n,
            batch: *batch,
            coset: *coset,
            model_ms,
            cpu_ms,
        });
    }
    Ok(report)
}

impl fmt::Display for NttTraceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let core = match self.core {
            CoreKind::Overlapped => "the paper's core",
            CoreKind::PipeZkReplica => "the PipeZK replica",
            CoreKind::FullyPipelined => "the fully pipelined core",
        };
        writeln!(
            f,
            "FPGA NTT system ({core}, {} MHz, end-to-end latency calibrated on Table V)",
            self.clock_mhz
        )?;
        writeln!(
            f,
            "{:>6} {:<16} {:<13} {:>6} {:>7} {:>6} {:>12} {:>12}",
            "id", "phase", "field", "log_n", "batch", "coset", "model ms", "cpu ms"
        )?;
        for row in &self.rows {
            let field = serde_json::to_value(row.field).map_err(|_| fmt::Error)?;
            writeln!(
                f,
                "{:>6} {:<16} {:<13} {:>6} {:>7} {:>6} {:>12.3} {:>12}",
                row.id,
                row.phase,
                field.as_str().unwrap_or("?"),
                row.log_n,
                row.batch,
                if row.coset { "yes" } else { "no" },
                row.model_ms,
                row.cpu_ms
                    .map_or_else(|| "-".to_owned(), |ms| format!("{ms:.3}"))
            )?;
        }
        writeln!(
            f,
            "total: {} NTT record(s), model {:.3} ms, CPU {:.3} ms",
            self.rows.len(),
            self.model_ms,
            self.cpu_ms
        )?;
        NotModelled::write_list(f, &self.not_modelled)
    }
}
