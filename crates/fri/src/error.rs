//! Why a commitment, a proof or a verification failed.

use zkaccel_challenger::ChallengerError;
use zkaccel_merkle::MerkleError;
use zkaccel_ntt::NttError;

/// Errors of the FRI commitment scheme. A proof that is well formed but false is
/// [`FriError::Rejected`]; one whose shape disagrees with the parameters is
/// [`FriError::ProofShape`]; bad inputs to the prover are the other variants.
#[derive(Debug, thiserror::Error)]
pub enum FriError {
    /// A configuration outside the supported range.
    #[error("FRI configuration: {0}")]
    Config(String),
    /// Polynomials that cannot be committed or opened together.
    #[error("polynomials: {0}")]
    Polynomials(String),
    /// A proof whose shape (a count, a length) differs from what the parameters fix.
    #[error("proof shape: {0}")]
    ProofShape(#[from] zkaccel_codec::ShapeError),
    /// Bytes that are not a proof's encoding (the shared decoder's typed error).
    #[error("proof shape: {0}")]
    Decode(#[from] zkaccel_codec::DecodeError),
    /// A well-formed proof that does not verify.
    #[error("proof rejected: {0}")]
    Rejected(String),
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

impl FriError {
    /// Whether the error says the proof is false (as opposed to malformed or unusable input).
    pub fn is_rejection(&self) -> bool {
        matches!(
            self,
            Self::Rejected(_) | Self::Merkle(MerkleError::Mismatch)
        )
    }
}
