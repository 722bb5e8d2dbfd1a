//! Instances bit-exact with the standards users rely on.

pub mod circomlib;
pub mod neptune;
pub mod plonky2;
