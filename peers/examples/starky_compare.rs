//! Proves Fibonacci with zkaccel and with starky 1.1.0 (as built in peers/, without
//! `parallel`) on the same trace and configuration, alternating, and prints the best times.
//! `RUSTC_BOOTSTRAP=1 cargo run --release --manifest-path peers/Cargo.toml --example
//! starky_compare -- LOG_ROWS [ROUNDS]`.

use std::time::Instant;

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::polynomial::PolynomialValues;
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2::util::timing::TimingTree;
use zkaccel_field::Field;
use zkaccel_fri::Plonky2Goldilocks;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_peers::to_plonky2;
use zkaccel_stark::{prove, FibonacciAir, StarkConfig};

use zkaccel_peers::starky_airs as airs;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let log_rows: usize = args.get(1).map_or(16, |a| a.parse().expect("LOG_ROWS"));
    let rounds: usize = args.get(2).map_or(3, |a| a.parse().expect("ROUNDS"));
    let config = StarkConfig::standard_fast();
    let (trace, pis) =
        FibonacciAir::trace(1 << log_rows, Goldilocks::ZERO, Goldilocks::ONE).unwrap();
    let their_trace: Vec<PolynomialValues<GoldilocksField>> = trace
        .iter()
        .map(|c| PolynomialValues::new(c.iter().map(|&x| to_plonky2(x)).collect()))
        .collect();
    let their_pis: Vec<GoldilocksField> = pis.iter().map(|&x| to_plonky2(x)).collect();
    let tc = airs::their_config(&config);
    let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        let p = prove::<_, Plonky2Goldilocks>(&FibonacciAir, &config, trace.clone(), &pis).unwrap();
        ours = ours.min(t.elapsed().as_secs_f64());
        std::hint::black_box(p);
        let t = Instant::now();
        let p = starky::prover::prove::<GoldilocksField, PoseidonGoldilocksConfig, _, 2>(
            airs::FibonacciStark::<GoldilocksField, 2>::default(),
            &tc,
            their_trace.clone(),
            &their_pis,
            None,
            &mut TimingTree::default(),
        )
        .unwrap();
        theirs = theirs.min(t.elapsed().as_secs_f64());
        std::hint::black_box(p);
    }
    println!(
        "Fibonacci 2^{log_rows}, standard_fast: zkaccel {:.3} s, starky {:.3} s, ratio {:.2}x",
        ours,
        theirs,
        theirs / ours
    );
}
