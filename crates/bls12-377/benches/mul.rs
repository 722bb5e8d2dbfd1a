//! BLS12-377 Fq (384-bit, six words) multiplication: ours (`Fp384`, on the kernel the CPU
//! picks; `ZKACCEL_SIMD=off` for the portable one) against arkworks 0.5 `ark_bls12_377::Fq` on
//! the same inputs, as a dependent chain (latency) and as a batch of independent products
//! (throughput, one product at a time and through `Fq::mul_assign_slices`).
//! `cargo bench -p zkaccel-bls12-377 --bench mul`.
#![allow(missing_docs)] // criterion_group! generates undocumented items
use ark_ff::PrimeField as _;
use criterion::{criterion_group, criterion_main, Criterion};
use zkaccel_bls12_377::Fq;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::bench::{latency, throughput, BATCH};

fn bench(c: &mut Criterion) {
    let mut rng = zkaccel_field_testing::rng();
    let a: Vec<Fq> = (0..BATCH)
        .map(|_| zkaccel_field_testing::random_prime(&mut rng))
        .collect();
    let b: Vec<Fq> = (0..BATCH)
        .map(|_| zkaccel_field_testing::random_prime(&mut rng))
        .collect();
    let to_ark = |x: &Fq| ark_bls12_377::Fq::from_le_bytes_mod_order(&x.to_bytes_le());
    let a_ark: Vec<ark_bls12_377::Fq> = a.iter().map(to_ark).collect();
    let b_ark: Vec<ark_bls12_377::Fq> = b.iter().map(to_ark).collect();

    let mut g = c.benchmark_group("mul-latency/bls12-377-fq");
    let (x, y) = (a[0], b[0]);
    latency(&mut g, "zkaccel", x, |v| v * y);
    let (xa, ya) = (a_ark[0], b_ark[0]);
    latency(&mut g, "arkworks", xa, |v| v * ya);
    g.finish();

    let mut g = c.benchmark_group("mul-throughput/bls12-377-fq");
    throughput(&mut g, "zkaccel", &a, &b, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    // The batch kernel (eight products at a time with AVX-512 IFMA where present).
    throughput(&mut g, "zkaccel-slices", &a, &b, |a, b| {
        Fq::mul_assign_slices(a, b)
    });
    throughput(&mut g, "arkworks", &a_ark, &b_ark, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
