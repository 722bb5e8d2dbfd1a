//! The model's answer: time per kernel and per class, bytes moved, utilisation (the paper's
//! Table 4 columns), the CPU's measured time beside it.

use std::fmt;

use serde::Serialize;
use zkaccel_kernel_trace::{KernelClass, KernelRecord};

use super::blocks::time_blocks;
use super::config::{Mode, UnizkConfig};
use super::lower::{lower, SimProver};

/// The classes UniZK reports (its Figure 8 and Table 4): hash joins Merkle trees and the other
/// hashing; layout transforms are folded into neighbours on the chip but kept apart here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnizkClass {
    /// NTTs.
    Ntt,
    /// Element-wise polynomial arithmetic and partial products.
    Polynomial,
    /// Merkle trees, the challenger, proof of work.
    Hash,
    /// Transposes and copies.
    Layout,
}

impl UnizkClass {
    /// Every class in Table 4's order.
    pub const ALL: [UnizkClass; 4] = [Self::Ntt, Self::Polynomial, Self::Hash, Self::Layout];

    /// The class a trace's kernel counts under.
    pub fn of(class: KernelClass) -> Self {
        match class {
            KernelClass::Ntt => Self::Ntt,
            KernelClass::Polynomial => Self::Polynomial,
            KernelClass::MerkleTree | KernelClass::OtherHash => Self::Hash,
            KernelClass::LayoutTransform => Self::Layout,
        }
    }
}

impl fmt::Display for UnizkClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Ntt => "NTT",
            Self::Polynomial => "polynomial",
            Self::Hash => "hash",
            Self::Layout => "layout",
        })
    }
}

/// One kernel's modelled time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelTime {
    /// The record's id.
    pub id: u64,
    /// Its kind.
    pub kind: &'static str,
    /// Its phase.
    pub phase: String,
    /// Its class.
    pub class: UnizkClass,
    /// Cycles on the chip.
    pub cycles: f64,
    /// Bytes the memory moved.
    pub moved_bytes: u64,
    /// Cycles the VSAs issued work (all PEs busy), summed over blocks.
    pub busy_cycles: f64,
    /// The CPU's wall time recorded in the trace.
    pub cpu_ns: Option<u64>,
    /// How it was mapped when not by its own blocks.
    pub note: Option<&'static str>,
}

/// A kernel UniZK cannot run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unmodelled {
    /// The record's id.
    pub id: u64,
    /// Its kind.
    pub kind: &'static str,
    /// Why.
    pub reason: String,
}

/// Totals of one class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassReport {
    /// The class.
    pub class: UnizkClass,
    /// Kernels in it.
    pub kernels: usize,
    /// Cycles.
    pub cycles: f64,
    /// Milliseconds at the configured clock.
    pub ms: f64,
    /// Share of the total time.
    pub share: f64,
    /// Bytes the memory moved.
    pub moved_bytes: u64,
    /// Moved bytes over what the reachable bandwidth could move in the class's time.
    pub memory_utilisation: f64,
    /// VSA compute cycles over the class's time (divided by the blocks computing at once).
    pub vsa_utilisation: f64,
    /// The CPU's recorded time for the class, when the trace has one.
    pub cpu_ms: Option<f64>,
}

/// The model's report on one trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnizkReport {
    /// The configuration replayed.
    pub config: UnizkConfig,
    /// Total cycles.
    pub cycles: f64,
    /// Total milliseconds.
    pub ms: f64,
    /// The CPU's recorded total, when the trace has times.
    pub cpu_ms: Option<f64>,
    /// Per class, Table 4's order.
    pub classes: Vec<ClassReport>,
    /// Per kernel, trace order.
    pub kernels: Vec<KernelTime>,
    /// Kernels the chip cannot run.
    pub unmodelled: Vec<Unmodelled>,
}

impl UnizkReport {
    /// The class's totals.
    pub fn class(&self, class: UnizkClass) -> Option<&ClassReport> {
        self.classes.iter().find(|c| c.class == class)
    }

    /// Milliseconds of one class (0 when absent).
    pub fn class_ms(&self, class: UnizkClass) -> f64 {
        self.class(class).map_or(0.0, |c| c.ms)
    }
}

pub(super) fn replay(config: &UnizkConfig, records: &[KernelRecord]) -> UnizkReport {
    let mut kernels = Vec::with_capacity(records.len());
    let mut unmodelled = Vec::new();
    let prover = SimProver::of(records);
    let rate = match config.mode {
        Mode::UnizkSim => SimProver::quotient_commit_rate(records),
        Mode::Paper => None,
    };
    for record in records {
        let simulated = prover.simulated(&record.phase, &record.kernel, rate);
        let kernel = simulated.as_ref().unwrap_or(&record.kernel);
        match lower(config, prover, &record.phase, kernel) {
            Ok(lowered) => {
                let timing = time_blocks(config, &lowered.groups, lowered.serial);
                let replayed = lowered.replayed;
                kernels.push(KernelTime {
                    id: record.id,
                    kind: record.kernel.kind(),
                    phase: record.phase.clone(),
                    class: UnizkClass::of(record.kernel.class()),
                    cycles: timing.cycles + replayed.cycles,
                    moved_bytes: timing.moved_bytes.saturating_add(replayed.moved_bytes),
                    busy_cycles: timing.busy_cycles * lowered.issue_fraction + replayed.busy_cycles,
                    cpu_ns: record.cpu.map(|c| c.wall_ns),
                    note: lowered.note,
                });
            }
            Err(reason) => unmodelled.push(Unmodelled {
                id: record.id,
                kind: record.kernel.kind(),
                reason,
            }),
        }
    }
    let cycles: f64 = kernels.iter().map(|k| k.cycles).sum();
    let cycles_per_ms = config.clock_ghz * 1e6;
    let overlap = config.mode.compute_overlap();
    let classes = UnizkClass::ALL
        .into_iter()
        .filter_map(|class| {
            let members: Vec<&KernelTime> = kernels.iter().filter(|k| k.class == class).collect();
            if members.is_empty() {
                return None;
            }
            let c: f64 = members.iter().map(|k| k.cycles).sum();
            let moved = members
                .iter()
                .fold(0u64, |sum, k| sum.saturating_add(k.moved_bytes));
            let busy: f64 = members.iter().map(|k| k.busy_cycles).sum();
            let cpu: Vec<u64> = members.iter().filter_map(|k| k.cpu_ns).collect();
            let ratio = |num: f64, den: f64| if den > 0.0 { (num / den).min(1.0) } else { 0.0 };
            Some(ClassReport {
                class,
                kernels: members.len(),
                cycles: c,
                ms: c / cycles_per_ms,
                share: ratio(c, cycles),
                moved_bytes: moved,
                memory_utilisation: ratio(moved as f64, c * config.bytes_per_cycle()),
                vsa_utilisation: ratio(busy, c * overlap),
                cpu_ms: (!cpu.is_empty())
                    .then(|| cpu.iter().map(|&ns| ns as f64).sum::<f64>() / 1e6),
            })
        })
        .collect();
    let cpu: Vec<u64> = kernels.iter().filter_map(|k| k.cpu_ns).collect();
    UnizkReport {
        config: config.clone(),
        cycles,
        ms: cycles / cycles_per_ms,
        cpu_ms: (!cpu.is_empty()).then(|| cpu.iter().map(|&ns| ns as f64).sum::<f64>() / 1e6),
        classes,
        kernels,
        unmodelled,
    }
}

impl fmt::Display for UnizkReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(
            f,
            "UniZK model, mode {}: {} VSAs of {}×{} PEs at {} GHz, {} MiB scratchpad, {:.2} TB/s",
            c.mode,
            c.vsas,
            c.array,
            c.array,
            c.clock_ghz,
            c.spm_mib,
            c.bandwidth_tbps()
        )?;
        writeln!(
            f,
            "{:<11} {:>7} {:>11} {:>7} {:>10} {:>8} {:>8} {:>11} {:>9}",
            "class",
            "kernels",
            "UniZK ms",
            "share",
            "MB moved",
            "memory",
            "VSA",
            "CPU ms",
            "speedup"
        )?;
        for class in &self.classes {
            writeln!(
                f,
                "{:<11} {:>7} {:>11.4} {:>6.1}% {:>10.1} {:>7.1}% {:>7.1}% {:>11} {:>9}",
                class.class.to_string(),
                class.kernels,
                class.ms,
                100.0 * class.share,
                class.moved_bytes as f64 / 1e6,
                100.0 * class.memory_utilisation,
                100.0 * class.vsa_utilisation,
                class.cpu_ms.map_or("-".into(), |ms| format!("{ms:.1}")),
                class
                    .cpu_ms
                    .filter(|_| class.ms > 0.0)
                    .map_or("-".into(), |ms| format!("{:.0}×", ms / class.ms)),
            )?;
        }
        writeln!(
            f,
            "{:<11} {:>7} {:>11.4} {:>7} {:>10} {:>8} {:>8} {:>11} {:>9}",
            "total",
            self.kernels.len(),
            self.ms,
            "",
            "",
            "",
            "",
            self.cpu_ms.map_or("-".into(), |ms| format!("{ms:.1}")),
            self.cpu_ms
                .filter(|_| self.ms > 0.0)
                .map_or("-".into(), |ms| format!("{:.0}×", ms / self.ms)),
        )?;
        for u in &self.unmodelled {
            writeln!(
                f,
                "not modelled: kernel {} ({}): {}",
                u.id, u.kind, u.reason
            )?;
        }
        Ok(())
    }
}
