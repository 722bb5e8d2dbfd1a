//! plonky2 1.1.0 vs zkaccel on plonky2's Poseidon (Goldilocks, width 12), in one group on
//! identical inputs: one permutation at a time, and a batch of 1024 on one thread and on all
//! cores (plonky2 has no batch API: a rayon loop over its permutation).
//! `scripts/bench-peers.sh` (needs `RUSTC_BOOTSTRAP=1`).
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::hash::poseidon::Poseidon;
use rand::{Rng, SeedableRng};
use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_peers::to_plonky2;
use zkaccel_plonky2::Plonky2Poseidon;

const BATCH: usize = 1024;

fn bench(c: &mut Criterion) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let ours = Plonky2Poseidon::get();
    let states: Vec<Goldilocks> = (0..12 * BATCH)
        .map(|_| Goldilocks::new_reduced(rng.gen_range(0..zkaccel_goldilocks::ORDER)))
        .collect();
    let theirs: Vec<[GoldilocksField; 12]> = states
        .chunks(12)
        .map(|s| core::array::from_fn(|i| to_plonky2(s[i])))
        .collect();

    let mut g = c.benchmark_group("poseidon-goldilocks12-single");
    g.throughput(Throughput::Elements(1));
    let mut s: [Goldilocks; 12] = states[..12].try_into().unwrap();
    g.bench_function("zkaccel", |b| b.iter(|| ours.permute(black_box(&mut s))));
    let mut t = theirs[0];
    g.bench_function("plonky2", |b| {
        b.iter(|| t = GoldilocksField::poseidon(black_box(t)))
    });
    g.finish();

    let mut g = c.benchmark_group("poseidon-goldilocks12-batch-1-thread");
    g.throughput(Throughput::Elements(BATCH as u64));
    let lanes = Goldilocks::packing_widths()[0];
    let mut s = states.clone();
    g.bench_function(format!("zkaccel-{lanes}-lanes"), |b| {
        b.iter(|| {
            ours.permutation()
                .permute_many_within(lanes, &mut s)
                .unwrap()
        })
    });
    let mut t = theirs.clone();
    g.bench_function("plonky2", |b| {
        b.iter(|| {
            for x in t.iter_mut() {
                *x = GoldilocksField::poseidon(*x);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("poseidon-goldilocks12-batch-all-cores");
    g.throughput(Throughput::Elements(BATCH as u64));
    let mut s = states.clone();
    g.bench_function("zkaccel", |b| {
        b.iter(|| ours.permutation().permute_many(&mut s).unwrap())
    });
    let mut t = theirs.clone();
    g.bench_function("plonky2", |b| {
        use rayon::prelude::*;
        b.iter(|| {
            t.par_iter_mut()
                .for_each(|x| *x = GoldilocksField::poseidon(*x))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
