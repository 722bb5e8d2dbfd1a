//! One Goldilocks Poseidon permutation of width 12 (x^7, 8 full and 22 partial rounds) against
//! Plonky3 0.8's Poseidon1 (`default_goldilocks_poseidon1_12`), on thread CPU time, in
//! alternating rounds so that every side sees the same machine load. Each side permutes one
//! state `CHAIN` times in a dependent chain (latency, not throughput):
//!
//! - `zkaccel plonky2`: `Plonky2Poseidon::permute`, our latency kernel (plonky2's constants:
//!   the same shape and cost, different numbers);
//! - `zkaccel plonky3`: `Plonky3Poseidon1::permute`, the same latency kernel on Plonky3's own
//!   constants (its chain is checked equal to Plonky3's);
//! - `zkaccel generic`: `Plonky3Poseidon1::permutation().permute`, the generic kernel every
//!   Poseidon instance runs, on Plonky3's constants;
//! - `plonky3`: Plonky3's Poseidon1 (on x86, its generic code: Karatsuba MDS and sparse partial
//!   rounds).
//!
//! Build Plonky3 for the CPU, as its users would: `RUSTFLAGS="-C target-cpu=native" cargo run
//! --release -p zkaccel-poseidon --example p3_compare -- [ROUNDS]` (default 15). Ours picks its
//! SIMD at run time either way.

use std::hint::black_box;

use p3_field::{PrimeCharacteristicRing as _, PrimeField64 as _};
use p3_symmetric::Permutation as _;
use zkaccel_field_testing::bench::{report_samples, timed, CpuClock};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_presets::Plonky3Poseidon1;

/// Permutations per timed sample.
const CHAIN: usize = 100_000;

/// One side: a name and a chain of `CHAIN` permutations from `start`, returning the end state.
type Side<'a> = (&'static str, Box<dyn Fn([u64; 12]) -> [u64; 12] + 'a>);

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .and_then(|a| a.parse::<usize>().ok())
        .unwrap_or(15)
        .max(1);
    let start: [u64; 12] =
        core::array::from_fn(|i| 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1) >> 1);
    let plonky2 = Plonky2Poseidon::get();
    let ours = Plonky3Poseidon1::get();
    let theirs = p3_goldilocks::poseidon1::default_goldilocks_poseidon1_12();
    let canonical = |s: [Goldilocks; 12]| s.map(|x| x.as_canonical_u64());
    let sides: [Side; 4] = [
        (
            "zkaccel plonky2",
            Box::new(|w| {
                let mut s = w.map(Goldilocks::new_reduced);
                for _ in 0..CHAIN {
                    plonky2.permute(black_box(&mut s));
                }
                canonical(s)
            }),
        ),
        (
            "zkaccel plonky3",
            Box::new(|w| {
                let mut s = w.map(Goldilocks::new_reduced);
                for _ in 0..CHAIN {
                    ours.permute(black_box(&mut s));
                }
                canonical(s)
            }),
        ),
        (
            "zkaccel generic",
            Box::new(|w| {
                let mut s = w.map(Goldilocks::new_reduced);
                for _ in 0..CHAIN {
                    ours.permutation()
                        .permute(black_box(&mut s))
                        .expect("width 12");
                }
                canonical(s)
            }),
        ),
        (
            "plonky3",
            Box::new(|w| {
                let mut s = w.map(p3_goldilocks::Goldilocks::from_u64);
                for _ in 0..CHAIN {
                    s = theirs.permute(black_box(s));
                }
                s.map(|x| x.as_canonical_u64())
            }),
        ),
    ];
    // Same constants, same chain: the same end state.
    let want = (sides[3].1)(start);
    for (name, run) in &sides[1..3] {
        assert_eq!(run(start), want, "{name} and Plonky3 diverged");
    }

    println!("{rounds} rounds of {CHAIN} chained permutations, thread CPU time");
    let mut samples = vec![Vec::new(); sides.len()];
    for _ in 0..rounds {
        for ((_, run), t) in sides.iter().zip(&mut samples) {
            t.push(timed(CpuClock::Thread, || black_box(run(start))));
        }
    }
    let scale = 1e9 / CHAIN as f64;
    let medians: Vec<f64> = sides
        .iter()
        .zip(&samples)
        .map(|((name, _), t)| report_samples(name, t, scale, "ns").1)
        .collect();
    for (i, (name, _)) in sides[..3].iter().enumerate() {
        println!(
            "  plonky3 / {name} (cpu medians; > 1: ours faster): {:.2}",
            medians[3] / medians[i]
        );
    }
}
