//! Single-thread chain kernels of the circomlib preset (BN254, x^7, 91 rounds), side by side in alternating rounds on identical inputs:
//! the dispatching batch path ([`MimcField::power_chains`]), the hybrid lanes (four AVX2 and two
//! scalar lanes in one kernel, [`power_chains_hybrid`]), the AVX2 lanes
//! ([`power_chains_avx2`]), the lazy scalar lanes ([`power_chains_lazy`]), the portable
//! interleaved chains ([`power_chains_packed`] on one lane), and one chain at a time on the
//! single-chain path ([`MimcField::power_chain`]). All must agree with the textbook loop. The last
//! two rows tell whether one chain already keeps the scalar multiplier busy: where four
//! interleaved chains (`lazy`) take as long per chain as one chain at a time, it does, and a
//! single cipher's latency is bound by the multiplier's throughput. Then circomlib's
//! MiMCSponge permutations, all at once ([`MimcSponge::permute_many`]) and one at a time.
//! The report gives per-cipher wall and thread-CPU time (best and median of the rounds).
//!
//! `cargo run --release -p zkaccel-mimc --example mimc_batch_compare -- [ROUNDS] [CIPHERS]`
//! (defaults 11 rounds of 240 ciphers).

use std::hint::black_box;

use zkaccel_bn254::Fr;
use zkaccel_field::{Field, FieldError};
use zkaccel_field_testing::bench::{report_samples, timed, CpuClock};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_fp256::kernels::{power_chains_avx2, power_chains_hybrid, power_chains_lazy};
use zkaccel_mimc::chains::power_chains_packed;
use zkaccel_mimc::{encrypt_textbook, MimcField, MimcSponge};
use zkaccel_presets::MimcPreset as Preset;

type Kernel = fn(&mut [Fr], &[Fr], &[Fr], u64) -> Result<(), FieldError>;
/// Permutes the pairs `(ls[i], rs[i])` in place.
type FeistelSide<'a> = &'a dyn Fn(&mut [Fr], &mut [Fr]);

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let rounds = args.next().and_then(Result::ok).unwrap_or(11).max(1);
    let ciphers = args.next().and_then(Result::ok).unwrap_or(240).max(1);

    let mut rng = rng();
    let xs: Vec<Fr> = (0..ciphers).map(|_| random_prime(&mut rng)).collect();
    let ks: Vec<Fr> = (0..ciphers).map(|_| random_prime(&mut rng)).collect();
    let mimc = Preset::Circomlib.cipher();
    let params = mimc.params();
    let (constants, d) = (params.constants(), params.exponent());
    let expected: Vec<Fr> = xs
        .iter()
        .zip(&ks)
        .map(|(&x, &k)| encrypt_textbook(params, x, k))
        .collect();

    let kernels: [(&str, Kernel); 6] = [
        ("power_chains", Fr::power_chains),
        ("hybrid", power_chains_hybrid),
        ("avx2", power_chains_avx2),
        ("lazy", power_chains_lazy),
        ("interleaved", |xs, ks, c, d| {
            power_chains_packed(1, xs, ks, c, d)
        }),
        ("one at a time", |xs, ks, c, d| {
            for (x, &k) in xs.iter_mut().zip(ks) {
                *x = Fr::power_chain(*x, k, c, d);
            }
            Ok(())
        }),
    ];
    for (name, kernel) in kernels {
        let mut out = xs.clone();
        kernel(&mut out, &ks, constants, d).unwrap();
        assert_eq!(out, expected, "{name} disagrees with the textbook loop");
    }

    println!("MiMC circomlib batch, one thread: {rounds} rounds of {ciphers} ciphers");
    let mut samples = vec![Vec::new(); kernels.len()];
    for _ in 0..rounds {
        for ((_, kernel), times) in kernels.iter().zip(&mut samples) {
            let mut out = xs.clone();
            times.push(timed(CpuClock::Thread, || {
                kernel(black_box(&mut out), black_box(&ks), constants, d).unwrap();
            }));
            black_box(out);
        }
    }
    let scale = 1e6 / ciphers as f64;
    for ((name, _), times) in kernels.iter().zip(&samples) {
        report_samples(name, times, scale, "µs");
    }

    // circomlib's MiMCSponge: the same number of Feistel permutations (x^5, 220 rounds), key 0,
    // all at once and one at a time.
    let sponge: MimcSponge<Fr> = Preset::CircomlibSponge.sponge();
    let k = Fr::ZERO;
    let many = |ls: &mut [Fr], rs: &mut [Fr]| {
        sponge.permute_many(ls, rs, k).unwrap();
    };
    let each = |ls: &mut [Fr], rs: &mut [Fr]| {
        for (l, r) in ls.iter_mut().zip(rs.iter_mut()) {
            (*l, *r) = sponge.permute(*l, *r, k);
        }
    };
    let sides: [(&str, FeistelSide); 2] = [("permute_many", &many), ("one at a time", &each)];
    let run = |side: FeistelSide| {
        let (mut ls, mut rs) = (xs.clone(), ks.clone());
        side(black_box(&mut ls), black_box(&mut rs));
        (ls, rs)
    };
    assert_eq!(run(&many), run(&each), "the Feistel batch disagrees");
    println!("MiMCSponge permutations, one thread: {rounds} rounds of {ciphers} permutations");
    let mut samples = vec![Vec::new(); sides.len()];
    for _ in 0..rounds {
        for ((_, side), times) in sides.iter().zip(&mut samples) {
            times.push(timed(CpuClock::Thread, || black_box(run(*side))));
        }
    }
    for ((name, _), times) in sides.iter().zip(&samples) {
        report_samples(name, times, scale, "µs");
    }
}
