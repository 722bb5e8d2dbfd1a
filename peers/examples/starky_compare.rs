//! Proves Fibonacci or Factorial with zkaccel and with starky 1.1.0 on the same trace and
//! configuration (`standard_fast`), alternating, and prints the best times and their ratio;
//! then, from one more proof of each, zkaccel's breakdown by UniZK's kernel classes and
//! starky's timing tree, side by side.
//!
//! `RUSTC_BOOTSTRAP=1 cargo run --release --manifest-path peers/Cargo.toml --features
//! parallel,timing --example starky_compare -- LOG_ROWS [ROUNDS] [fibonacci|factorial]`
//! (`parallel` for starky's multi-threaded prover, `timing` for its timing tree; set
//! `RAYON_NUM_THREADS` for both).

use std::time::Instant;

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::polynomial::PolynomialValues;
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2::util::timing::TimingTree;
use starky::stark::Stark;
use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::Tracer;
use zkaccel_peers::starky_airs as airs;
use zkaccel_peers::to_plonky2;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_stark::{prove, Air, FactorialAir, FibonacciAir, StarkConfig};

type F = GoldilocksField;

/// Prints starky's timing tree (it logs through `log`) to standard output.
struct Stdout;

impl log::Log for Stdout {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        // The tree's lines only (its scopes log at Debug), not plonky2's other messages.
        metadata.target() == "plonky2::util::timing"
    }
    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            println!("{}", record.args());
        }
    }
    fn flush(&self) {}
}

fn compare<A: Air, T: Stark<F, 2> + Copy>(
    name: &str,
    ours_air: &A,
    theirs_air: T,
    trace: Vec<Vec<Goldilocks>>,
    pis: Vec<Goldilocks>,
    log_rows: usize,
    rounds: usize,
) {
    let config = StarkConfig::standard_fast();
    let their_trace: Vec<PolynomialValues<F>> = trace
        .iter()
        .map(|c| PolynomialValues::new(c.iter().map(|&x| to_plonky2(x)).collect()))
        .collect();
    let their_pis: Vec<F> = pis.iter().map(|&x| to_plonky2(x)).collect();
    let tc = airs::their_config(&config);
    let theirs = |timing: &mut TimingTree| {
        starky::prover::prove::<F, PoseidonGoldilocksConfig, _, 2>(
            theirs_air,
            &tc,
            their_trace.clone(),
            &their_pis,
            None,
            timing,
        )
        .unwrap()
    };
    let ours = |tracer: &mut Tracer| {
        prove::<_, Plonky2Goldilocks>(ours_air, &config, trace.clone(), &pis, tracer).unwrap()
    };
    let (mut best_ours, mut best_theirs) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        std::hint::black_box(ours(&mut Tracer::off()));
        best_ours = best_ours.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        std::hint::black_box(theirs(&mut TimingTree::default()));
        best_theirs = best_theirs.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{name} 2^{log_rows}, standard_fast, {} threads: zkaccel {best_ours:.3} s, starky \
         {best_theirs:.3} s, ratio {:.2}x",
        rayon::current_num_threads(),
        best_theirs / best_ours
    );

    let mut tracer = Tracer::recording();
    let t = Instant::now();
    std::hint::black_box(ours(&mut tracer));
    let total = t.elapsed().as_nanos() as u64;
    println!("\nzkaccel, one traced proof:\n{}", tracer.breakdown(total));
    let mut timing = TimingTree::new("prove", log::Level::Info);
    std::hint::black_box(theirs(&mut timing));
    println!("\nstarky, its timing tree (empty without --features timing):");
    timing.print();
}

fn main() {
    log::set_logger(&Stdout).expect("the only logger");
    log::set_max_level(log::LevelFilter::Debug);
    let args: Vec<String> = std::env::args().collect();
    let log_rows: usize = args.get(1).map_or(16, |a| a.parse().expect("LOG_ROWS"));
    let rounds: usize = args.get(2).map_or(3, |a| a.parse().expect("ROUNDS"));
    match args.get(3).map_or("fibonacci", String::as_str) {
        "fibonacci" => {
            let (trace, pis) =
                FibonacciAir::trace(1 << log_rows, Goldilocks::ZERO, Goldilocks::ONE).unwrap();
            let air = airs::FibonacciStark::<F, 2>::default();
            compare(
                "Fibonacci",
                &FibonacciAir,
                air,
                trace,
                pis,
                log_rows,
                rounds,
            );
        }
        "factorial" => {
            let (trace, pis) = FactorialAir::trace(1 << log_rows).unwrap();
            let air = airs::FactorialStark::<F, 2>::default();
            compare(
                "Factorial",
                &FactorialAir,
                air,
                trace,
                pis,
                log_rows,
                rounds,
            );
        }
        other => panic!("unknown AIR {other}: fibonacci or factorial"),
    }
}
