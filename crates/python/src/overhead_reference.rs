//! The Rust side of the Python overhead benchmark (`benches/overhead.py`): each call the
//! benchmark makes through the package, made through the Rust API directly on the same input
//! words and timed. Plain Rust, compiled twice: into the extension module, where
//! `zkaccel._native._overhead_reference` runs it on the very array the Python call is then
//! given (same binary, same memory: only what Python adds differs), and into
//! `examples/overhead_rust`, a binary of its own that makes the inputs by the same rules.

use std::time::Instant;

use zkaccel_bn254::Fr as Bn;
use zkaccel_field::PrimeField;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_merkle::MerkleTree;
use zkaccel_ntt::{NttPlan, Order};
use zkaccel_plonky2::Plonky2Hasher;
use zkaccel_plonky2::Plonky2Poseidon;

/// The cases, by the names the benchmark prints (its inputs: `examples/overhead_rust.rs`).
/// `ntt_goldilocks_2^20` runs a plain plan on typed elements (what a Rust caller whose
/// elements are already in the field runs); `ntt_goldilocks_2^20_checked` a plan that refuses
/// words `≥ p` and leaves canonical words (`checking_inputs_with`, `finishing_outputs_with`:
/// what a Rust caller handed words runs, and the contract of the package's `uint64` arrays).
pub const CASES: [&str; 5] = [
    "poseidon_permute_2^18",
    "ntt_goldilocks_2^20",
    "ntt_goldilocks_2^20_checked",
    "ntt_bn254_2^20",
    "merkle_plonky2_2^20x8",
];

/// Seconds of `run` on `words` in place, or (`copy`) on a copy of them that the timed call
/// makes first and returns, as a Python call that returns a new array does.
fn timed<T: Clone>(
    words: &mut [T],
    copy: bool,
    run: impl Fn(&mut [T]) -> Result<(), String>,
) -> Result<f64, String> {
    let start = Instant::now();
    let result = if copy {
        let mut fresh = words.to_vec();
        run(&mut fresh).map(|()| Some(fresh))
    } else {
        run(words).map(|()| None)
    };
    let seconds = start.elapsed().as_secs_f64();
    // Released untimed, as Python's timer stops before the returned array is.
    drop(result?);
    Ok(seconds)
}

/// Makes case `case`'s call through the Rust API on `words` (the case's input layout, canonical
/// words) and returns its seconds: in place, or (`copy`) on a copy the call makes. The
/// Goldilocks cases run on the words themselves; BN254 runs on the same values as typed
/// elements (`Vec<Fr>`, converted untimed, as a Rust caller holds them); the Merkle tree takes
/// its leaves by value, converted untimed (`copy` does not apply).
///
/// # Errors
/// An unknown case, a wrong input length, or the call's error.
pub fn time_call(case: &str, words: &mut [u64], copy: bool) -> Result<f64, String> {
    let field = |words: &mut [u64]| Goldilocks::slice_from_words_mut(words).to_vec();
    match case {
        "poseidon_permute_2^18" => {
            let perm = Plonky2Poseidon::get().permutation();
            timed(Goldilocks::slice_from_words_mut(words), copy, |s| {
                perm.permute_many(s).map_err(|e| e.to_string())
            })
        }
        "ntt_goldilocks_2^20" | "ntt_goldilocks_2^20_checked" => {
            let mut plan = NttPlan::<Goldilocks>::new(20).map_err(|e| e.to_string())?;
            if case.ends_with("_checked") {
                plan = plan
                    .checking_inputs_with(Goldilocks::all_canonical)
                    .finishing_outputs_with(|v| {
                        Goldilocks::canonical_words_mut(v);
                    });
            }
            timed(Goldilocks::slice_from_words_mut(words), copy, |v| {
                plan.forward(v, Order::NN).map_err(|e| e.to_string())
            })
        }
        "ntt_bn254_2^20" => {
            let plan = NttPlan::<Bn>::new(20).map_err(|e| e.to_string())?;
            let mut values = words
                .chunks_exact(4)
                .map(|limbs| {
                    let limbs: [u64; 4] = limbs.try_into().expect("chunks of four");
                    Bn::from_canonical_limbs(limbs).map_err(|e| e.to_string())
                })
                .collect::<Result<Vec<Bn>, String>>()?;
            timed(&mut values, copy, |v| {
                plan.forward(v, Order::NN).map_err(|e| e.to_string())
            })
        }
        "merkle_plonky2_2^20x8" => {
            let leaves = field(words);
            let start = Instant::now();
            let tree = MerkleTree::new(Plonky2Hasher, leaves, 8, 0).map_err(|e| e.to_string())?;
            let seconds = start.elapsed().as_secs_f64();
            drop(tree);
            Ok(seconds)
        }
        _ => Err(format!(
            "unknown case {case:?}; known: {}",
            CASES.join(", ")
        )),
    }
}
