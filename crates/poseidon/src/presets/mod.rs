//! Instances bit-exact with the standards users rely on.

mod latency12;
pub mod plonky2;
pub mod plonky3;
