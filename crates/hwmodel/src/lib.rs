#![doc = include_str!("../README.md")]

pub mod acclmt;
pub mod amaze;
pub mod ntt_fpga;
pub mod unizk;
