#![doc = include_str!("../README.md")]

mod batch;
mod cipher;
pub mod constants;
mod error;
mod feistel;
mod params;
pub mod presets;

pub use batch::{
    encrypt_many_avx2, encrypt_many_hybrid, encrypt_many_interleaved, encrypt_many_lazy,
    encrypt_textbook, permute_feistel_many_packed, permute_feistel_textbook, MimcField,
    SCALAR_LANES,
};
pub use cipher::Mimc;
pub use error::MimcError;
pub use feistel::MimcSponge;
pub use params::{recommended_rounds, MimcParams};
pub use presets::Preset;
pub use zkaccel_field::sbox::{pow_sbox, sbox_multiplications};
