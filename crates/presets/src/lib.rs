#![doc = include_str!("../README.md")]

pub mod circomlib;
pub mod neptune;

pub use circomlib::{CircomHasher, CircomPoseidon};
pub use neptune::{HashType, NeptuneHasher, NeptunePoseidon, Strength};
