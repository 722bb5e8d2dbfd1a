//! Time by UniZK's kernel classes and by protocol phase.

use std::collections::BTreeMap;
use std::fmt;

use crate::record::{KernelClass, KernelRecord};

/// The measured time of some records, summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassTotal {
    /// Kernel calls.
    pub calls: u64,
    /// Wall-clock nanoseconds.
    pub wall_ns: u64,
}

/// A proof's time by Table 1 class and by phase; what no kernel accounts for (trace
/// handling, allocation, the verifier-side checks a prover runs) is `untracked_ns`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breakdown {
    /// Per class, every class present (zero when absent).
    pub classes: BTreeMap<KernelClass, ClassTotal>,
    /// Per phase, in order of first appearance.
    pub phases: Vec<(String, ClassTotal)>,
    /// The whole proof, as measured by the caller.
    pub total_ns: u64,
    /// `total_ns` less every kernel's time (0 if the kernels sum to more).
    pub untracked_ns: u64,
}

impl Breakdown {
    /// Sums `records`' measured times against a proof that took `total_ns`.
    pub fn from_records(records: &[KernelRecord], total_ns: u64) -> Self {
        let mut classes: BTreeMap<KernelClass, ClassTotal> = KernelClass::ALL
            .iter()
            .map(|&c| (c, ClassTotal::default()))
            .collect();
        let mut phases: Vec<(String, ClassTotal)> = Vec::new();
        let mut tracked = 0u64;
        for r in records {
            let ns = r.cpu.map_or(0, |c| c.wall_ns);
            tracked = tracked.saturating_add(ns);
            let class = classes.entry(r.kernel.class()).or_default();
            class.calls += 1;
            class.wall_ns = class.wall_ns.saturating_add(ns);
            let at = match phases.iter().position(|(p, _)| *p == r.phase) {
                Some(at) => at,
                None => {
                    phases.push((r.phase.clone(), ClassTotal::default()));
                    phases.len() - 1
                }
            };
            phases[at].1.calls += 1;
            phases[at].1.wall_ns = phases[at].1.wall_ns.saturating_add(ns);
        }
        Self {
            classes,
            phases,
            total_ns,
            untracked_ns: total_ns.saturating_sub(tracked),
        }
    }
}

impl fmt::Display for Breakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total_ns.max(1) as f64;
        let line = |f: &mut fmt::Formatter<'_>, name: &str, t: ClassTotal| {
            writeln!(
                f,
                "  {name:<18} {:>6} calls {:>10.3} ms {:>6.1}%",
                t.calls,
                t.wall_ns as f64 / 1e6,
                100.0 * t.wall_ns as f64 / total
            )
        };
        writeln!(f, "by kernel class (UniZK Table 1):")?;
        for (class, t) in &self.classes {
            line(f, &class.to_string(), *t)?;
        }
        line(
            f,
            "untracked",
            ClassTotal {
                calls: 0,
                wall_ns: self.untracked_ns,
            },
        )?;
        writeln!(f, "by phase:")?;
        for (phase, t) in &self.phases {
            line(f, phase, *t)?;
        }
        write!(
            f,
            "  {:<18} {:>17.3} ms",
            "total",
            self.total_ns as f64 / 1e6
        )
    }
}
