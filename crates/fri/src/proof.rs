//! The FRI proof as values. Its canonical encoding (plonky2's `Write` layout) is a
//! compatibility concern and lives in `zkaccel-plonky2` (`codec`).

use crate::scheme::{Digest, FriScheme};

/// One layer of a query: the coset of `2^arity_bits` values the folded value comes from, and
/// its Merkle path in the layer's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriQueryStep<S: FriScheme> {
    /// The coset's values (bit-reversed order, as the tree's leaf holds them).
    pub evals: Vec<S::E>,
    /// The leaf's authentication path.
    pub merkle_path: Vec<Digest<S>>,
}

/// A committed batch's row at the queried point: every polynomial's value there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriInitialOpening<S: FriScheme> {
    /// The leaf row.
    pub row: Vec<S::F>,
    /// The leaf's authentication path.
    pub merkle_path: Vec<Digest<S>>,
}

/// One query round: the committed batches' rows at the queried point, then the layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriQueryRound<S: FriScheme> {
    /// Per committed batch, its row and the row's path.
    pub initial_trees: Vec<FriInitialOpening<S>>,
    /// The layers, one per reduction step.
    pub steps: Vec<FriQueryStep<S>>,
}

/// A FRI proof (plonky2's `FriProof`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriProof<S: FriScheme> {
    /// The caps of the layers' trees.
    pub commit_phase_caps: Vec<Vec<Digest<S>>>,
    /// The query rounds.
    pub query_rounds: Vec<FriQueryRound<S>>,
    /// The final polynomial's coefficients.
    pub final_poly: Vec<S::E>,
    /// The proof-of-work witness.
    pub pow_witness: S::F,
}
