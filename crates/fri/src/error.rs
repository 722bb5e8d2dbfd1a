//! Why a commitment, a proof or a verification failed.

use zkaccel_challenger::ChallengerError;
use zkaccel_codec::{Classify, ErrorClass};
use zkaccel_merkle::MerkleError;
use zkaccel_ntt::NttError;

/// Errors of the FRI commitment scheme. A proof that is well formed but false is
/// [`FriError::Rejected`]; one whose shape disagrees with the parameters is
/// [`FriError::ProofShape`]; bad inputs to the prover are the other variants.
#[derive(Debug, thiserror::Error)]
pub enum FriError {
    /// A configuration outside the supported range.
    #[error("FRI configuration: {0}")]
    Config(#[from] ConfigError),
    /// Polynomials that cannot be committed or opened together.
    #[error("polynomials: {0}")]
    Polynomials(#[from] PolynomialsError),
    /// A proof whose shape (a count, a length) differs from what the parameters fix.
    #[error("proof shape: {0}")]
    ProofShape(#[from] zkaccel_codec::ShapeError),
    /// Bytes that are not a proof's encoding (the shared decoder's typed error).
    #[error("malformed proof: {0}")]
    Decode(#[from] zkaccel_codec::DecodeError),
    /// A well-formed proof that does not verify.
    #[error("proof rejected: {0}")]
    Rejected(#[from] FriRejection),
    /// From the Merkle trees.
    #[error(transparent)]
    Merkle(#[from] MerkleError),
    /// From the transforms.
    #[error(transparent)]
    Ntt(#[from] NttError),
    /// From the challenger.
    #[error(transparent)]
    Challenger(#[from] ChallengerError),
    /// Kernels over a field the kernel-trace schema does not name cannot be recorded.
    #[error("kernel traces do not name the field {field}: prove without recording kernels")]
    Untraceable {
        /// The field's name.
        field: &'static str,
    },
}

/// A FRI configuration the crate refuses, with the values that make it so.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A parameter outside its supported range (rate bits, cap height, proof-of-work bits,
    /// query rounds, reduction steps, a reduction's arity bits).
    #[error("{what} {got}; supported: {min} to {max}")]
    OutOfRange {
        /// The parameter.
        what: &'static str,
        /// The value given.
        got: usize,
        /// The least value supported.
        min: usize,
        /// The largest value supported.
        max: usize,
    },
    /// A fixed arity that folds more than the degree left (plonky2 asserts here).
    #[error("arity 2^{arity_bits} exceeds the remaining degree 2^{remaining_bits}")]
    ArityBeyondDegree {
        /// The reduction's arity bits.
        arity_bits: usize,
        /// The degree bits left before it.
        remaining_bits: usize,
    },
    /// A codeword longer than the field's two-adic evaluation domain.
    #[error(
        "degree 2^{degree_bits} at rate bits {rate_bits} exceeds the field's 2^{max_lde_bits} \
         evaluation domain"
    )]
    BeyondDomain {
        /// The polynomials' degree bits.
        degree_bits: usize,
        /// The rate bits.
        rate_bits: usize,
        /// The field's two-adicity.
        max_lde_bits: usize,
    },
    /// A cap with more digests than the codeword has leaves.
    #[error("cap height {cap_height} exceeds the 2^{lde_bits}-leaf codeword tree")]
    CapBeyondCodeword {
        /// The cap height.
        cap_height: usize,
        /// The codeword's length bits.
        lde_bits: usize,
    },
    /// Reductions that fold more than the degree or leave a layer's tree below the cap.
    #[error(
        "reductions of {total_bits} bits in all do not fit a degree of 2^{degree_bits} with cap \
         height {cap_height} (at most {max_bits} bits)"
    )]
    ReductionsBeyondDegree {
        /// The reductions' arity bits, summed.
        total_bits: usize,
        /// The polynomials' degree bits.
        degree_bits: usize,
        /// The cap height.
        cap_height: usize,
        /// The most the reductions may fold.
        max_bits: usize,
    },
}

/// Polynomials (or an instance naming them) that cannot be committed or opened together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolynomialsError {
    /// A batch with no polynomial to commit.
    #[error("nothing to commit")]
    Empty,
    /// A length that is not a power of two.
    #[error("a length of {len} is not a power of two")]
    NotPowerOfTwo {
        /// The length.
        len: usize,
    },
    /// Polynomials of different lengths in one batch.
    #[error("polynomials of lengths {first} and {other} in one batch")]
    MixedLengths {
        /// The first polynomial's length.
        first: usize,
        /// A length that differs from it.
        other: usize,
    },
    /// A point past the end of the codeword.
    #[error("point {index}·{step} is past the 2^{lde_bits}-point codeword")]
    PastCodeword {
        /// The index asked for.
        index: usize,
        /// The step between points.
        step: usize,
        /// The codeword's length bits.
        lde_bits: usize,
    },
    /// Base-field coordinates that make no extension element.
    #[error("extension coordinates: {0}")]
    ExtensionCoordinates(zkaccel_field::FieldError),
    /// A number of committed batches other than the instance's.
    #[error("{got} committed batches for an instance of {expected}")]
    OracleCount {
        /// The instance's oracles.
        expected: usize,
        /// The batches given.
        got: usize,
    },
    /// A committed batch whose shape differs from the instance and parameters.
    #[error("batch {batch}'s {what} is {got}; the instance and parameters fix {expected}")]
    OracleShape {
        /// The batch's position.
        batch: usize,
        /// Which part of its shape (`polynomials`, `degree bits`, `rate bits`, `cap height`).
        what: &'static str,
        /// The value the instance or parameters fix.
        expected: usize,
        /// The batch's value.
        got: usize,
    },
    /// An instance with no oracle or no opening batch.
    #[error("an instance needs at least one oracle and one batch")]
    EmptyInstance,
    /// An opening batch that names no polynomial.
    #[error("batch {batch} opens no polynomial")]
    EmptyBatch {
        /// The batch's position.
        batch: usize,
    },
    /// An opening batch naming a polynomial the oracles do not hold.
    #[error(
        "batch {batch} names polynomial {polynomial} of oracle {oracle}, which does not exist"
    )]
    NoSuchPolynomial {
        /// The batch's position.
        batch: usize,
        /// The oracle named.
        oracle: usize,
        /// The polynomial named.
        polynomial: usize,
    },
}

/// Why a well-formed FRI proof does not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FriRejection {
    /// The proof-of-work witness does not meet the configured bits.
    #[error("the proof-of-work witness falls short of {bits} bits")]
    ProofOfWork {
        /// The configured proof-of-work bits.
        bits: u32,
    },
    /// A query's layer that does not hold the fold of the previous layer.
    #[error("query at {x_index}: layer {layer} does not hold the previous layer's fold")]
    Fold {
        /// The query's starting index.
        x_index: usize,
        /// The reduction step.
        layer: usize,
    },
    /// A query whose last fold disagrees with the final polynomial.
    #[error("query at {x_index}: the final polynomial disagrees with the last layer")]
    FinalPolynomial {
        /// The query's starting index.
        x_index: usize,
    },
}

impl Classify for FriError {
    /// A proof that is not an encoding, has another shape than the parameters fix or does not
    /// verify is [`ErrorClass::Rejected`]; the Merkle trees' errors keep their class; the
    /// rest (configurations, polynomials, transforms, the challenger) is
    /// [`ErrorClass::InvalidInput`].
    fn class(&self) -> ErrorClass {
        match self {
            Self::Rejected(_) | Self::ProofShape(_) | Self::Decode(_) => ErrorClass::Rejected,
            Self::Merkle(e) => e.class(),
            _ => ErrorClass::InvalidInput,
        }
    }
}

impl FriError {
    /// Whether the error says the proof is false (as opposed to malformed or unusable input).
    pub fn is_rejection(&self) -> bool {
        matches!(
            self,
            Self::Rejected(_) | Self::Merkle(MerkleError::Mismatch)
        )
    }
}
