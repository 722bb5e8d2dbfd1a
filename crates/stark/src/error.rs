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
    /// A proof whose shape or encoding disagrees with the statement and configuration.
    #[error("proof shape: {0}")]
    ProofShape(String),
    /// A well-formed proof that does not verify.
    #[error("proof rejected: {0}")]
    Rejected(String),
    /// From FRI.
    #[error(transparent)]
    Fri(#[from] FriError),
}

impl StarkError {
    /// Whether the proof was well formed and false.
    pub fn is_rejection(&self) -> bool {
        match self {
            Self::Rejected(_) => true,
            Self::Fri(e) => e.is_rejection(),
            _ => false,
        }
    }
}
