//! Poseidon: ours vs the peers in one group per instance, on identical inputs.
//!
//! - `poseidon-goldilocks12-*`: plonky2's permutation — one at a time (latency of a dependent
//!   chain) and batches (every kernel on one thread, and all cores). plonky2 itself needs
//!   nightly features, so its figures come from `peers/` (`scripts/bench-peers.sh`), run
//!   beside this bench.
//! - `poseidon-neptune-arity{2,4,8,11}`: neptune 13's `Poseidon::hash` vs ours, one hash at a
//!   time, and batches on one thread and all cores (neptune has no CPU batch API: a rayon loop
//!   over its hash).
//! - `poseidon-circom-t3`: light-poseidon 0.5 vs ours.
//!
//! `cargo bench -p zkaccel-poseidon --bench poseidon`.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use ark_ff_06::PrimeField as _;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ff::PrimeField as _;
use generic_array::typenum::{U11, U2, U4, U8};
use light_poseidon::PoseidonHasher;
use neptune::poseidon::PoseidonConstants;
use rand::Rng;
use rayon::prelude::*;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::{Field, PrimeField};
use zkaccel_field_testing::bench::on_threads;
use zkaccel_field_testing::rng;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};

/// Independent inputs per batch.
const BATCH: usize = 1024;

fn random<F: PrimeField>(rng: &mut impl Rng) -> F {
    let bytes: Vec<u8> = (0..64).map(|_| rng.gen()).collect();
    F::from_bytes_le_reduced(&bytes)
}

fn one_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    on_threads(true, f)
}

fn goldilocks(c: &mut Criterion) {
    let mut r = rng();
    let h = Plonky2Poseidon::get();
    let states: Vec<Goldilocks> = (0..12 * BATCH).map(|_| random(&mut r)).collect();
    let start: [Goldilocks; 12] = states[..12].try_into().unwrap();

    let mut g = c.benchmark_group("poseidon-goldilocks12-latency");
    g.throughput(Throughput::Elements(1));
    g.bench_function("zkaccel", |b| {
        let mut s = start;
        b.iter(|| {
            h.permute(black_box(&mut s));
        })
    });
    g.finish();

    let mut g = c.benchmark_group("poseidon-goldilocks12-batch-1-thread");
    g.throughput(Throughput::Elements(BATCH as u64));
    for lanes in Goldilocks::packing_widths() {
        let mut s = states.clone();
        g.bench_function(format!("zkaccel-{lanes}-lanes"), |b| {
            b.iter(|| h.permutation().permute_many_within(lanes, &mut s).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("poseidon-goldilocks12-batch-all-cores");
    g.throughput(Throughput::Elements(BATCH as u64 * 16));
    let mut big: Vec<Goldilocks> = (0..16).flat_map(|_| states.clone()).collect();
    g.bench_function("zkaccel", |b| {
        b.iter(|| h.permutation().permute_many(&mut big).unwrap())
    });
    g.finish();
}

fn to_blstrs(x: &Bls) -> blstrs::Scalar {
    blstrs::Scalar::from_repr(x.to_bytes_le().try_into().unwrap()).unwrap()
}

macro_rules! neptune_group {
    ($c:expr, $arity:ty, $k:expr) => {{
        let mut r = rng();
        let ours = NeptunePoseidon::<Bls>::new($k, Strength::Standard).unwrap();
        let theirs = PoseidonConstants::<blstrs::Scalar, $arity>::new();
        let inputs: Vec<Bls> = (0..$k * BATCH).map(|_| random(&mut r)).collect();
        let inputs_theirs: Vec<blstrs::Scalar> = inputs.iter().map(to_blstrs).collect();
        let neptune_hash = |pre: &[blstrs::Scalar]| {
            neptune::poseidon::Poseidon::new_with_preimage(pre, &theirs).hash()
        };

        let mut g = $c.benchmark_group(format!("poseidon-neptune-arity{}-single", $k));
        g.throughput(Throughput::Elements(1));
        g.bench_function("zkaccel", |b| b.iter(|| ours.hash(black_box(&inputs[..$k])).unwrap()));
        g.bench_function("neptune", |b| b.iter(|| neptune_hash(black_box(&inputs_theirs[..$k]))));
        g.finish();

        let mut g = $c.benchmark_group(format!("poseidon-neptune-arity{}-batch-1-thread", $k));
        g.throughput(Throughput::Elements(BATCH as u64));
        g.sample_size(10);
        g.bench_function("zkaccel", |b| b.iter(|| one_thread(|| ours.hash_many(&inputs).unwrap())));
        g.bench_function("neptune", |b| {
            b.iter(|| inputs_theirs.chunks($k).map(|c| neptune_hash(c)).collect::<Vec<_>>())
        });
        g.finish();

        let mut g = $c.benchmark_group(format!("poseidon-neptune-arity{}-batch-all-cores", $k));
        g.throughput(Throughput::Elements(BATCH as u64));
        g.sample_size(10);
        g.bench_function("zkaccel", |b| b.iter(|| ours.hash_many(&inputs).unwrap()));
        g.bench_function("neptune", |b| {
            b.iter(|| inputs_theirs.par_chunks($k).map(|c| neptune_hash(c)).collect::<Vec<_>>())
        });
        g.finish();
    }};
}

fn neptune_bls(c: &mut Criterion) {
    neptune_group!(c, U2, 2);
    neptune_group!(c, U4, 4);
    neptune_group!(c, U8, 8);
    neptune_group!(c, U11, 11);
}

fn circom(c: &mut Criterion) {
    let mut r = rng();
    let ours = CircomPoseidon::get(3).unwrap();
    let mut theirs = light_poseidon::Poseidon::<ark_bn254_06::Fr>::new_circom(2).unwrap();
    let inputs: Vec<Bn> = (0..2 * BATCH).map(|_| random(&mut r)).collect();
    let inputs_ark: Vec<ark_bn254_06::Fr> = inputs
        .iter()
        .map(|x| ark_bn254_06::Fr::from_le_bytes_mod_order(&x.to_bytes_le()))
        .collect();

    let mut g = c.benchmark_group("poseidon-circom-t3-single");
    g.throughput(Throughput::Elements(1));
    g.bench_function("zkaccel", |b| {
        b.iter(|| ours.hash(black_box(&inputs[..2])).unwrap())
    });
    g.bench_function("light-poseidon", |b| {
        b.iter(|| theirs.hash(black_box(&inputs_ark[..2])).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("poseidon-circom-t3-batch-1-thread");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.sample_size(10);
    g.bench_function("zkaccel", |b| {
        b.iter(|| one_thread(|| ours.hash_many(&inputs).unwrap()))
    });
    g.bench_function("light-poseidon", |b| {
        b.iter(|| {
            inputs_ark
                .chunks(2)
                .map(|c| theirs.hash(c).unwrap())
                .collect::<Vec<_>>()
        })
    });
    g.finish();
}

criterion_group!(benches, goldilocks, neptune_bls, circom);
criterion_main!(benches);
