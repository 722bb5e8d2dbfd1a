//! The peer side of the neptune tree comparison, shared by the bench and
//! `examples/neptune_compare.rs`.

use ff::PrimeField as _;
use generic_array::typenum::U2;
use neptune::poseidon::PoseidonConstants;
use rand::Rng;
use rayon::prelude::*;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_field::PrimeField;

/// neptune's hash over a binary tree, level by level on all cores (what neptune's GPU-feature
/// tree builder computes); returns the root.
pub fn neptune_root(
    constants: &PoseidonConstants<blstrs::Scalar, U2>,
    leaves: &[blstrs::Scalar],
) -> blstrs::Scalar {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = level
            .par_chunks(2)
            .map(|c| neptune::poseidon::Poseidon::new_with_preimage(c, constants).hash())
            .collect();
    }
    level[0]
}

/// `n` random BLS12-381 leaves, ours and the same values as blstrs scalars.
pub fn random_leaves(rng: &mut impl Rng, n: usize) -> (Vec<Bls>, Vec<blstrs::Scalar>) {
    let ours: Vec<Bls> = (0..n)
        .map(|_| Bls::from_bytes_le_reduced(&(0..64).map(|_| rng.gen()).collect::<Vec<u8>>()))
        .collect();
    let theirs = ours
        .iter()
        .map(|x| {
            let repr: [u8; 32] = x.to_bytes_le().try_into().expect("32 bytes");
            blstrs::Scalar::from_repr(repr).expect("canonical")
        })
        .collect();
    (ours, theirs)
}
