//! Throwaway interleaved A/B timing (not committed).
use p3_dft::{Radix2DFTSmallBatch, TwoAdicSubgroupDft};
use p3_matrix::dense::RowMajorMatrix;
use rand::RngCore;
use std::time::Instant;
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::{NttPlan, Order};
type P3 = p3_goldilocks::Goldilocks;

fn main() {
    let log_n: usize = std::env::var("LOGN")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let threads: usize = std::env::var("T")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let what = std::env::var("WHAT").unwrap_or("lde".into());
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .unwrap();
    let n = 1usize << log_n;
    let mut r = rng();
    let x: Vec<Goldilocks> = (0..n)
        .map(|_| random_prime(&mut r as &mut dyn RngCore))
        .collect();
    let theirs: Vec<P3> = x.iter().map(|v| P3::new(v.as_canonical_u64())).collect();
    let p3 = Radix2DFTSmallBatch::<P3>::new(n << 3);
    let core: usize = std::env::var("CORE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let plan = NttPlan::<Goldilocks>::with_algorithm(
        log_n + 3,
        zkaccel_ntt::Algorithm::FourStep { core_log: core },
    )
    .unwrap()
    .parallel(threads > 1);
    let mut ratios = vec![];
    let (mut ta, mut tb) = (0.0, 0.0);
    for round in 0..21 {
        let m = RowMajorMatrix::new_col(theirs.clone());
        let mut v = x.clone();
        let t0 = Instant::now();
        let a = if what == "lde" {
            plan.lde_from_evaluations(&x, 3, <Goldilocks as zkaccel_field::Field>::GENERATOR)
                .unwrap()
        } else {
            plan.forward(&mut v, Order::NN).unwrap();
            vec![]
        };
        let da = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let b: Vec<P3> = if what == "lde" {
            p3.coset_lde_batch(m, 3, <P3 as p3_field::Field>::GENERATOR)
                .values
        } else {
            p3.dft_batch(m).values
        };
        let db = t0.elapsed().as_secs_f64();
        std::hint::black_box((&a, &b));
        drop(a);
        drop(b);
        if round > 0 {
            ratios.push(db / da);
            ta += da;
            tb += db;
        }
    }
    ratios.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{what} 2^{log_n} T={threads}: ours {:.1} ms, p3 {:.1} ms, median ratio p3/ours {:.3} (q1 {:.3} q3 {:.3})",
        ta * 50.0, tb * 50.0, ratios[10], ratios[5], ratios[15]);
}
