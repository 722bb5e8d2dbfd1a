//! Why a proof could not be made or was not accepted.

use zkaccel_fri::FriError;

/// Errors of the STARK prover and verifier. [`StarkError::is_rejection`] tells a false proof
/// from unusable input.
#[derive(Debug, thiserror::Error)]
pub enum StarkError {
    /// A configuration out of range.
    #[error("configuration: {0}")]
    Config(String),
    /// A trace of the wrong shape, or one that does not satisfy the AIR.
    #[error("trace: {0}")]
    Trace(String),
    /// Public inputs of the wrong number.
    #[error("public inputs: {0}")]
    PublicInputs(String),
    /// A proof whose shape (a count, a length) disagrees with the statement and configuration.
    #[error("proof shape: {0}")]
    ProofShape(#[from] zkaccel_codec::ShapeError),
    /// Bytes that are not a proof's encoding (the shared decoder's typed error).
    #[error("proof shape: {0}")]
    Decode(#[from] zkaccel_codec::DecodeError),
    /// A well-formed proof that does not verify.
    #[error("proof rejected: {0}")]
    Rejected(String),
    /// A proof whose configuration conjectures less security than the verifier's policy asks.
    #[error(
        "the proof's configuration conjectures {conjectured_bits} bits of security, below the \
         {min_bits} the verifier requires"
    )]
    BelowPolicy {
        /// The proof's conjectured security.
        conjectured_bits: usize,
        /// The policy's minimum.
        min_bits: usize,
    },
    /// A proof made under another configuration than the verifier's policy names.
    #[error("the proof's {parameter} is {got}, not the {expected} required")]
    ConfigMismatch {
        /// The parameter.
        parameter: &'static str,
        /// What the policy requires.
        expected: String,
        /// What the proof states.
        got: String,
    },
    /// A trace row on which a constraint does not vanish (the prover checks every row first,
    /// where starky would make a proof that fails to verify).
    #[error("constraint {constraint} (in emission order) fails at row {row} of {rows}")]
    Unsatisfied {
        /// The constraint's index in emission order.
        constraint: usize,
        /// The row, from 0.
        row: usize,
        /// Rows of the trace.
        rows: usize,
    },
    /// An AIR whose constraint is of a higher degree than [`crate::Air::constraint_degree`]
    /// declares ([`crate::check_constraint_degrees`]).
    #[error(
        "constraint {constraint} (in emission order) has degree {degree} over a {rows}-row \
         trace, above the {allowed} that the declared constraint degree {declared} allows: \
         declare at least {needed}"
    )]
    ConstraintDegree {
        /// The constraint's index in emission order.
        constraint: usize,
        /// Its degree as a polynomial over the LDE, row filter included.
        degree: usize,
        /// Rows of the random trace it was measured on.
        rows: usize,
        /// The largest degree the declared constraint degree allows, `rows·declared − 1`.
        allowed: usize,
        /// [`crate::Air::constraint_degree`].
        declared: usize,
        /// The smallest constraint degree that allows it.
        needed: usize,
    },
    /// From FRI.
    #[error(transparent)]
    Fri(#[from] FriError),
}

impl StarkError {
    /// A FRI error met while checking a configuration: its configuration message as
    /// [`StarkError::Config`], anything else kept typed as [`StarkError::Fri`].
    pub fn from_fri_config(e: FriError) -> Self {
        match e {
            FriError::Config(m) => Self::Config(m),
            other => Self::Fri(other),
        }
    }

    /// Whether the proof was well formed and false.
    pub fn is_rejection(&self) -> bool {
        match self {
            Self::Rejected(_) | Self::BelowPolicy { .. } | Self::ConfigMismatch { .. } => true,
            Self::Fri(e) => e.is_rejection(),
            _ => false,
        }
    }
}
