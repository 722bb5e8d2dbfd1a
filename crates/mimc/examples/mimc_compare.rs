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
use std::time::Instant;

use ark_ff_03::PrimeField as _;
use arkworks_mimc::params::mimc_7_91_bn254::{MIMC_7_91_BN254_PARAMS, MIMC_7_91_BN254_ROUND_KEYS};
use arkworks_mimc::params::round_keys_contants_to_vec;
use arkworks_mimc::MiMC;
use zkaccel_bn254::Fr;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_mimc::{encrypt_textbook, Preset};

type ArkFr = ark_bn254_03::Fr;
type ArkMimc = MiMC<ArkFr, MIMC_7_91_BN254_PARAMS>;

/// The CPU time of the calling thread, in nanoseconds.
fn thread_cpu_ns() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 * 1e9 + t.tv_nsec as f64;
        }
    }
    f64::NAN
}

/// Runs `f` and returns its (wall, thread-CPU) time in nanoseconds per cipher.
fn per_cipher(n: usize, f: impl FnOnce()) -> (f64, f64) {
    let (t, c) = (Instant::now(), thread_cpu_ns());
    f();
    let (wall, cpu) = (t.elapsed().as_secs_f64() * 1e9, thread_cpu_ns() - c);
    (wall / n as f64, cpu / n as f64)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Prints best and median of one side; returns the (wall, CPU) medians.
fn report(name: &str, times: &[(f64, f64)]) -> (f64, f64) {
    let mut wall: Vec<f64> = times.iter().map(|t| t.0).collect();
    let mut cpu: Vec<f64> = times.iter().map(|t| t.1).collect();
    let (mw, mc) = (median(&mut wall), median(&mut cpu));
    println!(
        "  {name:14} wall best {:7.2} median {:7.2} µs | cpu best {:7.2} median {:7.2} µs",
        wall[0] / 1e3,
        mw / 1e3,
        cpu[0] / 1e3,
        mc / 1e3
    );
    (mw, mc)
}

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
        t_ours.push(per_cipher(ciphers, || {
            black_box(run_ours());
        }));
        t_textbook.push(per_cipher(ciphers, || {
            black_box(run_textbook());
        }));
        t_peer.push(per_cipher(ciphers, || {
            black_box(run_peer());
        }));
    }
    let (ow, oc) = report("zkaccel", &t_ours);
    let (tw, tc) = report("textbook loop", &t_textbook);
    let (pw, pc) = report("arkworks-mimc", &t_peer);
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
