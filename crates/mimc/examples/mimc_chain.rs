//! One preset's Miyaguchi–Preneel hash of one element as a dependent chain (each output is
//! the next input), beside the bound that chain cannot beat on this CPU: the number of
//! dependent 256-bit products and squarings in a cipher times the measured latency of one
//! (lazy Montgomery kernels, each a chain `x ← x·y` or `x ← x²` timed the same way). The
//! gnark preset's chain is what `scripts/bench-mimc-gnark.sh` runs beside gnark-crypto's.
//!
//! `cargo run --release -p zkaccel-mimc --example mimc_chain -- [PRESET] [ROUNDS] [HASHES] [X0]`
//! (defaults: `circomlib`, 15 rounds of 2000 hashes, `X0 = 1`). The last line is machine
//! readable: `chain <preset> best_us=… median_us=… bound_us=… last=<decimal>`.

use std::hint::black_box;
use std::process::ExitCode;

use zkaccel_bn254::Fr;
use zkaccel_field::{Field, PrimeField};
use zkaccel_field_testing::bench::{timed, CpuClock};
use zkaccel_fp256::kernels::LazyFp256;
use zkaccel_presets::MimcPreset as Preset;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn best(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Thread CPU seconds of each of `rounds` runs of `f`.
fn samples(rounds: usize, mut f: impl FnMut()) -> Vec<f64> {
    (0..rounds)
        .map(|_| timed(CpuClock::Thread, &mut f).1)
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset_name = args.first().map_or("circomlib", String::as_str);
    let preset = match preset_name.parse::<Preset>() {
        Ok(p) if !p.is_feistel() => p,
        Ok(_) => {
            eprintln!("{preset_name} is not a Miyaguchi–Preneel cipher preset");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let number = |i: usize, default: usize| -> Option<usize> {
        args.get(i)
            .map_or(Some(default), |a| a.parse().ok().filter(|&n| n > 0))
    };
    let (Some(rounds), Some(hashes)) = (number(1, 15), number(2, 2000)) else {
        eprintln!("ROUNDS and HASHES are positive integers");
        return ExitCode::FAILURE;
    };
    let x0 = match args.get(3).map(|s| Fr::from_str_canonical(s)) {
        None => Fr::ONE,
        Some(Ok(x)) => x,
        Some(Err(e)) => {
            eprintln!("X0: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mimc = preset.cipher();
    let params = mimc.params();
    let (exponent, cipher_rounds) = (params.exponent(), params.rounds());
    // Dependent squarings and products per round of the power map's chain: x^5 = (x²)²·x,
    // x^7 = (x²·x)·(x²)² (the middle product and squaring run side by side, but they share
    // the multiplier, which one chain already keeps busy).
    let (squarings, products) = match exponent {
        3 => (1, 1),
        5 => (2, 1),
        7 => (2, 2),
        _ => {
            eprintln!("no bound for x^{exponent}");
            return ExitCode::FAILURE;
        }
    };

    let chain = || {
        let mut x = x0;
        for _ in 0..hashes {
            x = mimc.hash(&[black_box(x)], Fr::ZERO);
        }
        x
    };
    let last = chain();
    let lazy = |x: Fr| LazyFp256::new(x).expect("BN254 Fr leaves room for lazy reduction");
    let steps = hashes * cipher_rounds;
    let product_chain = || {
        let (mut x, y) = (lazy(x0 + Fr::TWO), lazy(Fr::from_u64_reduced(7)));
        for _ in 0..steps {
            x = black_box(x) * y;
        }
        x.reduce()
    };
    let square_chain = || {
        let mut x = lazy(x0 + Fr::TWO);
        for _ in 0..steps {
            x = black_box(x).square();
        }
        x.reduce()
    };
    // Alternate the three in each round so that all see the same machine load.
    let (mut t_hash, mut t_mul, mut t_sq) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        t_hash.extend(samples(1, || {
            black_box(chain());
        }));
        t_mul.extend(samples(1, || {
            black_box(product_chain());
        }));
        t_sq.extend(samples(1, || {
            black_box(square_chain());
        }));
    }
    let per_hash = 1e6 / hashes as f64;
    let per_step = 1e9 / steps as f64;
    let (mul_ns, sq_ns) = (median(t_mul) * per_step, median(t_sq) * per_step);
    let bound_us =
        cipher_rounds as f64 * (squarings as f64 * sq_ns + products as f64 * mul_ns) / 1e3;
    let (best_us, median_us) = (best(&t_hash) * per_hash, median(t_hash) * per_hash);
    println!(
        "{preset_name} (x^{exponent}, {cipher_rounds} rounds): {rounds} rounds of {hashes} chained \
         one-element hashes, thread CPU time"
    );
    println!("  one lazy product in a chain {mul_ns:.2} ns, one squaring {sq_ns:.2} ns");
    println!(
        "  bound {cipher_rounds} × ({squarings} squarings + {products} products) = {bound_us:.2} µs"
    );
    println!(
        "  hash: best {best_us:.2} µs, median {median_us:.2} µs ({:.2} × the bound)",
        median_us / bound_us
    );
    println!(
        "chain {preset_name} best_us={best_us:.4} median_us={median_us:.4} bound_us={bound_us:.4} last={last}"
    );
    ExitCode::SUCCESS
}
