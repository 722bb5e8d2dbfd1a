#![doc = include_str!("../README.md")]

pub mod circomlib;
pub mod mimc;
pub mod neptune;
pub mod plonky3;

pub use circomlib::{CircomHasher, CircomPoseidon};
pub use mimc::MimcPreset;
pub use neptune::{HashType, NeptuneHasher, NeptunePoseidon, Strength};
pub use plonky3::Plonky3Poseidon1;
