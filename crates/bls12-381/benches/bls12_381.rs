//! BLS12-381 Fr multiplication: ours (IFMA batch, mulx/adx and portable) vs arkworks 0.5, and
//! the papers' reference algorithms. `cargo bench -p zkaccel-bls12-381`.
#![allow(missing_docs)] // criterion_group! generates undocumented items
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    zkaccel_field_testing::bench::fp256_mul_vs_arkworks::<
        zkaccel_bls12_381::FrConfig,
        ark_bls12_381::Fr,
    >(c, "bls12-381");
}

criterion_group!(benches, bench);
criterion_main!(benches);
