//! The Rust side of the Python overhead benchmark (`benches/overhead.py` runs it): the same
//! calls the Python package makes, on the same inputs, through the Rust API directly. Prints
//! one JSON object: case → the seconds of each of `--repeats` runs.
//!
//! `cargo run --release -p zkaccel-python --example overhead_rust -- --repeats 5`

use std::collections::BTreeMap;
use std::time::Instant;

use zkaccel_bn254::Fr as Bn;
use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_merkle::{MerkleTree, Plonky2Hasher};
use zkaccel_ntt::{NttPlan, Order};
use zkaccel_poseidon::Plonky2Poseidon;

fn time<T>(repeats: usize, mut input: impl FnMut() -> T, mut run: impl FnMut(T)) -> Vec<f64> {
    let mut xs = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let x = input();
        let start = Instant::now();
        run(x);
        xs.push(start.elapsed().as_secs_f64());
    }
    xs
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let repeats = args
        .iter()
        .position(|a| a == "--repeats")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize);
    let mut out = BTreeMap::new();

    // Inputs: the rules benches/overhead.py uses.
    let states: Vec<Goldilocks> = (0..(1u64 << 18) * 12)
        .map(Goldilocks::new_reduced)
        .collect();
    let perm = Plonky2Poseidon::get().permutation();
    out.insert(
        "poseidon_permute_2^18",
        time(
            repeats,
            || states.clone(),
            |mut s| perm.permute_many(&mut s).unwrap(),
        ),
    );

    let plan = NttPlan::<Goldilocks>::new(20).unwrap();
    let values: Vec<Goldilocks> = (0..1u64 << 20).map(Goldilocks::new_reduced).collect();
    out.insert(
        "ntt_goldilocks_2^20",
        time(
            repeats,
            || values.clone(),
            |mut v| plan.forward(&mut v, Order::NN).unwrap(),
        ),
    );

    let plan = NttPlan::<Bn>::new(20).unwrap();
    let values: Vec<Bn> = (0..1u64 << 20).map(Bn::from_u64_reduced).collect();
    out.insert(
        "ntt_bn254_2^20",
        time(
            repeats,
            || values.clone(),
            |mut v| plan.forward(&mut v, Order::NN).unwrap(),
        ),
    );

    let leaves: Vec<Goldilocks> = (0..1u64 << 20)
        .flat_map(|i| (0..8).map(move |j| Goldilocks::new_reduced(i * 1_000_003 + j)))
        .collect();
    out.insert(
        "merkle_plonky2_2^20x8",
        time(
            repeats,
            || leaves.clone(),
            |l| {
                MerkleTree::new(Plonky2Hasher, l, 8, 0).unwrap();
            },
        ),
    );
    println!("{}", serde_json::to_string(&out).expect("plain numbers"));
}
