#![doc = include_str!("../README.md")]

mod batch;
mod error;
pub mod grain;
pub mod limits;
mod matrix;
pub mod mds_security;
mod params;
mod permutation;
pub mod presets;
pub mod reference;
pub mod rounds;

pub use batch::INTERLEAVE;
pub use error::PoseidonError;
pub use matrix::Matrix;
pub use params::{check_alpha, PoseidonParams};
pub use permutation::{permute_textbook, Poseidon, MAX_KERNEL_WIDTH};

/// The kernels [`Poseidon::permute_many`] runs, for differential tests and benchmarks
/// (feature `kernels`, off by default; this crate's tests turn it on): the permutation written
/// once over [`zkaccel_field::PackedField`], with either form of the partial rounds.
#[cfg(feature = "kernels")]
pub mod kernels {
    pub use crate::permutation::{
        partial_rounds_linear, partial_rounds_sparse, permute_lanes, permute_lanes_with,
        KernelConstants, LinearPartial, PartialRounds, MAX_LINEAR_PARTIAL_ROUNDS,
    };
}
pub use presets::circomlib::CircomPoseidon;
pub use presets::neptune::{HashType, NeptunePoseidon, Strength};
pub use presets::plonky2::Plonky2Poseidon;

use zkaccel_field::PrimeField;

/// A Poseidon hash that compresses `arity` field elements into one: the node hash of an
/// arity-`k` Merkle tree (neptune's Merkle domain, circomlib's `poseidon`).
pub trait ArityHasher<F>: Sync {
    /// The preset's name.
    const NAME: &'static str;
    /// Children per node.
    fn arity(&self) -> usize;
    /// Distinguishes parameter sets of one preset whose outputs differ (neptune: 0 for
    /// Standard, 1 for Strengthened); 0 where the preset has none.
    fn variant(&self) -> u8 {
        0
    }
    /// The parent of exactly `arity` children.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] for another number of children.
    fn hash_node(&self, children: &[F]) -> Result<F, PoseidonError>;
    /// The parents of consecutive groups of `arity` children, on all cores.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when the length is not a multiple of the arity.
    fn hash_nodes(&self, children: &[F]) -> Result<Vec<F>, PoseidonError>;
}

impl<F: PrimeField> ArityHasher<F> for NeptunePoseidon<F> {
    const NAME: &'static str = "neptune";
    fn arity(&self) -> usize {
        NeptunePoseidon::arity(self)
    }
    fn variant(&self) -> u8 {
        match self.strength() {
            Strength::Standard => 0,
            Strength::Strengthened => 1,
        }
    }
    fn hash_node(&self, children: &[F]) -> Result<F, PoseidonError> {
        self.hash(children)
    }
    fn hash_nodes(&self, children: &[F]) -> Result<Vec<F>, PoseidonError> {
        self.hash_many(children)
    }
}

impl ArityHasher<zkaccel_bn254::Fr> for CircomPoseidon {
    const NAME: &'static str = "circomlib";
    fn arity(&self) -> usize {
        self.width() - 1
    }
    fn hash_node(
        &self,
        children: &[zkaccel_bn254::Fr],
    ) -> Result<zkaccel_bn254::Fr, PoseidonError> {
        self.hash(children)
    }
    fn hash_nodes(
        &self,
        children: &[zkaccel_bn254::Fr],
    ) -> Result<Vec<zkaccel_bn254::Fr>, PoseidonError> {
        self.hash_many(children)
    }
}

impl<A: ArityHasher<F>, F> ArityHasher<F> for &A {
    const NAME: &'static str = A::NAME;
    fn arity(&self) -> usize {
        (**self).arity()
    }
    fn hash_node(&self, children: &[F]) -> Result<F, PoseidonError> {
        (**self).hash_node(children)
    }
    fn hash_nodes(&self, children: &[F]) -> Result<Vec<F>, PoseidonError> {
        (**self).hash_nodes(children)
    }
}
