//! Why a proof could not be made or was not accepted.

use zkaccel_codec::{Classify, ErrorClass};
use zkaccel_field::FieldError;
use zkaccel_fri::FriError;

/// Errors of the STARK prover and verifier, each with its values as fields (no message to
/// parse). [`StarkError::is_rejection`] tells a false proof from unusable input.
#[derive(Debug, thiserror::Error)]
pub enum StarkError {
    /// A parameter outside the range the prover, the verifier or the degree check supports.
    #[error("{what} is {got}; supported: {min} to {max}")]
    OutOfRange {
        /// The parameter.
        what: &'static str,
        /// Its value.
        got: u64,
        /// The least value supported.
        min: u64,
        /// The largest value supported.
        max: u64,
    },
    /// FRI parameters that conjecture less security than the configuration's target.
    #[error(
        "the FRI parameters give {conjectured_bits} conjectured bits, below the {target_bits} \
         asked for"
    )]
    BelowTarget {
        /// What the parameters conjecture ([`crate::StarkConfig::conjectured_security_bits`]).
        conjectured_bits: usize,
        /// The configuration's target.
        target_bits: usize,
    },
    /// A preset's overrides that conjecture less than the preset's target, which was not
    /// lowered explicitly.
    #[error(
        "the FRI parameters give {conjectured_bits} conjectured bits, below the preset's \
         {target_bits}; to prove below the preset's target, lower it explicitly \
         (--security-bits)"
    )]
    BelowPresetTarget {
        /// What the parameters conjecture.
        conjectured_bits: usize,
        /// The preset's target.
        target_bits: usize,
    },
    /// A configuration preset of another name.
    #[error("unknown configuration {name:?}; known: standard-fast, small-proofs")]
    UnknownPreset {
        /// The name asked for, at most 40 characters of it.
        name: String,
    },
    /// A constraint degree whose LDE would not fit in the field's two-adic subgroup.
    #[error(
        "constraint degree {degree}: an LDE of 2^{lde_bits} points is beyond the field's \
         two-adicity {two_adicity}"
    )]
    BeyondTwoAdicity {
        /// The declared constraint degree.
        degree: usize,
        /// `log2` of the LDE it needs.
        lde_bits: usize,
        /// The field's two-adicity.
        two_adicity: usize,
    },
    /// A constraint degree the rate cannot carry: the quotient needs `needed` rate bits.
    #[error("constraint degree {degree} needs rate bits of at least {needed}, not {rate_bits}")]
    RateTooLow {
        /// The declared constraint degree.
        degree: usize,
        /// The configuration's rate bits.
        rate_bits: usize,
        /// The fewest rate bits the degree allows.
        needed: usize,
    },
    /// An AIR whose number of constraints depends on the values it is evaluated on.
    #[error(
        "the AIR emitted {first} constraints at one point and {then} at another: the number \
         of constraints must not depend on the values"
    )]
    ConstraintCount {
        /// The count at the first point.
        first: usize,
        /// The count at a later one.
        then: usize,
    },
    /// A trace of the wrong number of columns, or columns of unequal lengths.
    #[error("trace: {0}")]
    TraceShape(zkaccel_codec::ShapeError),
    /// A number of rows that is not a power of two of at least 2.
    #[error("{rows} rows: a trace has a power of two of at least 2 rows")]
    TraceRows {
        /// The rows given.
        rows: usize,
    },
    /// Public inputs of the wrong number.
    #[error("{got} public inputs where the statement has {expected}")]
    PublicInputCount {
        /// The statement's number.
        expected: usize,
        /// The number given.
        got: usize,
    },
    /// A trace whose every row satisfies the constraints but whose quotient is not a
    /// polynomial of the declared degree: the AIR's constraint degree is under-declared
    /// ([`crate::check_constraint_degrees`] names the constraint).
    #[error(
        "the trace does not satisfy the constraints (the quotient is not a polynomial of the \
         declared degree)"
    )]
    QuotientNotPolynomial,
    /// A field that refused a size (a two-adic generator beyond its two-adicity).
    #[error(transparent)]
    Field(#[from] FieldError),
    /// A proof whose shape (a count, a length) disagrees with the statement and configuration.
    #[error("proof shape: {0}")]
    ProofShape(#[from] zkaccel_codec::ShapeError),
    /// Bytes that are not a proof's encoding (the shared decoder's typed error).
    #[error("malformed proof: {0}")]
    Decode(#[from] zkaccel_codec::DecodeError),
    /// A well-formed proof that does not verify, or one of another statement.
    #[error("proof rejected: {0}")]
    Rejected(#[from] Rejection),
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
    /// A proof file whose statement (its size or configuration) no verifier can use: the
    /// check that refused it.
    #[error("the proof file's statement: {0}")]
    Header(Box<StarkError>),
}

/// Why a well-formed proof was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// The opening point `ζ` lies in the trace subgroup (the prover meets it with probability
    /// about 2^-100; the strict verifier refuses it).
    #[error("the opening point lies in the trace subgroup")]
    ZetaInSubgroup,
    /// The constraints combined at `ζ` are not the vanishing polynomial times a quotient chunk.
    #[error("the constraints at ζ disagree with quotient {chunk}")]
    QuotientMismatch {
        /// The challenge (quotient chunk) whose check failed.
        chunk: usize,
    },
    /// A proof of public inputs other than the ones the verifier expects.
    #[error("the proof's public inputs are not the ones expected")]
    PublicInputs,
    /// A proof file of another AIR than the one the verifier names.
    #[error("the proof is of the {proof} AIR, not the {expected} expected")]
    OtherAir {
        /// The proof's AIR.
        proof: &'static str,
        /// The AIR named.
        expected: &'static str,
    },
    /// A proof file over another number of rows than the verifier names.
    #[error("the proof is over 2^{proof} rows, not the 2^{expected} expected")]
    OtherRows {
        /// `log2` of the proof's rows.
        proof: usize,
        /// `log2` of the rows named.
        expected: usize,
    },
}

impl Classify for StarkError {
    /// A proof that is not an encoding, has another shape than its statement, falls below the
    /// verifier's policy or is false is [`ErrorClass::Rejected`]; FRI's errors keep their
    /// class; the rest (parameters, traces, public inputs given to the prover) is
    /// [`ErrorClass::InvalidInput`].
    fn class(&self) -> ErrorClass {
        match self {
            Self::Rejected(_)
            | Self::BelowPolicy { .. }
            | Self::ConfigMismatch { .. }
            | Self::ProofShape(_)
            | Self::Decode(_)
            | Self::Header(_) => ErrorClass::Rejected,
            Self::Fri(e) => e.class(),
            _ => ErrorClass::InvalidInput,
        }
    }
}

impl StarkError {
    /// Whether the proof was well formed and false.
    pub fn is_rejection(&self) -> bool {
        match self {
            Self::Rejected(_) | Self::BelowPolicy { .. } | Self::ConfigMismatch { .. } => true,
            Self::Fri(e) => e.is_rejection(),
            _ => false,
        }
    }
}
