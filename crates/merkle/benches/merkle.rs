//! Merkle trees, ours vs the peer in one group on identical leaves, all cores:
//! neptune 13 binary trees over BLS12-381 (neptune's CPU tree builder is behind its GPU
//! features, so the peer is its `Poseidon::hash` in a level-by-level rayon loop, which is what
//! that builder computes), 2^12 and 2^16 leaves. plonky2's `MerkleTree::new` is compared in
//! `peers/` (it needs nightly features). Larger trees: `examples/neptune_compare.rs`.
//! `cargo bench -p zkaccel-merkle --bench merkle`.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ff::PrimeField as _;
use generic_array::typenum::U2;
use neptune::poseidon::PoseidonConstants;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::rng;
use zkaccel_merkle::MerkleTree;
use zkaccel_presets::{NeptuneHasher, NeptunePoseidon, Strength};

#[path = "common/neptune_tree.rs"]
mod neptune_tree;
use neptune_tree::{neptune_root, random_leaves};

fn bench(c: &mut Criterion) {
    let mut r = rng();
    let hasher = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(2, Strength::Standard).unwrap());
    let constants = PoseidonConstants::<blstrs::Scalar, U2>::new();
    for log_n in [12, 16] {
        let n = 1usize << log_n;
        let (leaves, theirs) = random_leaves(&mut r, n);
        let ours_root = MerkleTree::new(hasher.clone(), leaves.clone(), 1, 0)
            .unwrap()
            .cap()[0];
        let their_root = neptune_root(&constants, &theirs);
        assert_eq!(
            ours_root.to_bytes_le(),
            their_root.to_repr().to_vec(),
            "same root"
        );

        let mut g = c.benchmark_group(format!("merkle-neptune-arity2-2^{log_n}-all-cores"));
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(10);
        g.bench_function("zkaccel", |b| {
            b.iter(|| MerkleTree::new(hasher.clone(), leaves.clone(), 1, 0).unwrap())
        });
        g.bench_function("neptune", |b| b.iter(|| neptune_root(&constants, &theirs)));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
