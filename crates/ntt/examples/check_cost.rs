//! What a plan's input check and output finishing cost (`NttPlan::checking_inputs_with`,
//! `finishing_outputs_with`): Goldilocks forward transforms, natural order in and out, by a
//! plain plan, one that finishes its outputs canonical, and one that also refuses
//! non-canonical inputs (the Python package's plans), run alternately on the same input.
//! Prints each one's median and fastest run in milliseconds.
//!
//! `RAYON_NUM_THREADS=1 cargo run --release -p zkaccel-ntt --example check_cost -- 20 21`
//! (`log2` size, runs of each).

use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::{NttPlan, Order};

fn main() {
    let mut args = std::env::args().skip(1);
    let log_n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let runs: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(11)
        .max(1);
    let plain = NttPlan::<Goldilocks>::new(log_n).expect("a size within Goldilocks' two-adicity");
    let finished = plain.clone().finishing_outputs_with(|v| {
        Goldilocks::canonical_words_mut(v);
    });
    let checked = finished
        .clone()
        .checking_inputs_with(Goldilocks::all_canonical);
    let values: Vec<Goldilocks> = (0..1u64 << log_n).map(Goldilocks::new_reduced).collect();
    let plans = [
        ("plain", &plain),
        ("finished", &finished),
        ("checked", &checked),
    ];
    let mut ms = vec![Vec::with_capacity(runs); plans.len()];
    for _ in 0..runs {
        for ((_, plan), times) in plans.iter().zip(&mut ms) {
            let mut v = values.clone();
            let start = std::time::Instant::now();
            plan.forward(&mut v, Order::NN)
                .expect("canonical inputs are accepted");
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    println!("2^{log_n} points, {runs} runs each (ms: median / best)");
    for ((name, _), mut times) in plans.into_iter().zip(ms) {
        times.sort_by(f64::total_cmp);
        println!(
            "{name:<9} {:>8.2} {:>8.2}",
            times[times.len() / 2],
            times[0]
        );
    }
}
