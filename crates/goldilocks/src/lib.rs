#![doc = include_str!("../README.md")]

pub mod butterflies;
mod extension;
mod field;
pub mod poseidon12;
#[cfg(target_arch = "x86_64")]
pub mod x86_64;

pub use extension::Goldilocks2;
pub use field::{Goldilocks, ORDER};
