//! UniZK (ASPLOS'25) as a model: the unified systolic accelerator, replayed block by block from
//! a kernel trace.
//!
//! Each record of a [`zkaccel_kernel_trace`] trace is lowered to blocks the way the paper's §5
//! maps its kind ([`lower`]), each block costs what its memory traffic and its compute take
//! ([`blocks`]), and the kernels run one after another. Every per-block constant derives from
//! the [`UnizkConfig`]: plane size and NTT pipeline depth from the array side and the multiplier
//! latency, Poseidon's interval (23 cycles on 12×12) and latency from the rounds and the array,
//! vector convoys from the op program, bandwidth from channels, interleaving and request size.

pub mod blocks;
pub mod config;
pub mod hbm;
pub mod lower;
mod report;
pub mod sim_ntt;
pub mod sweep;
pub mod workloads;

pub use config::{Mode, UnizkConfig};
pub use report::{ClassReport, KernelTime, UnizkClass, UnizkReport, Unmodelled};
pub use sweep::{Sweep, SweepPoint, Unizk, UnizkSweepResult};

use zkaccel_kernel_trace::KernelRecord;

/// The model's errors ([`crate::ModelError`], re-exported under the name this module had for
/// them).
pub use crate::ModelError;

impl UnizkConfig {
    /// Replays `records` on this chip.
    ///
    /// Kernels UniZK cannot run (MiMC, 256-bit fields) are listed in
    /// [`UnizkReport::unmodelled`], never dropped silently.
    ///
    /// # Errors
    /// [`ModelError::EmptyTrace`] for no records; [`ModelError::UnusableChip`] for a configuration
    /// without compute or memory (zero VSAs, zero bandwidth).
    pub fn replay(&self, records: &[KernelRecord]) -> Result<UnizkReport, ModelError> {
        if records.is_empty() {
            return Err(ModelError::EmptyTrace);
        }
        let bandwidth = self.bytes_per_cycle();
        let usable = |x: f64| x.is_finite() && x > 0.0;
        if self.vsas == 0
            || self.array < 6
            || !usable(bandwidth)
            || !usable(self.clock_ghz)
            || !usable(self.runs_per_cycle)
        {
            return Err(ModelError::UnusableChip);
        }
        Ok(report::replay(self, records))
    }
}
