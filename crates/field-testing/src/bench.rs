//! Shared criterion bodies, so every field and every peer is measured the same way.
//!
//! - **latency**: a dependent chain `x ← f(x)` of [`CHAIN`] steps; each step waits for the last.
//! - **throughput**: a kernel over an independent batch of [`BATCH`] elements (`a[i] ← a[i]·b[i]`).
//!
//! Results are reported per element, named `<kernel>/<field>/<impl>` inside a group whose other
//! members are the peers on the same inputs.

use criterion::measurement::WallTime;
use criterion::{black_box, BenchmarkGroup, Throughput};

/// Steps of a latency chain.
pub const CHAIN: usize = 1024;
/// Elements of a throughput batch.
pub const BATCH: usize = 4096;

/// Times a dependent chain of [`CHAIN`] applications of `step` starting at `start`.
pub fn latency<T: Copy>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    start: T,
    step: impl Fn(T) -> T,
) {
    group.throughput(Throughput::Elements(CHAIN as u64));
    group.bench_function(id, |b| {
        b.iter(|| {
            let mut x = black_box(start);
            for _ in 0..CHAIN {
                x = step(x);
            }
            x
        })
    });
}

/// Times `kernel(a, b)` over an independent batch. `a` starts as a copy of `a0` and is updated
/// in place run after run (so it stays in cache, like a kernel's working set, and stays a
/// valid input: products of non-zero elements are non-zero).
pub fn throughput<T: Copy>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    a0: &[T],
    b: &[T],
    kernel: impl Fn(&mut [T], &[T]),
) {
    group.throughput(Throughput::Elements(a0.len() as u64));
    let mut a = a0.to_vec();
    group.bench_function(id, |bench| bench.iter(|| kernel(&mut a, black_box(b))));
    black_box(&a);
}

/// Runs `f` on one thread (`one`) or on rayon's default pool. The one-thread pool is built
/// once, so iterations do not time its creation (tens of microseconds, which would blur the
/// ratios of small inputs).
pub fn on_threads<R: Send>(one: bool, f: impl FnOnce() -> R + Send) -> R {
    static ONE_THREAD: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    if one {
        ONE_THREAD
            .get_or_init(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .expect("a one-thread pool")
            })
            .install(f)
    } else {
        f()
    }
}

/// The thread modes a bench group is run in: one thread, and rayon's default pool.
pub const MODES: [(&str, bool); 2] = [("1-thread", true), ("all-cores", false)];

/// `log2` sizes from the comma-separated environment variable `var`, else `default`.
pub fn logs_from_env(var: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(var)
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

/// The CPU clock read next to the wall clock in alternating comparisons (the `*_compare`
/// examples): on a machine shared with other tenants, CPU time is the fairer figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpuClock {
    /// All threads of this process (multi-threaded work).
    Process,
    /// The calling thread only (single-thread latency).
    Thread,
}

impl CpuClock {
    /// The clock's reading in seconds; NaN where it cannot be read.
    pub fn seconds(self) -> f64 {
        #[cfg(target_os = "linux")]
        {
            let id = match self {
                CpuClock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
                CpuClock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
            };
            let mut t = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `t` is a valid, writable timespec.
            if unsafe { libc::clock_gettime(id, &mut t) } == 0 {
                return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
            }
        }
        let _ = self;
        f64::NAN
    }
}

/// Runs `f` and returns its (wall, CPU) time in seconds; its result is dropped outside the
/// timing.
pub fn timed<T>(clock: CpuClock, f: impl FnOnce() -> T) -> (f64, f64) {
    let (wall, cpu) = (std::time::Instant::now(), clock.seconds());
    let out = f();
    let times = (wall.elapsed().as_secs_f64(), clock.seconds() - cpu);
    drop(out);
    times
}

/// Prints the best and median of (wall, CPU) samples, each multiplied by `scale` and shown in
/// `unit`; returns the scaled (wall, CPU) medians.
pub fn report_samples(name: &str, samples: &[(f64, f64)], scale: f64, unit: &str) -> (f64, f64) {
    let sorted = |pick: fn(&(f64, f64)) -> f64| {
        let mut v: Vec<f64> = samples.iter().map(|t| pick(t) * scale).collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let (wall, cpu) = (sorted(|t| t.0), sorted(|t| t.1));
    let (mw, mc) = (wall[wall.len() / 2], cpu[cpu.len() / 2]);
    println!(
        "  {name:14} wall best {:9.3} median {mw:9.3} {unit} | cpu best {:9.3} median {mc:9.3} {unit}",
        wall[0], cpu[0]
    );
    (mw, mc)
}
