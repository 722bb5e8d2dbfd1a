//! Shared criterion bodies, so every field and every peer is measured the same way.
//!
//! - **latency**: a dependent chain `x ← f(x)` of [`CHAIN`] steps; each step waits for the last.
//! - **throughput**: a kernel over an independent batch of [`BATCH`] elements (`a[i] ← a[i]·b[i]`).
//!
//! Results are reported per element, named `<kernel>/<field>/<impl>` inside a group whose other
//! members are the peers on the same inputs.

use criterion::measurement::WallTime;
use criterion::{black_box, BatchSize, BenchmarkGroup, Throughput};

/// Steps of a latency chain.
pub const CHAIN: usize = 1024;
/// Elements of a throughput batch.
pub const BATCH: usize = 4096;

/// Times a dependent chain of [`CHAIN`] applications of `step` starting at `start`.
pub fn latency<T: Copy>(group: &mut BenchmarkGroup<'_, WallTime>, id: &str, start: T, step: impl Fn(T) -> T) {
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

/// Times `kernel(a, b)` over an independent batch (`a` is rebuilt from `a0` between runs).
pub fn throughput<T: Copy>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    a0: &[T],
    b: &[T],
    kernel: impl Fn(&mut [T], &[T]),
) {
    group.throughput(Throughput::Elements(a0.len() as u64));
    group.bench_function(id, |bench| {
        bench.iter_batched_ref(
            || a0.to_vec(),
            |a| {
                kernel(a, black_box(b));
            },
            BatchSize::SmallInput,
        )
    });
}
