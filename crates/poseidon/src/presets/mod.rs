//! Instances bit-exact with the standards users rely on.

pub mod circomlib;
pub mod neptune;
pub mod plonky2;
#[cfg(target_arch = "x86_64")]
mod plonky2_avx512;
mod plonky2_partial;
