//! One neptune binary tree over BLS12-381, ours vs neptune's hash level by level on all cores,
//! on the same random leaves; prints both times, the ratio and leaves/s.
//! `cargo run --release -p zkaccel-merkle --example neptune_compare -- 20`

use std::time::Instant;

use ff::PrimeField as _;
use generic_array::typenum::U2;
use neptune::poseidon::PoseidonConstants;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_field::PrimeField;
use zkaccel_merkle::MerkleTree;
use zkaccel_presets::{NeptuneHasher, NeptunePoseidon, Strength};

#[path = "../benches/common/neptune_tree.rs"]
mod neptune_tree;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let log_n: u32 = std::env::args().nth(1).map_or(Ok(16), |a| a.parse())?;
    let n = 1usize << log_n;
    let mut rng = zkaccel_field_testing::rng();
    let (leaves, theirs) = neptune_tree::random_leaves(&mut rng, n);
    let hasher = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(2, Strength::Standard)?);
    let constants = PoseidonConstants::<blstrs::Scalar, U2>::new();

    let start = Instant::now();
    let tree = MerkleTree::new(hasher, leaves, 1, 0)?;
    let ours = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let root = neptune_tree::neptune_root(&constants, &theirs);
    let peer = start.elapsed().as_secs_f64();
    if tree.cap()[0].to_bytes_le() != root.to_repr().to_vec() {
        return Err("roots differ".into());
    }
    println!(
        "2^{log_n} leaves, {} threads: neptune {peer:.3} s, zkaccel {ours:.3} s, ratio {:.2}x, \
         zkaccel {:.0} leaves/s",
        rayon::current_num_threads(),
        peer / ours,
        n as f64 / ours
    );
    Ok(())
}
