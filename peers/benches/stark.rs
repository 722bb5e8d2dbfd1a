//! zkaccel's STARK prover against starky 1.1.0, in one group on the same AIR, trace, public
//! inputs and configuration (`standard_fast`), on one thread and on all cores: Fibonacci at
//! `ZKACCEL_STARK_LOGS` rows (default `16,18,20`) and Factorial at `ZKACCEL_STARK_FACTORIAL_LOGS`
//! (default `20`). starky runs multi-threaded only with its `parallel` feature, which this
//! bench requires: `scripts/bench-peers.sh --features parallel --bench stark`.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::polynomial::PolynomialValues;
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2::util::timing::TimingTree;
use starky::stark::Stark;
use zkaccel_field::Field;
use zkaccel_field_testing::bench::{logs_from_env, on_threads, MODES};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::NoTrace;
use zkaccel_peers::starky_airs::{their_config, FactorialStark, FibonacciStark};
use zkaccel_peers::to_plonky2;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_stark::{prove, Air, FactorialAir, FibonacciAir, StarkConfig};

type F = GoldilocksField;

fn group<A: Air, T: Stark<F, 2> + Copy>(
    c: &mut Criterion,
    name: &str,
    air: &A,
    theirs: T,
    log_rows: usize,
    (trace, pis): (Vec<Vec<Goldilocks>>, Vec<Goldilocks>),
) {
    let config = StarkConfig::standard_fast();
    let tc = their_config(&config);
    let their_trace: Vec<PolynomialValues<F>> = trace
        .iter()
        .map(|col| PolynomialValues::new(col.iter().map(|&x| to_plonky2(x)).collect()))
        .collect();
    let their_pis: Vec<F> = pis.iter().map(|&x| to_plonky2(x)).collect();
    let mut g = c.benchmark_group(format!("stark/{name}/2^{log_rows}"));
    g.sample_size(10);
    for (mode, one) in MODES {
        g.bench_function(BenchmarkId::new("zkaccel", mode), |b| {
            b.iter(|| {
                on_threads(one, || {
                    prove::<_, Plonky2Goldilocks>(air, &config, trace.clone(), &pis, &mut NoTrace)
                        .unwrap()
                })
            })
        });
        g.bench_function(BenchmarkId::new("starky", mode), |b| {
            b.iter(|| {
                on_threads(one, || {
                    starky::prover::prove::<F, PoseidonGoldilocksConfig, _, 2>(
                        theirs,
                        &tc,
                        their_trace.clone(),
                        &their_pis,
                        None,
                        &mut TimingTree::default(),
                    )
                    .unwrap()
                })
            })
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    for log_rows in logs_from_env("ZKACCEL_STARK_LOGS", &[16, 18, 20]) {
        let inputs = FibonacciAir::trace(1 << log_rows, Goldilocks::ZERO, Goldilocks::ONE).unwrap();
        let theirs = FibonacciStark::<F, 2>::default();
        group(c, "fibonacci", &FibonacciAir, theirs, log_rows, inputs);
    }
    for log_rows in logs_from_env("ZKACCEL_STARK_FACTORIAL_LOGS", &[20]) {
        let inputs = FactorialAir::trace(1 << log_rows).unwrap();
        let theirs = FactorialStark::<F, 2>::default();
        group(c, "factorial", &FactorialAir, theirs, log_rows, inputs);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
