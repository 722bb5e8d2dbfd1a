#![doc = include_str!("../README.md")]

pub mod acclmt;
pub mod amaze;
mod error;
pub mod ntt_fpga;
pub mod sweep;
pub mod unizk;

pub use error::{ModelError, Names, Range};
pub use sweep::{Sweep, SweepChart, SweepModel, SweepPoint};
