//! NTTs, ours vs the peers in one group on identical inputs, on one thread and on all cores:
//! Goldilocks vs Plonky3 0.8 `Radix2DFTSmallBatch` (its fastest DFT) for the forward transform
//! and the coset LDE (evaluations, blowup 8, `coset_lde_batch`); BN254 Fr, BLS12-381 Fr and
//! the 384-bit BLS12-377 Fq vs ark-poly 0.5 `Radix2EvaluationDomain::fft_in_place`; bellman's Groth16 H kernel vs the same
//! steps with ark-poly. Sizes: `ZKACCEL_NTT_LOGS` (default `16,20`); the 256-bit fields and
//! the Goldilocks LDE stop at 2^22, the H kernel runs at 2^16 and 2^20 (where listed). The
//! issue's full range: `ZKACCEL_NTT_LOGS=12,14,16,18,20,22,24`.
//! `cargo bench -p zkaccel-ntt --bench ntt`.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use ark_ff::PrimeField as ArkPrimeField;
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use p3_dft::{Radix2DFTSmallBatch, TwoAdicSubgroupDft};
use p3_matrix::dense::RowMajorMatrix;
use rand::RngCore;
use zkaccel_bls12_377::Fq as Bls377Fq;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::bench::{logs_from_env, on_threads, MODES};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::{groth16_h, NttField, NttPlan, Order};

type P3 = p3_goldilocks::Goldilocks;

/// The largest `log2` size of the 256-bit transforms and of the LDE's input.
const MAX_LOG_256: usize = 22;
const MAX_LOG_LDE: usize = 22;
/// The sizes of the Groth16 H kernel.
const H_LOGS: [usize; 2] = [16, 20];

fn logs() -> Vec<usize> {
    logs_from_env("ZKACCEL_NTT_LOGS", &[16, 20])
}

fn goldilocks(c: &mut Criterion) {
    let mut r = rng();
    for log_n in logs() {
        let n = 1usize << log_n;
        let x: Vec<Goldilocks> = (0..n)
            .map(|_| random_prime(&mut r as &mut dyn RngCore))
            .collect();
        let theirs: Vec<P3> = x.iter().map(|v| P3::new(v.as_canonical_u64())).collect();
        let big_log = if log_n <= MAX_LOG_LDE {
            log_n + 3
        } else {
            log_n
        };
        let p3 = Radix2DFTSmallBatch::<P3>::new(1 << big_log);
        for (mode, one) in MODES {
            let plan = NttPlan::<Goldilocks>::new(big_log).unwrap().parallel(!one);
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
            g.bench_function("plonky3-small-batch", |b| {
                b.iter_batched(
                    || RowMajorMatrix::new_col(theirs.clone()),
                    |m| on_threads(one, || p3.dft_batch(m)),
                    BatchSize::LargeInput,
                )
            });
            g.finish();

            if log_n > MAX_LOG_LDE {
                continue;
            }
            let mut g = c.benchmark_group(format!(
                "lde-goldilocks-2^{log_n}-to-2^{}-{mode}",
                log_n + 3
            ));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            // Both sides drop their output outside the timing, as `iter_batched` does.
            g.bench_function("zkaccel", |b| {
                b.iter_with_large_drop(|| {
                    on_threads(one, || {
                        plan.lde_from_evaluations(
                            &x,
                            3,
                            <Goldilocks as zkaccel_field::Field>::GENERATOR,
                        )
                        .unwrap()
                    })
                })
            });
            g.bench_function("plonky3-small-batch", |b| {
                b.iter_batched(
                    || RowMajorMatrix::new_col(theirs.clone()),
                    |m| {
                        on_threads(one, || {
                            p3.coset_lde_batch(m, 3, <P3 as p3_field::Field>::GENERATOR)
                        })
                    },
                    BatchSize::LargeInput,
                )
            });
            g.finish();
        }
    }
}

fn to_ark<F: PrimeField, A: ArkPrimeField>(x: &F) -> A {
    A::from_le_bytes_mod_order(&x.to_bytes_le())
}

fn wide_field<F: PrimeField + NttField, A: ArkPrimeField>(c: &mut Criterion, name: &str) {
    let mut r = rng();
    for log_n in logs().into_iter().filter(|&l| l <= MAX_LOG_256) {
        let n = 1usize << log_n;
        let x: Vec<F> = (0..n)
            .map(|_| random_prime(&mut r as &mut dyn RngCore))
            .collect();
        let theirs: Vec<A> = x.iter().map(to_ark).collect();
        let domain = Radix2EvaluationDomain::<A>::new(n).unwrap();
        for (mode, one) in MODES {
            let plan = NttPlan::<F>::new(log_n).unwrap().parallel(!one);
            let mut g = c.benchmark_group(format!("ntt-{name}-2^{log_n}-{mode}"));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            g.bench_function("zkaccel", |b| {
                b.iter_batched_ref(
                    || x.clone(),
                    |v| on_threads(one, || plan.forward(v, Order::NN).unwrap()),
                    BatchSize::LargeInput,
                )
            });
            g.bench_function("ark-poly", |b| {
                b.iter_batched_ref(
                    || theirs.clone(),
                    |v| on_threads(one, || domain.fft_in_place(v)),
                    BatchSize::LargeInput,
                )
            });
            g.finish();
        }
        if !H_LOGS.contains(&log_n) {
            continue;
        }
        // The Groth16 H kernel (all cores).
        let (a, bb, cc) = (
            x.clone(),
            x.iter().rev().copied().collect::<Vec<F>>(),
            x.clone(),
        );
        let (ta, tb, tc): (Vec<A>, Vec<A>, Vec<A>) = (
            a.iter().map(to_ark).collect(),
            bb.iter().map(to_ark).collect(),
            cc.iter().map(to_ark).collect(),
        );
        let plan = NttPlan::<F>::new(log_n).unwrap();
        let mut g = c.benchmark_group(format!("groth16-h-{name}-2^{log_n}-all-cores"));
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(10);
        g.bench_function("zkaccel", |b| {
            b.iter(|| groth16_h(&plan, &a, &bb, &cc).unwrap())
        });
        g.bench_function("ark-poly", |b| b.iter(|| ark_h(&ta, &tb, &tc)));
        g.finish();
    }
}

/// bellman's H steps with ark-poly.
fn ark_h<A: ArkPrimeField>(a: &[A], b: &[A], c: &[A]) -> Vec<A> {
    let domain = Radix2EvaluationDomain::<A>::new(a.len()).unwrap();
    let m = domain.size();
    let coset = domain.get_coset(A::GENERATOR).unwrap();
    let on_coset = |v: &[A]| {
        let mut v = v.to_vec();
        domain.ifft_in_place(&mut v);
        coset.fft_in_place(&mut v);
        v
    };
    let mut h = on_coset(a);
    let eb = on_coset(b);
    let ec = on_coset(c);
    let z_inv = ark_ff::Field::inverse(&(ark_ff::Field::pow(&A::GENERATOR, [m as u64]) - A::one()))
        .unwrap();
    for ((x, y), z) in h.iter_mut().zip(&eb).zip(&ec) {
        *x = (*x * y - z) * z_inv;
    }
    coset.ifft_in_place(&mut h);
    h.truncate(m - 1);
    h
}

fn bench(c: &mut Criterion) {
    goldilocks(c);
    wide_field::<Bn, ark_bn254::Fr>(c, "bn254");
    wide_field::<Bls, ark_bls12_381::Fr>(c, "bls12-381");
    wide_field::<Bls377Fq, ark_bls12_377::Fq>(c, "bls12-377-fq");
}

criterion_group!(benches, bench);
criterion_main!(benches);
