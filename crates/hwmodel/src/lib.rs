#![doc = include_str!("../README.md")]

pub mod acclmt;
pub mod amaze;
mod error;
pub mod ntt_fpga;
pub mod unizk;

pub use error::{ModelError, Names, Range};
