//! plonky2's Merkle tree hasher.

use crate::poseidon::Digest as Plonky2Digest;
use crate::Plonky2Poseidon;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_merkle::{MerkleError, TreeHasher};

/// plonky2's `MerkleTree`: leaves hashed with `hash_or_noop`, binary nodes `two_to_one`.
#[derive(Debug, Clone, Copy)]
pub struct Plonky2Hasher;

impl TreeHasher for Plonky2Hasher {
    type Element = Goldilocks;
    type Digest = Plonky2Digest;
    const NAME: &'static str = "plonky2";
    const ID: u8 = 1;
    const DIGEST_ELEMENTS: usize = 4;

    fn arity(&self) -> usize {
        2
    }

    fn hash_name(&self) -> String {
        // plonky2's tree hash is its width-12 Poseidon permutation.
        zkaccel_symmetric::Permutation::name(Plonky2Poseidon::get().permutation())
    }

    fn check_leaf_width(&self, _width: usize) -> Result<(), MerkleError> {
        Ok(())
    }

    fn hash_leaf(&self, row: &[Goldilocks]) -> Plonky2Digest {
        Plonky2Poseidon::get().hash_or_noop(row)
    }

    fn hash_leaves(&self, rows: &[Goldilocks], width: usize, out: &mut [Plonky2Digest]) {
        // Lengths are the caller's contract; an error here would be a bug in this crate.
        Plonky2Poseidon::get()
            .hash_or_noop_rows(rows, width, out)
            .expect("rows.len() = width·out.len()");
    }

    fn compress(&self, children: &[Plonky2Digest]) -> Plonky2Digest {
        Plonky2Poseidon::get().two_to_one(&children[0], &children[1])
    }

    fn compress_many(&self, children: &[Plonky2Digest], out: &mut [Plonky2Digest]) {
        Plonky2Poseidon::get()
            .two_to_one_many(children, out)
            .expect("children.len() = 2·out.len()");
    }

    fn digest_elements(d: &Plonky2Digest) -> Vec<Goldilocks> {
        d.to_vec()
    }

    fn digest_from_elements(e: &[Goldilocks]) -> Plonky2Digest {
        [e[0], e[1], e[2], e[3]]
    }
}
