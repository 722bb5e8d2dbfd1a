//! plonky2 1.1.0 vs zkaccel on Goldilocks NTTs, in one group on identical inputs: the forward
//! transform (`fft_with_options` with a precomputed root table, as plonky2's prover calls it)
//! and the low-degree extension of `PolynomialBatch::from_values` (`ifft`, zero-pad,
//! `coset_fft_with_options` with the zero factor), blowup 8. plonky2 transforms one
//! polynomial on one thread (its prover parallelises across polynomials), so it runs
//! single-threaded in both modes; ours runs on one thread and on all cores. Sizes:
//! `ZKACCEL_NTT_LOGS` (default `16,20`); the extension runs up to 2^22 → 2^25.
//! `scripts/bench-peers.sh --bench plonky2_ntt` (needs `RUSTC_BOOTSTRAP=1`).
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use plonky2::field::fft::{fft_root_table, fft_with_options, ifft_with_options};
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::polynomial::{PolynomialCoeffs, PolynomialValues};
use plonky2::field::types::Field as _;
use rand::{Rng, SeedableRng};
use zkaccel_field_testing::bench::{logs_from_env, on_threads, MODES};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::{Algorithm, NttPlan, Order, DEFAULT_CORE_LOG};
use zkaccel_peers::to_plonky2;

const LOG_BLOWUP: usize = 3;
const MAX_LDE_LOG: usize = 22;

fn logs() -> Vec<usize> {
    logs_from_env("ZKACCEL_NTT_LOGS", &[16, 20])
}

fn bench(c: &mut Criterion) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for log_n in logs() {
        let n = 1usize << log_n;
        let x: Vec<Goldilocks> = (0..n)
            .map(|_| Goldilocks::new_reduced(rng.gen_range(0..zkaccel_goldilocks::ORDER)))
            .collect();
        let theirs: Vec<GoldilocksField> = x.iter().map(|&v| to_plonky2(v)).collect();
        let lde = log_n <= MAX_LDE_LOG;
        let big_log = if lde { log_n + LOG_BLOWUP } else { log_n };
        // plonky2's roots and coset shift, for both (another generator than Plonky3's).
        let shift = Goldilocks::PLONKY2_GENERATOR;
        let root = Goldilocks::plonky2_two_adic_generator(32).unwrap();
        let table = fft_root_table::<GoldilocksField>(n);
        let big_table = lde.then(|| fft_root_table::<GoldilocksField>(n << LOG_BLOWUP));
        for (mode, one) in MODES {
            let algorithm = Algorithm::FourStep {
                core_log: DEFAULT_CORE_LOG,
            };
            let plan = NttPlan::<Goldilocks>::with_two_adic_root(big_log, algorithm, root)
                .unwrap()
                .parallel(!one);
            let mut g = c.benchmark_group(format!("ntt-goldilocks-2^{log_n}-{mode}"));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            g.bench_function("zkaccel", |b| {
                b.iter_batched_ref(
                    || x.clone(),
                    |v| on_threads(one, || plan.forward(v, Order::NN).unwrap()),
                    BatchSize::LargeInput,
                )
            });
            g.bench_function("plonky2", |b| {
                b.iter_batched(
                    || PolynomialCoeffs::new(theirs.clone()),
                    |p| fft_with_options(p, None, Some(&table)),
                    BatchSize::LargeInput,
                )
            });
            g.finish();

            let Some(big_table) = &big_table else {
                continue;
            };
            let mut g =
                c.benchmark_group(format!("lde-goldilocks-2^{log_n}-to-2^{big_log}-{mode}"));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            g.bench_function("zkaccel", |b| {
                b.iter_with_large_drop(|| {
                    on_threads(one, || {
                        plan.lde_from_evaluations(&x, LOG_BLOWUP, shift).unwrap()
                    })
                })
            });
            g.bench_function("plonky2", |b| {
                b.iter_batched(
                    || PolynomialValues::new(theirs.clone()),
                    |v| {
                        let coeffs = ifft_with_options(v, None, Some(&table));
                        coeffs.lde(LOG_BLOWUP).coset_fft_with_options(
                            GoldilocksField::coset_shift(),
                            Some(LOG_BLOWUP),
                            Some(big_table),
                        )
                    },
                    BatchSize::LargeInput,
                )
            });
            g.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
