#![doc = include_str!("../README.md")]

mod air;
mod airs;
mod config;
mod degree;
mod error;
mod op_program;
mod proof;
mod prover;
mod quotient;
mod transcript;
mod verifier;

pub use air::{Air, ConstraintBuilder};
pub use airs::{FactorialAir, FibonacciAir};
pub use config::{
    ConfigRequirement, StarkConfig, VerifierPolicy, DEFAULT_MIN_SECURITY_BITS, MAX_CHALLENGES,
};
pub use degree::{check_constraint_degrees, DEGREE_CHECK_ROWS, MAX_CHECKED_DEGREE};
pub use error::{Rejection, StarkError};
pub use proof::StarkProof;
pub use prover::prove;
pub use verifier::{verify, VerifyMode};
