//! Table VII of the FPGA NTT paper on this machine: the Groth16 prover's H kernel (bellman's
//! seven transforms: three `ifft`, three `coset_fft`, one `icoset_fft`, with the pointwise
//! `A·B − C` and the division by `Z` on the coset) over BLS12-381 Fr, ours (`groth16_h`)
//! beside bellman 0.14 itself (`EvaluationDomain`, its prover's steps) on identical inputs,
//! on one thread and on all cores (both libraries on the same rayon pool).
//!
//! Sizes: the paper's input sizes, each run at its padded transform size 2·next_pow2(n)
//! (1,000 → 2,048 … 1,000,000 → 2,097,152; see `zkaccel_hwmodel::ntt_fpga::table_vii_points`).
//! `ZKACCEL_TABLE_VII_SIZES` (default `1000,10000`; the paper's full range:
//! `1000,10000,100000,1000000`). `scripts/bench-table-vii.sh` runs it and prints the ratios
//! beside the paper's columns and the model's.
#![allow(missing_docs)] // criterion_group! generates undocumented items

#[path = "../tests/common/bellman_peer.rs"]
mod bellman_peer;

use bellman_peer::{bellman_h, to_bellman};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::RngCore;
use zkaccel_bls12_381::Fr;
use zkaccel_field_testing::bench::{on_threads, MODES};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_ntt::{groth16_h, NttPlan};

fn sizes() -> Vec<u64> {
    std::env::var("ZKACCEL_TABLE_VII_SIZES")
        .ok()
        .map(|s| {
            s.split(',')
                .map(|t| {
                    t.trim()
                        .parse()
                        .expect("ZKACCEL_TABLE_VII_SIZES: decimal sizes")
                })
                .collect()
        })
        .unwrap_or_else(|| vec![1000, 10_000])
}

fn table_vii(c: &mut Criterion) {
    let mut r = rng();
    for input_size in sizes() {
        let n = 2 * input_size.max(1).next_power_of_two() as usize;
        let mut sample = || -> Vec<Fr> {
            (0..n)
                .map(|_| random_prime(&mut r as &mut dyn RngCore))
                .collect()
        };
        let (a, b, cc) = (sample(), sample(), sample());
        let theirs = |v: &[Fr]| v.iter().map(to_bellman).collect::<Vec<_>>();
        let (ta, tb, tc) = (theirs(&a), theirs(&b), theirs(&cc));
        let plan = NttPlan::<Fr>::new(n.trailing_zeros() as usize).unwrap();
        for (mode, one) in MODES {
            let plan = plan.clone().parallel(!one);
            let mut g = c.benchmark_group(format!("table-vii-n{input_size}-{mode}"));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            g.bench_function("zkaccel", |bench| {
                bench.iter(|| on_threads(one, || groth16_h(&plan, &a, &b, &cc).unwrap()))
            });
            g.bench_function("bellman", |bench| {
                bench.iter(|| on_threads(one, || bellman_h(ta.clone(), tb.clone(), tc.clone())))
            });
            g.finish();
        }
    }
}

criterion_group!(benches, table_vii);
criterion_main!(benches);
