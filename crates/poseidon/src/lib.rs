#![doc = include_str!("../README.md")]

mod batch;
mod error;
pub mod grain;
pub mod limits;
mod matrix;
pub mod mds_security;
mod packing;
mod params;
mod permutation;
pub mod reference;
pub mod rounds;
mod uniform;

pub use batch::INTERLEAVE;
pub use error::PoseidonError;
pub use matrix::Matrix;
pub use packing::{PoseidonField, PoseidonKernel, PoseidonPacking};
pub use params::{check_alpha, PoseidonParams};
pub use permutation::{
    permute_textbook, KernelConstants, LinearPartial, Poseidon, SparsePartial, MAX_KERNEL_WIDTH,
};
pub use uniform::{LinearLayer, UniformRounds};

/// The kernels [`Poseidon::permute_many`] runs, for differential tests and benchmarks
/// (feature `kernels`, off by default; this crate's tests turn it on): the permutation written
/// once over [`zkaccel_field::PackedField`], with either form of the partial rounds.
#[cfg(feature = "kernels")]
pub mod kernels {
    pub use crate::permutation::{
        partial_rounds_latency, partial_rounds_linear, partial_rounds_sparse, permute_lanes,
        permute_lanes_with, KernelConstants, LinearPartial, PartialRounds,
        MAX_LINEAR_PARTIAL_ROUNDS,
    };
}
