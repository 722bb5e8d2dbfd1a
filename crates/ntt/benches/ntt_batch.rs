//! Batched Goldilocks NTTs and coset LDEs, the shapes a STARK prover runs, ours against
//! Plonky3 0.8 (`Radix2DitParallel` and `Radix2DFTSmallBatch`) on identical inputs, on one
//! thread and on all cores:
//!
//! - forward and inverse NTTs of `2^16 × 135` and `2^20 × 8` (`ZKACCEL_NTT_BATCH`,
//!   `LOGxCOLUMNS` comma-separated),
//! - coset LDEs (from evaluations, blowup 8, shift the field's generator) of `2^20 × 8` and
//!   `2^20 × 135` (`ZKACCEL_LDE_BATCH`; the second writes 9 GiB per call),
//!
//! ours in both layouts (index-major: Plonky3's row-major matrix; polynomial-major: one
//! column after another), Plonky3 on its row-major matrices. Outputs are each library's own:
//! ours in natural order (and, for the forward NTT, also bit-reversed), `Radix2DitParallel`'s
//! stored bit-reversed (the `BitReversedMatrixView` it returns, not copied out: what a
//! prover commits), `Radix2DFTSmallBatch`'s natural.
//!
//! Ours is built as users build it (no `target-cpu`: it picks AVX2/AVX-512 at run time);
//! Plonky3's packed Goldilocks needs `-C target-cpu=native` at build time, so
//! `scripts/bench-ntt-batch.sh` runs this bench twice — ours from the plain build, Plonky3's
//! from a native one — into one criterion directory and prints the ratios.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use p3_dft::{Radix2DFTSmallBatch, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_matrix::dense::RowMajorMatrix;
use rand::RngCore;
use zkaccel_field::Field;
use zkaccel_field_testing::bench::{on_threads, MODES};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::{Layout, LdeInput, NttPlan, Order};

type P3 = p3_goldilocks::Goldilocks;

/// `LOGxCOLUMNS` shapes from the comma-separated environment variable `var`, else `default`.
fn shapes(var: &str, default: &[(usize, usize)]) -> Vec<(usize, usize)> {
    std::env::var(var)
        .ok()
        .map(|s| {
            s.split(',')
                .filter_map(|x| {
                    let (l, c) = x.trim().split_once('x')?;
                    Some((l.parse().ok()?, c.parse().ok()?))
                })
                .collect()
        })
        .unwrap_or_else(|| default.to_vec())
}

/// A random `2^log_n × columns` row-major matrix, ours and Plonky3's copy, and ours
/// column-major.
fn matrix(log_n: usize, columns: usize) -> (Vec<Goldilocks>, Vec<P3>, Vec<Goldilocks>) {
    let mut r = rng();
    let rows = 1usize << log_n;
    let x: Vec<Goldilocks> = (0..rows * columns)
        .map(|_| random_prime(&mut r as &mut dyn RngCore))
        .collect();
    let theirs = x.iter().map(|v| P3::new(v.as_canonical_u64())).collect();
    let by_column = (0..columns)
        .flat_map(|c| (0..rows).map(move |i| (i, c)))
        .map(|(i, c)| x[i * columns + c])
        .collect();
    (x, theirs, by_column)
}

const LAYOUTS: [(&str, Layout); 2] = [
    ("zkaccel-index-major", Layout::IndexMajor),
    ("zkaccel-polynomial-major", Layout::PolynomialMajor),
];

fn batch_ntt(c: &mut Criterion) {
    for (log_n, columns) in shapes("ZKACCEL_NTT_BATCH", &[(16, 135), (20, 8)]) {
        let (x, theirs, by_column) = matrix(log_n, columns);
        let dit = Radix2DitParallel::<P3>::default();
        let small = Radix2DFTSmallBatch::<P3>::new(1 << log_n);
        for inverse in [false, true] {
            let dir = if inverse { "inverse" } else { "forward" };
            for (mode, one) in MODES {
                let plan = NttPlan::<Goldilocks>::new(log_n).unwrap().parallel(!one);
                let mut g =
                    c.benchmark_group(format!("batch-ntt-{dir}-2^{log_n}x{columns}-{mode}"));
                g.throughput(Throughput::Elements((columns << log_n) as u64));
                g.sample_size(10);
                for (name, layout) in LAYOUTS {
                    let input = if layout == Layout::IndexMajor {
                        &x
                    } else {
                        &by_column
                    };
                    g.bench_function(name, |b| {
                        b.iter_batched_ref(
                            || input.clone(),
                            |v| {
                                on_threads(one, || {
                                    if inverse {
                                        plan.inverse_batch(v, columns, layout, Order::NN)
                                    } else {
                                        plan.forward_batch(v, columns, layout, Order::NN)
                                    }
                                    .unwrap()
                                })
                            },
                            BatchSize::LargeInput,
                        )
                    });
                }
                if !inverse {
                    // Bit-reversed output, as Plonky3's `Radix2DitParallel` stores it.
                    g.bench_function("zkaccel-index-major-bit-reversed-out", |b| {
                        b.iter_batched_ref(
                            || x.clone(),
                            |v| {
                                on_threads(one, || {
                                    plan.forward_batch(v, columns, Layout::IndexMajor, Order::NR)
                                        .unwrap()
                                })
                            },
                            BatchSize::LargeInput,
                        )
                    });
                }
                let m = || RowMajorMatrix::new(theirs.clone(), columns);
                g.bench_function("plonky3-dit-parallel", |b| {
                    b.iter_batched(
                        m,
                        |m| {
                            on_threads(one, || {
                                if inverse {
                                    dit.idft_batch(m)
                                } else {
                                    // Kept bit-reversed (a view): what a prover commits.
                                    dit.dft_batch(m).inner
                                }
                            })
                        },
                        BatchSize::LargeInput,
                    )
                });
                g.bench_function("plonky3-small-batch", |b| {
                    b.iter_batched(
                        m,
                        |m| {
                            on_threads(one, || {
                                if inverse {
                                    small.idft_batch(m)
                                } else {
                                    small.dft_batch(m)
                                }
                            })
                        },
                        BatchSize::LargeInput,
                    )
                });
                g.finish();
            }
        }
    }
}

fn batch_lde(c: &mut Criterion) {
    const LOG_BLOWUP: usize = 3;
    for (log_n, columns) in shapes("ZKACCEL_LDE_BATCH", &[(20, 8), (20, 135)]) {
        let (x, theirs, by_column) = matrix(log_n, columns);
        let big_log = log_n + LOG_BLOWUP;
        let dit = Radix2DitParallel::<P3>::default();
        let small = Radix2DFTSmallBatch::<P3>::new(1 << big_log);
        let shift = <P3 as p3_field::Field>::GENERATOR;
        for (mode, one) in MODES {
            let plan = NttPlan::<Goldilocks>::new(big_log).unwrap().parallel(!one);
            let mut g = c.benchmark_group(format!(
                "batch-lde-2^{log_n}x{columns}-to-2^{big_log}-{mode}"
            ));
            g.throughput(Throughput::Elements((columns << log_n) as u64));
            g.sample_size(10);
            for (name, layout) in LAYOUTS {
                let input = if layout == Layout::IndexMajor {
                    &x
                } else {
                    &by_column
                };
                // Both sides drop their output outside the timing.
                g.bench_function(name, |b| {
                    b.iter_with_large_drop(|| {
                        on_threads(one, || {
                            plan.lde_batch(
                                input,
                                columns,
                                layout,
                                LOG_BLOWUP,
                                Goldilocks::GENERATOR,
                                LdeInput::Evaluations,
                            )
                            .unwrap()
                        })
                    })
                });
            }
            let m = || RowMajorMatrix::new(theirs.clone(), columns);
            g.bench_function("plonky3-dit-parallel", |b| {
                b.iter_batched(
                    m,
                    |m| {
                        on_threads(one, || {
                            // Kept bit-reversed (a view): what a prover commits.
                            dit.coset_lde_batch(m, LOG_BLOWUP, shift).inner
                        })
                    },
                    BatchSize::LargeInput,
                )
            });
            g.bench_function("plonky3-small-batch", |b| {
                b.iter_batched(
                    m,
                    |m| on_threads(one, || small.coset_lde_batch(m, LOG_BLOWUP, shift)),
                    BatchSize::LargeInput,
                )
            });
            g.finish();
        }
    }
}

criterion_group!(benches, batch_ntt, batch_lde);
criterion_main!(benches);
