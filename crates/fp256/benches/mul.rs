//! 256-bit field multiplication, BN254 Fr and BLS12-381 Fr: ours (IFMA batch, mulx/adx and
//! portable) against arkworks 0.5 on the same inputs, and the papers' reference algorithms.
//! `cargo bench -p zkaccel-fp256 --bench mul`.
#![allow(missing_docs)] // criterion_group! generates undocumented items
use criterion::{criterion_group, criterion_main, Criterion};
use zkaccel_field::modmul::MulAlgorithm;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::bench::{latency, throughput, BATCH};
use zkaccel_fp256::{Fp256, Fp256Config, MulBackend};

/// The full comparison for a 256-bit field: latency and throughput of multiplication on every
/// kernel and algorithm of ours, and of the arkworks field `A` on the same inputs. `zkaccel` in
/// the throughput group is the batch API (AVX-512 IFMA when present, chosen at run time);
/// `zkaccel-scalar` multiplies one element at a time like the arkworks loop.
fn mul_vs_arkworks<C: Fp256Config, A: ark_ff::PrimeField>(c: &mut Criterion, field: &str) {
    let mut rng = zkaccel_field_testing::rng();
    let a: Vec<Fp256<C>> = (0..BATCH)
        .map(|_| zkaccel_field_testing::random_prime(&mut rng))
        .collect();
    let b: Vec<Fp256<C>> = (0..BATCH)
        .map(|_| zkaccel_field_testing::random_prime(&mut rng))
        .collect();
    let to_ark = |x: &Fp256<C>| A::from_le_bytes_mod_order(&x.to_bytes_le());
    let a_ark: Vec<A> = a.iter().map(to_ark).collect();
    let b_ark: Vec<A> = b.iter().map(to_ark).collect();

    let mut g = c.benchmark_group(format!("mul-latency/{field}"));
    let (x, y) = (a[0], b[0]);
    latency(&mut g, "zkaccel", x, |v| v * y);
    latency(&mut g, "zkaccel-portable", x, |v| {
        v.mul_using(y, MulBackend::Portable)
    });
    let (xa, ya) = (a_ark[0], b_ark[0]);
    latency(&mut g, "arkworks", xa, |v| v * ya);
    g.finish();

    let mut g = c.benchmark_group(format!("mul-throughput/{field}"));
    throughput(&mut g, "zkaccel", &a, &b, |a, b| {
        Fp256::<C>::mul_assign_slices(a, b)
    });
    throughput(&mut g, "zkaccel-scalar", &a, &b, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    throughput(&mut g, "zkaccel-portable", &a, &b, |a, b| {
        a.iter_mut()
            .zip(b)
            .for_each(|(x, y)| *x = x.mul_using(*y, MulBackend::Portable))
    });
    throughput(&mut g, "arkworks", &a_ark, &b_ark, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    g.finish();

    // The papers' reference algorithms on canonical residues (much slower; a smaller batch).
    let mut g = c.benchmark_group(format!("mul-algorithm/{field}"));
    let ca: Vec<_> = a[..256].iter().map(|x| x.to_canonical_u256()).collect();
    let cb: Vec<_> = b[..256].iter().map(|x| x.to_canonical_u256()).collect();
    let mont = C::MONT;
    let barrett = Fp256::<C>::barrett();
    let peasant = Fp256::<C>::peasant();
    for alg in MulAlgorithm::ALL {
        throughput(&mut g, alg.name(), &ca, &cb, |a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                *x = match alg {
                    MulAlgorithm::Montgomery => mont.mul(x, y),
                    MulAlgorithm::Barrett => barrett.mul(x, y),
                    MulAlgorithm::RussianPeasant => peasant.mul(x, y),
                };
            }
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    mul_vs_arkworks::<zkaccel_bn254::FrConfig, ark_bn254::Fr>(c, "bn254");
    mul_vs_arkworks::<zkaccel_bls12_381::FrConfig, ark_bls12_381::Fr>(c, "bls12-381");
}

criterion_group!(benches, bench);
criterion_main!(benches);
