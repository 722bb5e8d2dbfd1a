//! MiMC (circomlib preset, BN254, x^7, 91 rounds): ours vs arkworks-mimc 0.3.0, the CPU baseline
//! AMAZE measured, in one group on identical inputs: single-cipher latency, and batch throughput
//! on one thread and on all cores (rayon over arkworks-mimc's cipher for the peer, since it has
//! no batch API). Then circomlib's MiMCSponge (x^5, 220 rounds) hashing two elements with key 0
//! (a Merkle tree node): one hash, and a batch of them on all cores, against arkworks-mimc's
//! `permute_feistel`. `cargo bench -p zkaccel-mimc --bench mimc`.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use ark_ff_03::PrimeField as _;
use arkworks_mimc::params::mimc_5_220_bn254::{
    MIMC_5_220_BN254_PARAMS, MIMC_5_220_BN254_ROUND_KEYS,
};
use arkworks_mimc::params::mimc_7_91_bn254::{MIMC_7_91_BN254_PARAMS, MIMC_7_91_BN254_ROUND_KEYS};
use arkworks_mimc::params::round_keys_contants_to_vec;
use arkworks_mimc::MiMC;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;
use zkaccel_bn254::Fr;
use zkaccel_field::{Field, PrimeField};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_presets::MimcPreset as Preset;

type ArkFr = ark_bn254_03::Fr;
type ArkMimc = MiMC<ArkFr, MIMC_7_91_BN254_PARAMS>;

/// Ciphers per batch.
const BATCH: usize = 1024;

fn bench(c: &mut Criterion) {
    let mut rng = rng();
    let xs: Vec<Fr> = (0..BATCH).map(|_| random_prime(&mut rng)).collect();
    let ks: Vec<Fr> = (0..BATCH).map(|_| random_prime(&mut rng)).collect();
    let to_ark = |x: &Fr| ArkFr::from_le_bytes_mod_order(&x.to_bytes_le());
    let xs_ark: Vec<ArkFr> = xs.iter().map(to_ark).collect();
    let ks_ark: Vec<ArkFr> = ks.iter().map(to_ark).collect();
    let round_keys = round_keys_contants_to_vec::<ArkFr>(&MIMC_7_91_BN254_ROUND_KEYS);
    let ours = Preset::Circomlib.cipher();
    // arkworks-mimc's cipher is private; its one-block MP hash is one cipher plus two additions.
    let ark_keyed: Vec<ArkMimc> = ks_ark
        .iter()
        .map(|&k| ArkMimc::new(1, k, round_keys.clone()))
        .collect();

    let mut g = c.benchmark_group("mimc-latency/bn254-x7-91");
    g.throughput(Throughput::Elements(1));
    g.bench_function("zkaccel", |b| {
        b.iter(|| ours.encrypt(black_box(xs[0]), black_box(ks[0])))
    });
    let one = &ark_keyed[0];
    g.bench_function("arkworks-mimc", |b| {
        b.iter(|| one.permute_non_feistel(vec![black_box(xs_ark[0])]))
    });
    g.finish();

    let mut g = c.benchmark_group("mimc-batch-1-thread/bn254-x7-91");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.sample_size(10);
    g.bench_function("zkaccel", |b| {
        b.iter(|| ours.encrypt_batch_single_thread(&xs, &ks).unwrap())
    });
    g.bench_function("arkworks-mimc", |b| {
        b.iter(|| {
            ark_keyed
                .iter()
                .zip(&xs_ark)
                .map(|(m, &x)| m.permute_non_feistel(vec![x])[0])
                .collect::<Vec<_>>()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("mimc-batch-all-cores/bn254-x7-91");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.sample_size(10);
    g.bench_function("zkaccel", |b| {
        b.iter(|| ours.encrypt_batch(&xs, &ks).unwrap())
    });
    g.bench_function("arkworks-mimc", |b| {
        b.iter(|| {
            ark_keyed
                .par_iter()
                .zip(xs_ark.par_iter())
                .map(|(m, &x)| m.permute_non_feistel(vec![x])[0])
                .collect::<Vec<_>>()
        })
    });
    g.finish();

    let sponge = Preset::CircomlibSponge.sponge();
    let ark_sponge = MiMC::<ArkFr, MIMC_5_220_BN254_PARAMS>::new(
        1,
        ArkFr::from(0u64),
        round_keys_contants_to_vec(&MIMC_5_220_BN254_ROUND_KEYS),
    );
    let pairs: Vec<[Fr; 2]> = xs.iter().zip(&ks).map(|(&x, &k)| [x, k]).collect();
    let pairs_ark: Vec<Vec<ArkFr>> = xs_ark
        .iter()
        .zip(&ks_ark)
        .map(|(&x, &k)| vec![x, k])
        .collect();

    let mut g = c.benchmark_group("mimc-sponge-latency/bn254-x5-220-2-to-1");
    g.throughput(Throughput::Elements(1));
    g.bench_function("zkaccel", |b| {
        b.iter(|| sponge.hash(black_box(&pairs[0]), Fr::ZERO, 1).unwrap())
    });
    g.bench_function("arkworks-mimc", |b| {
        b.iter(|| ark_sponge.permute_feistel(black_box(pairs_ark[0].clone())))
    });
    g.finish();

    let mut g = c.benchmark_group("mimc-sponge-batch-all-cores/bn254-x5-220-2-to-1");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.sample_size(10);
    g.bench_function("zkaccel", |b| {
        b.iter(|| sponge.hash_batch(&pairs, Fr::ZERO, 1).unwrap())
    });
    g.bench_function("arkworks-mimc", |b| {
        b.iter(|| {
            pairs_ark
                .par_iter()
                .map(|m| ark_sponge.permute_feistel(m.clone())[0])
                .collect::<Vec<_>>()
        })
    });
    g.finish();
}

/// The chain kernel written once over packings ([`power_chains_packed`]) on every packing this
/// CPU offers, in one group: Goldilocks (x^7, the recommended 23 rounds) and BN254 (circomlib).
fn packings(c: &mut Criterion) {
    use zkaccel_goldilocks::Goldilocks;
    use zkaccel_mimc::constants::{round_constants, ConstantRule};
    use zkaccel_mimc::{recommended_rounds, MimcParams};

    let rounds = recommended_rounds(7, 64.0);
    let goldilocks =
        MimcParams::<Goldilocks>::new(7, round_constants("mimc", rounds, ConstantRule::FirstZero))
            .expect("x^7 permutes Goldilocks");
    bench_packings(c, &format!("goldilocks-x7-{rounds}"), &goldilocks);
    bench_packings(c, "bn254-x7-91", &Preset::Circomlib.params());
}

/// One group: `params`' cipher on [`BATCH`] random inputs and keys, on each packing.
fn bench_packings<F: PrimeField + zkaccel_mimc::MimcField>(
    c: &mut Criterion,
    name: &str,
    params: &zkaccel_mimc::MimcParams<F>,
) {
    use zkaccel_mimc::chains::power_chains_packed;
    let (constants, d) = (params.constants(), params.exponent());
    let mut rng = rng();
    let xs: Vec<F> = (0..BATCH).map(|_| random_prime(&mut rng)).collect();
    let ks: Vec<F> = (0..BATCH).map(|_| random_prime(&mut rng)).collect();
    let mut g = c.benchmark_group(format!("mimc-packings/{name}"));
    g.throughput(Throughput::Elements(BATCH as u64));
    for lanes in F::packing_widths() {
        g.bench_function(format!("{lanes} lanes"), |b| {
            b.iter(|| {
                let mut out = xs.clone();
                power_chains_packed(lanes, &mut out, &ks, constants, d).expect("equal lengths");
                out
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench, packings);
criterion_main!(benches);
