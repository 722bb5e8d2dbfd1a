#![doc = include_str!("../README.md")]

mod batch;
mod cipher;
pub mod constants;
mod error;
mod feistel;
mod params;
pub mod presets;

pub use batch::{encrypt_textbook, permute_feistel_textbook};
pub use cipher::Mimc;
pub use error::MimcError;
pub use feistel::MimcSponge;
pub use params::{recommended_rounds, MimcParams};
pub use presets::Preset;
pub use zkaccel_field::sbox::{pow_sbox, sbox_multiplications};
