//! The proof as values. Its canonical encoding (starky's, plonky2's `Write` layout) is a
//! compatibility concern and lives in `zkaccel-plonky2` (`codec`).

use zkaccel_fri::{Digest, FriProof, FriScheme};

/// A STARK proof with its public inputs (starky's `StarkProofWithPublicInputs` for an AIR
/// without lookups or cross-table lookups).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarkProof<S: FriScheme> {
    /// The trace commitment.
    pub trace_cap: Vec<Digest<S>>,
    /// The quotient commitment.
    pub quotient_cap: Vec<Digest<S>>,
    /// Every trace column at `ζ`.
    pub local_values: Vec<S::E>,
    /// Every trace column at `g·ζ`.
    pub next_values: Vec<S::E>,
    /// Every quotient chunk at `ζ`.
    pub quotient_values: Vec<S::E>,
    /// The FRI proof of those openings.
    pub opening_proof: FriProof<S>,
    /// The public inputs.
    pub public_inputs: Vec<S::F>,
}

/// The shape a proof has for a statement: what the verifier checks before it reads a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProofShape {
    pub columns: usize,
    pub quotient_polys: usize,
    pub public_inputs: usize,
    pub cap_len: usize,
}
