//! Helpers shared by the Merkle integration tests.

use rand::{Rng, SeedableRng};
use zkaccel_field::PrimeField;
use zkaccel_merkle::{MerkleTree, TreeHasher};
use zkaccel_plonky2::Plonky2Hasher;

/// A uniformly random element (64 random bytes reduced).
pub fn random<F: PrimeField>(rng: &mut impl Rng) -> F {
    let bytes: Vec<u8> = (0..64).map(|_| rng.gen()).collect();
    F::from_bytes_le_reduced(&bytes)
}

/// A plonky2 tree of `n` random rows of width `w`.
pub fn plonky2_tree(n: usize, w: usize, cap: usize, seed: u64) -> MerkleTree<Plonky2Hasher> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let leaves = (0..n * w).map(|_| random(&mut rng)).collect();
    MerkleTree::new(Plonky2Hasher, leaves, w, cap).unwrap()
}

/// The rows at `indices`.
pub fn rows<H: TreeHasher>(tree: &MerkleTree<H>, indices: &[u64]) -> Vec<Vec<H::Element>> {
    indices
        .iter()
        .map(|&i| tree.leaf(i).unwrap().to_vec())
        .collect()
}
