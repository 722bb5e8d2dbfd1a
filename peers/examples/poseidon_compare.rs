//! zkaccel against plonky2 1.1.0 on plonky2's Poseidon (Goldilocks, width 12), one thread, on
//! the same 1024 random states: rounds alternate between the two so that both see the same
//! machine load, and time is the thread's on-CPU time (`CLOCK_THREAD_CPUTIME_ID`; the
//! per-thread `schedstat` read before moves only at scheduler ticks on some kernels, 4 ms
//! here, which made both sides' medians equal) when the system provides it, else wall time. Prints each side's best and median time per
//! permutation and the median of the per-round ratios. Use it when the machine is too busy
//! for criterion's wall-clock samples. With `single`, each side instead permutes one state
//! 102,400 times in a dependent chain (the latency of one permutation: `Plonky2Poseidon::permute`
//! against `GoldilocksField::poseidon`; plonky2 1.1.0's x86 AVX2 Poseidon is commented out of
//! the crate, so that is its scalar code, built for the CPU with `-C target-cpu=native`).
//! `RUSTC_BOOTSTRAP=1 cargo run --release --example
//! poseidon_compare -- [ROUNDS] [single | LANES]`, where `LANES` bounds the batch's packing (the
//! default is the widest, `Field::packing_widths`).

use std::time::Instant;

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::hash::poseidon::Poseidon;
use rand::{Rng, SeedableRng};
use zkaccel_field::Field;
use zkaccel_field_testing::bench::CpuClock;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_peers::to_plonky2;
use zkaccel_plonky2::Plonky2Poseidon;

const BATCH: usize = 1024;
/// Batches per timed sample (about 0.1 s each).
const REPEAT: usize = 100;

/// Seconds per permutation of one sample of `f` (which runs `REPEAT` batches): this thread's
/// CPU time, or wall time where the CPU clock cannot be read.
fn sample(f: &mut impl FnMut()) -> f64 {
    let (c0, t0) = (CpuClock::Thread.seconds(), Instant::now());
    f();
    let wall = t0.elapsed().as_secs_f64();
    let cpu = CpuClock::Thread.seconds() - c0;
    let secs = if cpu.is_finite() { cpu } else { wall };
    secs / (REPEAT * BATCH) as f64
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("a number of rounds"))
        .unwrap_or(15);
    let mode = std::env::args().nth(2).unwrap_or_default();
    let single = mode == "single";
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let h = Plonky2Poseidon::get().permutation();
    let lanes = mode.parse().unwrap_or(Goldilocks::packing_widths()[0]);
    let states: Vec<Goldilocks> = (0..12 * BATCH)
        .map(|_| Goldilocks::new_reduced(rng.gen_range(0..zkaccel_goldilocks::ORDER)))
        .collect();
    let mut theirs: Vec<[GoldilocksField; 12]> = states
        .chunks(12)
        .map(|s| core::array::from_fn(|i| to_plonky2(s[i])))
        .collect();
    let mut one: [Goldilocks; 12] = states[..12].try_into().expect("a state");
    let mut their_one = theirs[0];
    let mut ours = states;
    let mut run_ours = || {
        for _ in 0..REPEAT {
            if single {
                for _ in 0..BATCH {
                    Plonky2Poseidon::get().permute(&mut one);
                }
            } else {
                h.permute_many_within(lanes, &mut ours).unwrap();
            }
        }
    };
    let mut run_theirs = || {
        for _ in 0..REPEAT {
            if single {
                for _ in 0..BATCH {
                    their_one = GoldilocksField::poseidon(their_one);
                }
            } else {
                for s in theirs.iter_mut() {
                    *s = GoldilocksField::poseidon(*s);
                }
            }
        }
    };
    run_ours();
    run_theirs();
    let (mut a, mut b, mut r) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let x = sample(&mut run_ours);
        let y = sample(&mut run_theirs);
        a.push(x);
        b.push(y);
        r.push(y / x);
    }
    if single {
        // The two chains computed the same permutation the same number of times.
        let ours = one.map(|x| x.as_canonical_u64());
        let theirs = their_one.map(|x| zkaccel_peers::from_plonky2(x).as_canonical_u64());
        assert_eq!(ours, theirs, "the chains diverged");
    }
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let ours_name = if single {
        "zkaccel (one state)".to_string()
    } else {
        format!("zkaccel-{lanes}-lanes")
    };
    println!(
        "{ours_name}: best {:.1} ns, median {:.1} ns per permutation",
        best(&a) * 1e9,
        median(&mut a.clone()) * 1e9
    );
    println!(
        "plonky2: best {:.1} ns, median {:.1} ns per permutation",
        best(&b) * 1e9,
        median(&mut b.clone()) * 1e9
    );
    println!(
        "ratio (plonky2 / zkaccel): median of rounds {:.2}x, of bests {:.2}x",
        median(&mut r),
        best(&b) / best(&a)
    );
}
