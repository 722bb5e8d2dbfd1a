#![doc = include_str!("../README.md")]

mod batch;
mod cipher;
pub mod constants;
mod error;
mod feistel;
mod params;
pub mod presets;

pub use batch::{encrypt_textbook, permute_feistel_textbook, MimcField, SCALAR_LANES};

/// The individual batch kernels that [`Mimc::encrypt_batch`] and [`MimcSponge::hash_batch`]
/// choose among, for differential tests and benchmarks (feature `kernels`, off by default;
/// this crate's tests, examples and benches turn it on). Each checks its slice lengths:
/// unequal lengths are [`MimcError::LengthMismatch`], never a truncated batch.
#[cfg(feature = "kernels")]
pub mod kernels {
    pub use crate::batch::{
        encrypt_many_avx2, encrypt_many_hybrid, encrypt_many_interleaved, encrypt_many_lazy,
        encrypt_many_packed, permute_feistel_many_packed,
    };
}
pub use cipher::Mimc;
pub use error::MimcError;
pub use feistel::MimcSponge;
pub use params::{recommended_rounds, MimcParams};
pub use presets::Preset;
pub use zkaccel_field::sbox::{pow_sbox, sbox_multiplications};
