//! The Goldilocks coset LDE (blowup 8, from evaluations) against Plonky3's
//! `Radix2DFTSmallBatch::coset_lde_batch`, in alternating rounds on identical inputs, so both
//! see the same load on a shared machine. Wall time; best and median of the rounds.
//!
//! `cargo run --release -p zkaccel-ntt --example lde_compare -- [LOG_N] [ROUNDS] [THREADS]`
//! (defaults 20, 15, all cores).

use std::time::Instant;

use p3_dft::{Radix2DFTSmallBatch, TwoAdicSubgroupDft};
use p3_matrix::dense::RowMajorMatrix;
use rand::RngCore;
use zkaccel_field::Field;
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::NttPlan;

type P3 = p3_goldilocks::Goldilocks;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numeric arguments"))
        .collect();
    let log_n = args.first().copied().unwrap_or(20);
    let rounds = args.get(1).copied().unwrap_or(15);
    let threads = args.get(2).copied().unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let mut r = rng();
    let x: Vec<Goldilocks> = (0..1usize << log_n)
        .map(|_| random_prime(&mut r as &mut dyn RngCore))
        .collect();
    let theirs: Vec<P3> = x
        .iter()
        .map(|v| p3_field::integers::QuotientMap::from_int(v.as_canonical_u64()))
        .collect();
    let plan = NttPlan::<Goldilocks>::new(log_n + 3).expect("supported size");
    let p3 = Radix2DFTSmallBatch::<P3>::new(1 << (log_n + 3));
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        pool.install(|| {
            let t = Instant::now();
            let out = plan.lde_from_evaluations(&x, 3, Goldilocks::GENERATOR);
            ours.push(t.elapsed().as_secs_f64() * 1e3);
            drop(out);
            let m = RowMajorMatrix::new_col(theirs.clone());
            let t = Instant::now();
            let out = p3.coset_lde_batch(m, 3, <P3 as p3_field::Field>::GENERATOR);
            peer.push(t.elapsed().as_secs_f64() * 1e3);
            drop(out);
        });
    }
    let (bo, bp) = (
        ours.iter().copied().fold(f64::MAX, f64::min),
        peer.iter().copied().fold(f64::MAX, f64::min),
    );
    let (mo, mp) = (median(&mut ours), median(&mut peer));
    println!(
        "LDE 2^{log_n} -> 2^{}, {} threads: zkaccel best {bo:.2} ms median {mo:.2}; plonky3 best {bp:.2} median {mp:.2}; ratio (plonky3/zkaccel) best {:.3} median {:.3}",
        log_n + 3,
        pool.current_num_threads(),
        bp / bo,
        mp / mo
    );
}
