//! Recording a trace while proving, and reading and writing it as JSON Lines.

use std::io::{BufRead, Read, Write};
use std::time::{Duration, Instant};

use crate::record::{CpuTime, Kernel, KernelId, KernelRecord, SCHEMA_VERSION};
use crate::{Breakdown, TraceError};

/// The most records [`read_jsonl`] accepts (a 2^20-row STARK proof writes about a hundred).
pub const MAX_RECORDS: usize = 1 << 20;
/// The longest line [`read_jsonl`] accepts, in bytes.
const MAX_LINE: u64 = 1 << 20;

/// Where a prover's kernels go: the one argument of every proving entry point that can
/// record its kernels (`zkaccel_stark::prove`, `zkaccel_fri::prove_openings`,
/// `zkaccel_fri::PolynomialBatch::from_coeffs`, …).
///
/// A kernel's description is built by a closure that runs only when [`KernelSink::is_recording`]
/// says so, so [`NoTrace`] (a sink that keeps nothing, known at compile time) costs nothing:
/// no description, no allocation, no clock read beyond the one the caller makes. [`Tracer`]
/// keeps the records.
pub trait KernelSink {
    /// Whether records are kept. When `false`, the `record*` methods build nothing and return
    /// 0, and a caller may skip whatever it computes only to describe a kernel.
    fn is_recording(&self) -> bool;

    /// Appends a record and returns its id (called only when recording).
    fn push(
        &mut self,
        phase: &str,
        deps: &[KernelId],
        kernel: Kernel,
        cpu: Option<CpuTime>,
    ) -> KernelId;

    /// Records the kernel `describe` returns, which ran from `started` until now, and returns
    /// its id (for the `deps` of later kernels; 0 when not recording, and `describe` is not
    /// called).
    #[inline]
    fn record(
        &mut self,
        phase: &str,
        deps: &[KernelId],
        started: Instant,
        describe: impl FnOnce() -> Kernel,
    ) -> KernelId {
        if !self.is_recording() {
            return 0;
        }
        self.record_elapsed(phase, deps, started.elapsed(), describe)
    }

    /// Records a kernel that took `elapsed` in all (a kernel run in several pieces between
    /// other work), and returns its id (0 when not recording).
    #[inline]
    fn record_elapsed(
        &mut self,
        phase: &str,
        deps: &[KernelId],
        elapsed: Duration,
        describe: impl FnOnce() -> Kernel,
    ) -> KernelId {
        if !self.is_recording() {
            return 0;
        }
        let cpu = CpuTime {
            wall_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
            threads: u32::try_from(rayon::current_num_threads()).unwrap_or(u32::MAX),
        };
        self.push(phase, deps, describe(), Some(cpu))
    }

    /// Records a kernel whose time is inside another record's (work interleaved with it
    /// that has a shape of its own), without a `cpu` measurement; 0 when not recording.
    #[inline]
    fn record_untimed(
        &mut self,
        phase: &str,
        deps: &[KernelId],
        describe: impl FnOnce() -> Kernel,
    ) -> KernelId {
        if !self.is_recording() {
            return 0;
        }
        self.push(phase, deps, describe(), None)
    }
}

/// The sink that keeps nothing: proving through it costs what proving without a sink would.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoTrace;

impl KernelSink for NoTrace {
    #[inline(always)]
    fn is_recording(&self) -> bool {
        false
    }

    #[inline(always)]
    fn push(&mut self, _: &str, _: &[KernelId], _: Kernel, _: Option<CpuTime>) -> KernelId {
        0
    }
}

impl<K: KernelSink + ?Sized> KernelSink for &mut K {
    #[inline(always)]
    fn is_recording(&self) -> bool {
        (**self).is_recording()
    }

    #[inline]
    fn push(
        &mut self,
        phase: &str,
        deps: &[KernelId],
        kernel: Kernel,
        cpu: Option<CpuTime>,
    ) -> KernelId {
        (**self).push(phase, deps, kernel, cpu)
    }
}

/// A sink that keeps every record ([`Tracer::recording`]), or, switched off at run time
/// ([`Tracer::off`]), nothing.
#[derive(Debug, Clone, Default)]
pub struct Tracer {
    records: Option<Vec<KernelRecord>>,
}

impl Tracer {
    /// A tracer that keeps every record.
    pub fn recording() -> Self {
        Self {
            records: Some(Vec::new()),
        }
    }

    /// A tracer that keeps nothing (for a front end that decides at run time; code that
    /// never records passes [`NoTrace`]).
    pub fn off() -> Self {
        Self { records: None }
    }

    /// The records so far.
    pub fn records(&self) -> &[KernelRecord] {
        self.records.as_deref().unwrap_or(&[])
    }

    /// The records, taken.
    pub fn into_records(self) -> Vec<KernelRecord> {
        self.records.unwrap_or_default()
    }

    /// Appends a record without a time, the description already built (the shape front end,
    /// which always records).
    pub(crate) fn push_untimed(
        &mut self,
        phase: &str,
        deps: &[KernelId],
        kernel: Kernel,
    ) -> KernelId {
        self.push(phase, deps, kernel, None)
    }

    /// The time so far by class and phase, against `total_ns` for the whole proof.
    pub fn breakdown(&self, total_ns: u64) -> Breakdown {
        Breakdown::from_records(self.records(), total_ns)
    }
}

impl KernelSink for Tracer {
    #[inline]
    fn is_recording(&self) -> bool {
        self.records.is_some()
    }

    fn push(
        &mut self,
        phase: &str,
        deps: &[KernelId],
        kernel: Kernel,
        cpu: Option<CpuTime>,
    ) -> KernelId {
        let Some(records) = &mut self.records else {
            return 0;
        };
        let id = records.len() as KernelId;
        records.push(KernelRecord {
            version: SCHEMA_VERSION,
            id,
            deps: deps.to_vec(),
            phase: phase.to_string(),
            kernel,
            cpu,
        });
        id
    }
}

/// Writes records as JSON Lines, one object per line.
///
/// # Errors
/// [`TraceError::Io`] when writing fails.
pub fn write_jsonl<W: Write>(records: &[KernelRecord], mut out: W) -> Result<(), TraceError> {
    for r in records {
        serde_json::to_writer(&mut out, r).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// Reads and [`validate`]s a JSON Lines trace (blank lines skipped), refusing lines over
/// 1 MiB and more than [`MAX_RECORDS`] records before reading further.
///
/// # Errors
/// [`TraceError::Parse`] naming the line for anything that is not a record,
/// [`TraceError::TooLong`], and what [`validate`] refuses.
pub fn read_jsonl<R: BufRead>(mut input: R) -> Result<Vec<KernelRecord>, TraceError> {
    let mut records = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = input
            .by_ref()
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            break;
        }
        if line.len() as u64 > MAX_LINE {
            return Err(TraceError::Parse {
                line: number,
                message: format!("longer than {MAX_LINE} bytes"),
            });
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if records.len() == MAX_RECORDS {
            return Err(TraceError::TooLong(MAX_RECORDS));
        }
        let record: KernelRecord =
            serde_json::from_slice(&line).map_err(|e| TraceError::Parse {
                line: number,
                message: e.to_string(),
            })?;
        records.push(record);
    }
    validate(&records)?;
    Ok(records)
}

/// The most bytes all the kernels of a trace may move together: 2^60, so that every byte total
/// a model computes over a validated trace (with its small factors: passes, reloads) fits a
/// `u64` and never saturates silently.
pub const MAX_TRACE_BYTES: u64 = 1 << 60;

/// Checks that records form a trace: this schema's version, ids 0, 1, 2… in order,
/// dependencies on earlier kernels only (ascending, no repeats), a phase of lower-case words
/// joined by `-`, a possible shape of at most [`crate::MAX_KERNEL_BYTES`], and at most
/// [`MAX_TRACE_BYTES`] in all.
///
/// # Errors
/// [`TraceError::Version`] or [`TraceError::Invalid`] naming the first bad record.
pub fn validate(records: &[KernelRecord]) -> Result<(), TraceError> {
    let mut total_bytes = 0u64;
    for (position, r) in records.iter().enumerate() {
        let invalid = |message: String| TraceError::Invalid {
            id: position as u64,
            message,
        };
        if r.version != SCHEMA_VERSION {
            return Err(TraceError::Version {
                id: r.id,
                found: r.version,
                expected: SCHEMA_VERSION,
            });
        }
        if r.id != position as u64 {
            return Err(invalid(format!("id {} at position {position}", r.id)));
        }
        if r.deps.windows(2).any(|w| w[0] >= w[1]) {
            return Err(invalid("dependencies out of order or repeated".into()));
        }
        if let Some(&d) = r.deps.iter().find(|&&d| d >= r.id) {
            return Err(invalid(format!(
                "depends on kernel {d}, not an earlier one"
            )));
        }
        let phase_ok = !r.phase.is_empty()
            && r.phase.split('-').all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
        if !phase_ok {
            return Err(invalid(format!("phase {:?} is not a word list", r.phase)));
        }
        if let Some(message) = r.kernel.shape_error() {
            return Err(invalid(message));
        }
        // Each record's volume is at most MAX_KERNEL_BYTES (checked just above).
        total_bytes = total_bytes
            .checked_add(r.kernel.volume_bytes().unwrap_or(u64::MAX))
            .filter(|&t| t <= MAX_TRACE_BYTES)
            .ok_or_else(|| {
                invalid(
                    "the trace moves more than 2^60 bytes in all (the models' byte totals \
                     would overflow)"
                        .into(),
                )
            })?;
        if r.cpu.is_some_and(|c| c.threads == 0) {
            return Err(invalid("measured on 0 threads".into()));
        }
    }
    Ok(())
}
