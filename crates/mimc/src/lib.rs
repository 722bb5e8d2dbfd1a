#![doc = include_str!("../README.md")]

mod batch;
pub mod chains;
mod cipher;
pub mod constants;
mod error;
mod feistel;
mod params;

pub use batch::{encrypt_textbook, permute_feistel_textbook};
pub use chains::MimcField;
pub use cipher::Mimc;
pub use error::MimcError;
pub use feistel::MimcSponge;

/// The most elements one sponge hash squeezes (circomlib's gadgets squeeze a handful).
pub const MAX_SPONGE_OUTPUTS: usize = 1 << 16;
pub use params::{recommended_rounds, MimcParams};
pub use zkaccel_symmetric::sbox::{pow_sbox, sbox_multiplications};
