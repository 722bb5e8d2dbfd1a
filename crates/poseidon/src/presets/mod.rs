//! Instances bit-exact with the standards users rely on.

pub mod circomlib;
mod latency12;
pub mod neptune;
pub mod plonky2;
pub mod plonky3;
