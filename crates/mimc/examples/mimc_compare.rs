//! Single-cipher latency of the circomlib preset (BN254, x^7, 91 rounds) against
//! arkworks-mimc 0.3.0, the CPU baseline AMAZE measured, in alternating rounds on identical
//! inputs, so all sides see the same load on a shared machine. A third side runs our textbook
//! loop (`encrypt_textbook`: canonical field operations, one after the other), the reference
//! for changes to the fast path. Each round times a run of chained ciphers (each output is the
//! next input) on each side; the report gives per-cipher wall and thread-CPU time (best and
//! median of the rounds) and the ratios of medians.
//!
//! `cargo run --release -p zkaccel-mimc --example mimc_compare -- [ROUNDS] [CIPHERS]`
//! (defaults 15 rounds of 2000 ciphers).

use std::hint::black_box;

use ark_ff_03::PrimeField as _;
use arkworks_mimc::params::mimc_7_91_bn254::{MIMC_7_91_BN254_PARAMS, MIMC_7_91_BN254_ROUND_KEYS};
use arkworks_mimc::params::round_keys_contants_to_vec;
use arkworks_mimc::MiMC;
use zkaccel_bn254::Fr;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::bench::{report_samples, timed, CpuClock};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_mimc::{encrypt_textbook, Preset};

type ArkFr = ark_bn254_03::Fr;
type ArkMimc = MiMC<ArkFr, MIMC_7_91_BN254_PARAMS>;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let rounds = args.next().and_then(Result::ok).unwrap_or(15).max(1);
    let ciphers = args.next().and_then(Result::ok).unwrap_or(2000).max(1);

    let mut rng = rng();
    let (x0, k): (Fr, Fr) = (random_prime(&mut rng), random_prime(&mut rng));
    let to_ark = |x: &Fr| ArkFr::from_le_bytes_mod_order(&x.to_bytes_le());
    let ours = Preset::Circomlib.cipher();
    let round_keys = round_keys_contants_to_vec::<ArkFr>(&MIMC_7_91_BN254_ROUND_KEYS);
    let peer = ArkMimc::new(1, to_ark(&k), round_keys);

    // arkworks-mimc's cipher is private; its one-block Miyaguchi–Preneel hash is the cipher
    // plus two additions, `k + x + E_k(x)`. Both sides run the chain x_{i+1} = MP_k([x_i]), so
    // each cipher waits for the last (latency, not throughput); the final values must agree.
    let run_ours = || {
        let mut x = x0;
        for _ in 0..ciphers {
            x = ours.hash(&[black_box(x)], k);
        }
        x
    };
    let run_textbook = || {
        let mut x = x0;
        for _ in 0..ciphers {
            let m = black_box(x);
            x = k + m + encrypt_textbook(ours.params(), m, k);
        }
        x
    };
    let run_peer = || {
        let mut x = to_ark(&x0);
        for _ in 0..ciphers {
            x = peer.permute_non_feistel(vec![black_box(x)])[0];
        }
        x
    };
    let expected = run_peer();
    assert_eq!(
        to_ark(&run_ours()),
        expected,
        "zkaccel and arkworks-mimc disagree"
    );
    assert_eq!(
        to_ark(&run_textbook()),
        expected,
        "the textbook loop disagrees"
    );

    println!(
        "MiMC circomlib (BN254, x^7, 91 rounds): {rounds} rounds of {ciphers} chained ciphers"
    );
    let (mut t_ours, mut t_textbook, mut t_peer) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        t_ours.push(timed(CpuClock::Thread, || {
            black_box(run_ours());
        }));
        t_textbook.push(timed(CpuClock::Thread, || {
            black_box(run_textbook());
        }));
        t_peer.push(timed(CpuClock::Thread, || {
            black_box(run_peer());
        }));
    }
    // Seconds per run of `ciphers` ciphers, shown in µs per cipher.
    let scale = 1e6 / ciphers as f64;
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
