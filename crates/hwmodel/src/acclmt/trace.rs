//! A kernel trace replayed on AcclMT's Merkle controller: every `merkle` record of a binary
//! tree hashed with a width-3 Poseidon over a 256-bit field (`poseidon-bls12-381-3`, FileCoin's
//! and the paper's; `poseidon-bn254-3`, circomlib's) whose leaves are one permutation each
//! (`leaf_width` at most 2 elements) costs [`ControllerConfig::build`] of its leaves. A cap
//! above the root is built to the root (the cap's layers are at most `2^cap_height − 1` of the
//! tree's hashes, latency-bound ones the model counts in full).
//!
//! Every other record is listed as not modelled, with the reason: Goldilocks trees belong to
//! the UniZK model, other kernels to the others.

use std::fmt;

use serde::Serialize;
use zkaccel_kernel_trace::{Kernel, KernelId, KernelRecord};

use super::{AcclmtModelError, ControllerConfig, PoseidonShape, TreeRun};
use crate::ntt_fpga::trace::NotModelled;

/// The hashes the controller runs: (trace name, the Poseidon instance's `R_P`: neptune's
/// standard strength and circomlib's, `α = 5`, `R_F = 8`).
const HASHES: [(&str, u32); 2] = [("poseidon-bls12-381-3", 55), ("poseidon-bn254-3", 57)];

/// One modelled `merkle` record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcclmtTraceRow {
    /// The record's id.
    pub id: KernelId,
    /// Its phase.
    pub phase: String,
    /// Its hash.
    pub hash: String,
    /// The modelled build.
    pub run: TreeRun,
    /// The CPU's measured milliseconds, when the trace has them.
    pub cpu_ms: Option<f64>,
}

/// A trace replayed on the Merkle controller.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AcclmtTraceReport {
    /// The controller.
    pub config: ControllerConfig,
    /// The modelled records, in trace order.
    pub rows: Vec<AcclmtTraceRow>,
    /// The rest, in trace order.
    pub not_modelled: Vec<NotModelled>,
    /// The model's milliseconds over every modelled record (one tree after another).
    pub model_ms: f64,
    /// The CPU's milliseconds over the modelled records that carry a measurement.
    pub cpu_ms: f64,
}

/// Why the controller does not build this tree, if it does not.
fn unsupported(
    config: &ControllerConfig,
    hash: &str,
    log_leaves: u32,
    leaf_width: u64,
    arity: u32,
) -> Result<PoseidonShape, String> {
    let Some(&(_, partial_rounds)) = HASHES.iter().find(|(name, _)| *name == hash) else {
        return Err(format!(
            "hash {hash}: the controller hashes with {}",
            HASHES.map(|h| h.0).join(" or ")
        ));
    };
    if arity != 2 {
        return Err(format!("arity {arity}: the controller builds binary trees"));
    }
    if !(1..=2).contains(&leaf_width) {
        return Err(format!(
            "leaf width {leaf_width}: the LHE hashes leaves of one or two elements (one permutation)"
        ));
    }
    let batch = u64::from(config.engine.batch);
    let most = config.capacity();
    let leaves = 1u64.checked_shl(log_leaves).unwrap_or(u64::MAX);
    if log_leaves >= 64 || leaves < 4 * batch || leaves > most {
        return Err(format!(
            "2^{log_leaves} leaves: the controller builds {} to {most}",
            4 * batch
        ));
    }
    Ok(PoseidonShape {
        width: 3,
        alpha: 5,
        full_rounds: 8,
        partial_rounds,
    })
}

/// Replays `records` on the Merkle controller `config` (see the module documentation).
///
/// # Errors
/// [`ControllerConfig::validate`]'s errors; [`AcclmtModelError::InvalidConfig`] when a tree
/// exceeds what the model simulates ([`super::MAX_SIMULATED_BATCHES`]).
pub fn replay(
    records: &[KernelRecord],
    config: &ControllerConfig,
) -> Result<AcclmtTraceReport, AcclmtModelError> {
    config.validate()?;
    let mut report = AcclmtTraceReport {
        config: *config,
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
        let Kernel::Merkle {
            hash,
            log_leaves,
            leaf_width,
            arity,
            ..
        } = &record.kernel
        else {
            report.not_modelled.push(skip(
                "the Merkle controller builds Merkle trees only".to_owned(),
            ));
            continue;
        };
        let shape = match unsupported(config, hash, *log_leaves, *leaf_width, *arity) {
            Ok(shape) => shape,
            Err(reason) => {
                report.not_modelled.push(skip(reason));
                continue;
            }
        };
        let run = config.build(&shape, 1 << log_leaves)?;
        let cpu_ms = record.cpu.as_ref().map(|c| c.wall_ns as f64 / 1e6);
        report.model_ms += run.milliseconds;
        report.cpu_ms += cpu_ms.unwrap_or(0.0);
        report.rows.push(AcclmtTraceRow {
            id: record.id,
            phase: record.phase.clone(),
            hash: hash.clone(),
            run,
            cpu_ms,
        });
    }
    Ok(report)
}

impl fmt::Display for AcclmtTraceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "AcclMT Merkle controller ({} MHz, {}-leaf subtrees, loader {} GB/s)",
            self.config.engine.clock_mhz,
            self.config.subtree_leaves,
            self.config.bandwidth_gb_per_s
        )?;
        writeln!(
            f,
            "{:>6} {:<16} {:<22} {:>10} {:>12} {:>8} {:>8} {:>12}",
            "id", "phase", "hash", "leaves", "model ms", "LHE", "RHE", "cpu ms"
        )?;
        for row in &self.rows {
            writeln!(
                f,
                "{:>6} {:<16} {:<22} {:>10} {:>12.3} {:>7.1}% {:>7.1}% {:>12}",
                row.id,
                row.phase,
                row.hash,
                format!("2^{}", row.run.leaves.trailing_zeros()),
                row.run.milliseconds,
                100.0 * row.run.utilisation_active[0],
                100.0 * row.run.utilisation_active[1],
                row.cpu_ms
                    .map_or_else(|| "-".to_owned(), |ms| format!("{ms:.3}"))
            )?;
        }
        writeln!(
            f,
            "total: {} Merkle record(s), model {:.3} ms, CPU {:.3} ms",
            self.rows.len(),
            self.model_ms,
            self.cpu_ms
        )?;
        NotModelled::write_list(f, &self.not_modelled)
    }
}
