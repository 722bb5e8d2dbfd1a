//! Goldilocks multiplication: ours (scalar, AVX2, AVX-512) vs Plonky3's `p3-goldilocks` (scalar,
//! and its packing, whose width depends on the target features the bench is compiled with:
//! `RUSTFLAGS="-C target-cpu=native"` gives Plonky3 its AVX-512 packing). `cargo bench -p
//! zkaccel-goldilocks`.
#![allow(missing_docs)] // criterion_group! generates undocumented items
use criterion::{criterion_group, criterion_main, Criterion};
use p3_field::{Field as P3Field, PackedValue, PrimeCharacteristicRing};
use zkaccel_field_testing::bench::{latency, throughput, BATCH};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};

type P3 = p3_goldilocks::Goldilocks;

fn bench(c: &mut Criterion) {
    let mut rng = rng();
    let a: Vec<Goldilocks> = (0..BATCH).map(|_| random_prime(&mut rng)).collect();
    let b: Vec<Goldilocks> = (0..BATCH).map(|_| random_prime(&mut rng)).collect();
    let a3: Vec<P3> = a
        .iter()
        .map(|x| P3::from_u64(x.as_canonical_u64()))
        .collect();
    let b3: Vec<P3> = b
        .iter()
        .map(|x| P3::from_u64(x.as_canonical_u64()))
        .collect();

    let mut g = c.benchmark_group("mul-latency/goldilocks");
    let (x, y) = (a[0], b[0]);
    latency(&mut g, "zkaccel", x, |v| v * y);
    let (x3, y3) = (a3[0], b3[0]);
    latency(&mut g, "plonky3", x3, |v| v * y3);
    g.finish();

    let mut g = c.benchmark_group("mul-throughput/goldilocks");
    throughput(&mut g, "zkaccel-scalar", &a, &b, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    #[cfg(target_arch = "x86_64")]
    {
        use zkaccel_goldilocks::x86_64::{mul_assign_slices_with, Backend};
        throughput(&mut g, "zkaccel-avx2", &a, &b, |a, b| {
            mul_assign_slices_with(Backend::Avx2, a, b)
        });
        throughput(&mut g, "zkaccel-avx512", &a, &b, |a, b| {
            mul_assign_slices_with(Backend::Avx512, a, b)
        });
    }
    throughput(&mut g, "plonky3-scalar", &a3, &b3, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    let width = <P3 as P3Field>::Packing::WIDTH;
    throughput(
        &mut g,
        &format!("plonky3-packed-{width}"),
        &a3,
        &b3,
        |a, b| {
            let pa = <P3 as P3Field>::Packing::pack_slice_mut(a);
            let pb = <P3 as P3Field>::Packing::pack_slice(b);
            pa.iter_mut().zip(pb).for_each(|(x, y)| *x *= *y);
        },
    );
    g.finish();

    // The quadratic extension (Plonky2's challenge field): ours vs Plonky3's binomial extension.
    type P3Ext = p3_field::extension::BinomialExtensionField<P3, 2>;
    let ea: Vec<Goldilocks2> = a.chunks(2).map(|c| Goldilocks2::new(c[0], c[1])).collect();
    let eb: Vec<Goldilocks2> = b.chunks(2).map(|c| Goldilocks2::new(c[0], c[1])).collect();
    let ea3: Vec<P3Ext> = a3.chunks(2).map(|c| P3Ext::new([c[0], c[1]])).collect();
    let eb3: Vec<P3Ext> = b3.chunks(2).map(|c| P3Ext::new([c[0], c[1]])).collect();
    let mut g = c.benchmark_group("mul-latency/goldilocks2");
    let (x, y) = (ea[0], eb[0]);
    latency(&mut g, "zkaccel", x, |v| v * y);
    let (x3, y3) = (ea3[0], eb3[0]);
    latency(&mut g, "plonky3", x3, |v| v * y3);
    g.finish();
    let mut g = c.benchmark_group("mul-throughput/goldilocks2");
    throughput(&mut g, "zkaccel", &ea, &eb, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    throughput(&mut g, "plonky3", &ea3, &eb3, |a, b| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x *= *y)
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
