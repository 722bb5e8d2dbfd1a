//! The Rust side of the Python overhead benchmark as a binary of its own
//! (`benches/overhead.py` runs it next to the same calls timed inside the extension module):
//! makes each case's input by the benchmark's rules and prints one JSON object, case → the
//! seconds of each of `--repeats` runs.
//!
//! `cargo run --release -p zkaccel-python --example overhead_rust -- --repeats 5`

use std::collections::BTreeMap;

#[path = "../src/overhead_reference.rs"]
mod overhead_reference;

use overhead_reference::{time_call, CASES};

/// The input words of case `case`, by the rules `benches/overhead.py` makes them with numpy.
pub fn input(case: &str) -> Option<Vec<u64>> {
    Some(match case {
        "poseidon_permute_2^18" => (0..(1u64 << 18) * 12).collect(),
        "ntt_goldilocks_2^20" | "ntt_goldilocks_2^20_checked" => (0..1u64 << 20).collect(),
        // (2^20, 4) limbs: `i` in the low limb.
        "ntt_bn254_2^20" => (0..1u64 << 20).flat_map(|i| [i, 0, 0, 0]).collect(),
        // (2^20, 8): leaf `i`, column `j` holds `i·1,000,003 + j`.
        "merkle_plonky2_2^20x8" => (0..1u64 << 20)
            .flat_map(|i| (0..8).map(move |j| i * 1_000_003 + j))
            .collect(),
        _ => return None,
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let repeats = args
        .iter()
        .position(|a| a == "--repeats")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize);
    let mut out: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for _ in 0..repeats {
        for case in CASES {
            let words = input(case).ok_or("a known case")?;
            // The Merkle tree takes its leaves by value: one way only.
            let ways: &[(&str, bool)] = if case.starts_with("merkle") {
                &[("", false)]
            } else {
                &[(" (in place)", false), (" (new array)", true)]
            };
            for &(suffix, copy) in ways {
                let mut w = words.clone();
                let seconds = time_call(case, &mut w, copy)?;
                out.entry(format!("{case}{suffix}"))
                    .or_default()
                    .push(seconds);
            }
        }
    }
    println!(
        "{}",
        serde_json::to_string(&out).map_err(|e| e.to_string())?
    );
    Ok(())
}
