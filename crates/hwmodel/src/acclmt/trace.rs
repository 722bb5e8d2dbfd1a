//! A kernel trace replayed on AcclMT's Merkle controller: every `merkle` record of a tree
//! hashed with Poseidon over a 256-bit field whose leaves are one permutation each (`leaf_width`
//! at most the arity) costs [`ControllerConfig::build`] of its leaves. The hashes: neptune's
//! (FileCoin's) over BLS12-381, `poseidon-bls12-381-t` for arity 2, 4, 8 and 11 (`t` = 3, 5, 9,
//! 12; the paper's is arity 2), and circomlib's binary `poseidon-bn254-3`. A cap
//! above the root is built to the root (the cap's layers are at most `2^cap_height − 1` of the
//! tree's hashes, latency-bound ones the model counts in full).
//!
//! Every other record is listed as not modelled, with the reason: Goldilocks trees belong to
//! the UniZK model, other kernels to the others.

use std::fmt;

use serde::Serialize;
use zkaccel_kernel_trace::{Kernel, KernelId, KernelRecord};

use super::{ControllerConfig, PoseidonShape, TreeRun};
use crate::ntt_fpga::trace::NotModelled;
use crate::ModelError;

/// The hashes the controller runs: (trace name, state width, the Poseidon instance's `R_P`:
/// neptune's standard strength and circomlib's, `α = 5`, `R_F = 8`).
const HASHES: [(&str, u32, u32); 5] = [
    ("poseidon-bls12-381-3", 3, 55),
    ("poseidon-bls12-381-5", 5, 56),
    ("poseidon-bls12-381-9", 9, 57),
    ("poseidon-bls12-381-12", 12, 57),
    ("poseidon-bn254-3", 3, 57),
];

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
    let Some(&(_, width, partial_rounds)) = HASHES.iter().find(|(name, ..)| *name == hash) else {
        return Err(format!(
            "hash {hash}: the controller hashes with {}",
            HASHES.map(|h| h.0).join(" or ")
        ));
    };
    if arity + 1 != width {
        return Err(format!(
            "arity {arity}: {hash} hashes {} children",
            width - 1
        ));
    }
    if !(1..=u64::from(arity)).contains(&leaf_width) {
        return Err(format!(
            "leaf width {leaf_width}: the LHE hashes leaves of 1 to {arity} elements (one permutation)"
        ));
    }
    let geometry = config.geometry(arity).map_err(|e| e.to_string())?;
    let a = u64::from(arity);
    let least = (4 * u64::from(config.engine.batch)).max(a * a);
    let most = geometry.capacity();
    let leaves = 1u64.checked_shl(log_leaves).unwrap_or(u64::MAX);
    let power = a.is_power_of_two() && log_leaves.is_multiple_of(a.trailing_zeros());
    if log_leaves >= 64 || !power || leaves < least || leaves > most {
        return Err(format!(
            "2^{log_leaves} leaves: the controller builds powers of {arity} from {least} to {most}"
        ));
    }
    Ok(PoseidonShape {
        width,
        alpha: 5,
        full_rounds: 8,
        partial_rounds,
    })
}

/// Replays `records` on the Merkle controller `config` (see the module documentation).
///
/// # Errors
/// [`ControllerConfig::validate`]'s errors; [`ModelError::Leaves`] when a tree
/// exceeds what the model simulates ([`super::MAX_SIMULATED_BATCHES`]).
pub fn replay(
    records: &[KernelRecord],
    config: &ControllerConfig,
) -> Result<AcclmtTraceReport, ModelError> {
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

#[cfg(test)]
mod tests {
    use super::HASHES;
    use zkaccel_presets::{circomlib, neptune};

    /// The replayed instances' rounds are neptune's (standard strength) and circomlib's.
    #[test]
    fn the_hashes_rounds_are_neptunes_and_circomlibs() {
        for (name, width, partial_rounds) in HASHES {
            let (rf, rp) = if name.starts_with("poseidon-bls12-381-") {
                neptune::round_numbers(width as usize - 1, neptune::Strength::Standard).unwrap()
            } else {
                circomlib::round_numbers(width as usize).unwrap()
            };
            assert_eq!((rf, rp), (8, partial_rounds as usize), "{name}");
            assert!(name.ends_with(&format!("-{width}")), "{name}");
        }
    }
}
