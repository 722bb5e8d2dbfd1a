#![doc = include_str!("../README.md")]

mod air;
mod airs;
mod config;
mod error;
mod op_program;
mod proof;
mod prover;
pub mod shipped;
mod transcript;
mod verifier;

pub use air::{Air, ConstraintConsumer, Frame};
pub use airs::{FactorialAir, FibonacciAir};
pub use config::{
    ConfigRequirement, StarkConfig, VerifierPolicy, DEFAULT_MIN_SECURITY_BITS, MAX_CHALLENGES,
};
pub use error::StarkError;
pub use proof::StarkProof;
pub use prover::{prove, prove_traced};
pub use shipped::{ShippedAir, Statement};
pub use verifier::{decode, verify, VerifyMode};
