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

pub use batch::BatchKernel;
pub use error::PoseidonError;
pub use matrix::Matrix;
pub use params::{check_alpha, PoseidonParams};
pub use permutation::{permute_textbook, Poseidon, MAX_KERNEL_WIDTH};

/// The lane abstraction and the kernels that [`Poseidon::permute_many`] chooses among, for
/// differential tests and benchmarks (feature `kernels`, off by default; this crate's tests
/// turn it on). Batch entry points check their lengths: a slice that is not whole states is
/// [`PoseidonError::InputLength`], never a truncated batch.
#[cfg(feature = "kernels")]
pub mod kernels {
    pub use crate::batch::{permute_many_interleaved, INTERLEAVE};
    pub use crate::permutation::{
        partial_rounds_linear, partial_rounds_sparse, permute_lanes, Interleaved, KernelConstants,
        Lanes, LinearLanes, LinearPartial, Scalar, MAX_LINEAR_PARTIAL_ROUNDS,
    };
}
pub use presets::circomlib::CircomPoseidon;
pub use presets::neptune::{HashType, NeptunePoseidon, Strength};
pub use presets::plonky2::Plonky2Poseidon;

use zkaccel_field::PrimeField;

/// A prime field Poseidon runs on, with its fastest kernels. Implemented for Goldilocks (AVX-512
/// / AVX2 packings) and every [`zkaccel_fp256::Fp256`] field (AVX-512 IFMA); another field
/// implements it with an empty body to get the portable kernels.
pub trait PoseidonField: PrimeField {
    /// `Σ_j row[j]·xs[j]`; `small` is the same row as integers when the matrix is small.
    #[inline(always)]
    fn dot_row(xs: &[Self], row: &[Self], small: Option<&[u32]>) -> Self {
        let _ = small;
        batch::dot_generic(xs, row)
    }

    /// `Σ_j xs[j]·cs[j]`; fields with lazy reduction override it.
    #[inline(always)]
    fn dot_product(xs: &[Self], cs: &[Self]) -> Self {
        batch::dot_generic(xs, cs)
    }

    /// `x·c + acc`; fields with lazy reduction override it.
    #[inline(always)]
    fn mul_add(x: Self, c: Self, acc: Self) -> Self {
        x * c + acc
    }

    /// The batch kernels this CPU can run for the field, fastest first.
    fn kernels() -> Vec<BatchKernel> {
        vec![BatchKernel::Interleaved]
    }

    /// Permutes the states stored back to back in `states` (a multiple of the width) on the
    /// calling thread, with the fastest kernel.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] unless `states` holds whole states (nothing is permuted).
    fn permute_many(p: &Poseidon<Self>, states: &mut [Self]) -> Result<(), PoseidonError> {
        // The first listed kernel is always available: only the lengths can be wrong.
        Self::permute_many_using(p, Self::kernels()[0], states)
    }

    /// As [`PoseidonField::permute_many`] with a chosen kernel (tests and benchmarks compare
    /// them).
    ///
    /// # Errors
    /// [`PoseidonError::Unsupported`] when the kernel does not exist for this field or CPU;
    /// [`PoseidonError::InputLength`] unless `states` holds whole states (nothing is permuted).
    fn permute_many_using(
        p: &Poseidon<Self>,
        kernel: BatchKernel,
        states: &mut [Self],
    ) -> Result<(), PoseidonError> {
        p.check_states(states.len())?;
        if kernel != BatchKernel::Interleaved {
            return Err(batch::unavailable(kernel, Self::NAME));
        }
        batch::permute_many_interleaved(p, states)
    }
}

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

impl<F: PoseidonField> ArityHasher<F> for NeptunePoseidon<F> {
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
