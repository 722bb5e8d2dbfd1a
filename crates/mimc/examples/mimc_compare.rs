//! Single-chain latency against arkworks-mimc 0.3.0, the CPU baseline AMAZE measured, in
//! alternating rounds on identical inputs, so all sides see the same load on a shared machine:
//! the circomlib preset's cipher (BN254, x^7, 91 rounds), then circomlib's MiMCSponge (the
//! Feistel permutation, x^5, 220 rounds, hashing two elements as a Merkle tree node does). A
//! third side runs our textbook loop (`encrypt_textbook`, `permute_feistel_textbook`:
//! canonical field operations, one after the other), the reference for changes to the fast
//! path. Each round times a run of chained hashes (each output is the next input) on each
//! side; the report gives per-hash wall and thread-CPU time (best and median of the rounds)
//! and the ratios of medians.
//!
//! `cargo run --release -p zkaccel-mimc --example mimc_compare -- [ROUNDS] [HASHES]`
//! (defaults 15 rounds of 2000 hashes).

use std::hint::black_box;

use ark_ff_03::PrimeField as _;
use arkworks_mimc::params::mimc_5_220_bn254::{
    MIMC_5_220_BN254_PARAMS, MIMC_5_220_BN254_ROUND_KEYS,
};
use arkworks_mimc::params::mimc_7_91_bn254::{MIMC_7_91_BN254_PARAMS, MIMC_7_91_BN254_ROUND_KEYS};
use arkworks_mimc::params::round_keys_contants_to_vec;
use arkworks_mimc::MiMC;
use zkaccel_bn254::Fr;
use zkaccel_field::{Field, PrimeField};
use zkaccel_field_testing::bench::{report_samples, timed, CpuClock};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_mimc::{encrypt_textbook, permute_feistel_textbook};
use zkaccel_presets::MimcPreset as Preset;

type ArkFr = ark_bn254_03::Fr;

fn to_ark(x: Fr) -> ArkFr {
    ArkFr::from_le_bytes_mod_order(&x.to_bytes_le())
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let rounds = args.next().and_then(Result::ok).unwrap_or(15).max(1);
    let hashes = args.next().and_then(Result::ok).unwrap_or(2000).max(1);

    let mut rng = rng();
    let (x0, k): (Fr, Fr) = (random_prime(&mut rng), random_prime(&mut rng));

    // arkworks-mimc's cipher is private; its one-block Miyaguchi–Preneel hash is the cipher
    // plus two additions, `k + x + E_k(x)`. Every side runs the chain x_{i+1} = MP_k([x_i]),
    // so each cipher waits for the last (latency, not throughput).
    let mimc = Preset::Circomlib.cipher();
    let peer = MiMC::<ArkFr, MIMC_7_91_BN254_PARAMS>::new(
        1,
        to_ark(k),
        round_keys_contants_to_vec(&MIMC_7_91_BN254_ROUND_KEYS),
    );
    let chain = |step: &dyn Fn(Fr) -> Fr| {
        let mut x = x0;
        for _ in 0..hashes {
            x = step(black_box(x));
        }
        to_ark(x)
    };
    compare(
        "MiMC circomlib (BN254, x^7, 91 rounds), ciphers",
        rounds,
        hashes,
        || chain(&|x| mimc.hash(&[x], k)),
        || chain(&|x| k + x + encrypt_textbook(mimc.params(), x, k)),
        || {
            let mut x = to_ark(x0);
            for _ in 0..hashes {
                x = peer.permute_non_feistel(vec![black_box(x)])[0];
            }
            x
        },
    );

    // The sponge of two elements with key 0 (a Merkle tree node of circomlib's MiMCSponge):
    // two permutations; the chain feeds each output back as the left input, `x0` the right.
    let sponge = Preset::CircomlibSponge.sponge();
    let peer = MiMC::<ArkFr, MIMC_5_220_BN254_PARAMS>::new(
        1,
        ArkFr::from(0u64),
        round_keys_contants_to_vec(&MIMC_5_220_BN254_ROUND_KEYS),
    );
    let textbook_sponge = |a: Fr, b: Fr| {
        let p = sponge.params();
        let (l, r) = permute_feistel_textbook(p, a, Fr::ZERO, Fr::ZERO);
        permute_feistel_textbook(p, l + b, r, Fr::ZERO).0
    };
    compare(
        "MiMCSponge circomlib (BN254, x^5, 220 rounds), hashes of two elements",
        rounds,
        hashes,
        || chain(&|x| sponge.hash(&[x, x0], Fr::ZERO, 1).expect("one output")[0]),
        || chain(&|x| textbook_sponge(x, x0)),
        || {
            let (mut x, right) = (to_ark(x0), to_ark(x0));
            for _ in 0..hashes {
                x = peer.permute_feistel(vec![black_box(x), right])[0];
            }
            x
        },
    );
}

/// Times the three sides in alternating rounds after checking that they agree.
fn compare(
    name: &str,
    rounds: usize,
    hashes: usize,
    ours: impl Fn() -> ArkFr,
    textbook: impl Fn() -> ArkFr,
    peer: impl Fn() -> ArkFr,
) {
    let expected = peer();
    assert_eq!(
        ours(),
        expected,
        "{name}: zkaccel and arkworks-mimc disagree"
    );
    assert_eq!(textbook(), expected, "{name}: the textbook loop disagrees");

    println!("{name}: {rounds} rounds of {hashes} chained hashes");
    let (mut t_ours, mut t_textbook, mut t_peer) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        t_ours.push(timed(CpuClock::Thread, || {
            black_box(ours());
        }));
        t_textbook.push(timed(CpuClock::Thread, || {
            black_box(textbook());
        }));
        t_peer.push(timed(CpuClock::Thread, || {
            black_box(peer());
        }));
    }
    // Seconds per run of `hashes` hashes, shown in µs per hash.
    let scale = 1e6 / hashes as f64;
    let (ow, oc) = report_samples("zkaccel", &t_ours, scale, "µs");
    let (tw, tc) = report_samples("textbook loop", &t_textbook, scale, "µs");
    let (pw, pc) = report_samples("arkworks-mimc", &t_peer, scale, "µs");
    println!(
        "  ratio zkaccel / arkworks-mimc: wall {:.3}, cpu {:.3}",
        ow / pw,
        oc / pc
    );
    println!(
        "  ratio zkaccel / textbook loop: wall {:.3}, cpu {:.3}",
        ow / tw,
        oc / tc
    );
}
