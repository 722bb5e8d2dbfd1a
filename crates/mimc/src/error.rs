//! Errors of the MiMC constructors and batch APIs.

use thiserror::Error;
use zkaccel_field::FieldError;

/// What was wrong with MiMC parameters or inputs.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MimcError {
    /// `x ↦ x^d` is not a permutation of the field: `gcd(d, p − 1) ≠ 1`.
    #[error("x^{exponent} is not a permutation of {field}: gcd({exponent}, p - 1) = {gcd}")]
    ExponentNotPermutation {
        /// The rejected exponent.
        exponent: u64,
        /// The field's name.
        field: &'static str,
        /// `gcd(d, p − 1)`.
        gcd: u64,
    },
    /// Exponents below 2 are not S-boxes.
    #[error("exponent {0} is too small: MiMC needs d >= 3")]
    ExponentTooSmall(u64),
    /// A cipher needs at least one round.
    #[error("MiMC needs at least one round")]
    ZeroRounds,
    /// The constant table does not have one constant per round.
    #[error("{actual} round constants for {expected} rounds")]
    ConstantCount {
        /// The number of rounds.
        expected: usize,
        /// The number of constants supplied.
        actual: usize,
    },
    /// A sponge was asked for no output.
    #[error("a MiMC sponge must squeeze at least one output")]
    ZeroOutputs,
    /// A sponge was asked for more outputs than [`crate::MAX_SPONGE_OUTPUTS`].
    #[error("{0} sponge outputs: at most {max}", max = crate::MAX_SPONGE_OUTPUTS)]
    TooManyOutputs(usize),
    /// Batch inputs of different lengths.
    #[error("batch inputs differ in length: {messages} messages, {keys} keys")]
    LengthMismatch {
        /// Number of messages.
        messages: usize,
        /// Number of keys.
        keys: usize,
    },
    /// A two-to-one compression was handed another number of children, or a permutation a
    /// state of another width.
    #[error("expected {expected} elements, got {actual}")]
    InputLength {
        /// The number required (or, for batches, the next whole multiple).
        expected: usize,
        /// The number supplied.
        actual: usize,
    },
    /// A preset name that does not exist.
    #[error(
        "unknown MiMC preset {name:?}: expected circomlib, gnark, ethsnarks or circomlib-sponge"
    )]
    UnknownPreset {
        /// The name given, at most 40 characters of it.
        name: String,
    },
    /// A field element could not be decoded.
    #[error(transparent)]
    Field(#[from] FieldError),
}
