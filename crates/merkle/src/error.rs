//! Errors of tree construction and proof verification.

use thiserror::Error;
use zkaccel_field::FieldError;
use zkaccel_poseidon::PoseidonError;

/// What went wrong building a tree or checking a proof.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MerkleError {
    /// The number of leaves is not a power of the arity (or is zero).
    #[error("{leaves} leaves: a tree of arity {arity} needs a power of {arity} leaves")]
    LeafCount {
        /// Leaves supplied.
        leaves: u64,
        /// The arity.
        arity: usize,
    },
    /// The cap is deeper than the tree.
    #[error("cap height {cap_height} exceeds the tree depth {depth}")]
    CapHeight {
        /// Requested cap height.
        cap_height: usize,
        /// The tree's depth.
        depth: usize,
    },
    /// Leaves of the wrong width for the hasher.
    #[error("leaf width {width} is not accepted: {reason}")]
    LeafWidth {
        /// The width supplied.
        width: usize,
        /// Why it is rejected.
        reason: &'static str,
    },
    /// A leaf index outside the tree.
    #[error("leaf index {index} is out of range for {leaves} leaves")]
    IndexOutOfRange {
        /// The index.
        index: u64,
        /// The number of leaves.
        leaves: u64,
    },
    /// The subtree size is smaller than the arity.
    #[error("subtree size {0} is smaller than the arity")]
    SubtreeSize(usize),
    /// The construction cannot fit in the caller's memory budget.
    #[error("building needs at least {needed} bytes, over the budget of {budget} bytes")]
    MemoryBudget {
        /// The least memory the build needs.
        needed: u64,
        /// The budget.
        budget: u64,
    },
    /// A leaf source ended early or failed.
    #[error("leaf source: {0}")]
    LeafSource(String),
    /// A tree store on disk cannot be written or read, or is not a whole store of this tree.
    #[error("tree store: {0}")]
    Store(String),
    /// An arity outside `2..=MAX_ARITY`.
    #[error("arity {0} is not supported: a tree node has 2 to {max} children", max = crate::limits::MAX_ARITY)]
    Arity(usize),
    /// A cap with the wrong number of digests for its height.
    #[error("a cap of this height has {expected} digests, not {found}")]
    CapLength {
        /// `arity^cap_height`.
        expected: u64,
        /// Digests supplied.
        found: u64,
    },
    /// A commitment or proof made with another hash function (hasher, variant, arity or field).
    #[error("made with another hash: committed {committed}, given {given}")]
    WrongHasher {
        /// The identity in the commitment or proof.
        committed: String,
        /// The identity of the hasher in hand.
        given: String,
    },
    /// A proof whose tree shape disagrees with the commitment it is checked against.
    #[error("the proof's {what} is {proof}, the commitment's is {committed}")]
    ProofShape {
        /// Which part of the shape.
        what: &'static str,
        /// The commitment's value.
        committed: u64,
        /// The proof's value.
        proof: u64,
    },
    /// An opened leaf row of the wrong length.
    #[error("opened row {row} has {found} elements, the committed leaf width is {expected}")]
    LeafRow {
        /// Position of the row among the opened leaves.
        row: usize,
        /// The committed leaf width.
        expected: usize,
        /// The row's length.
        found: usize,
    },
    /// A buffer the build needs cannot be allocated (or its size overflows).
    #[error("cannot allocate {what}: {bytes} bytes")]
    Allocation {
        /// What the buffer is for.
        what: &'static str,
        /// Its size (`u64::MAX` when the size itself overflows).
        bytes: u64,
    },
    /// A commitment's bytes are malformed.
    #[error("malformed commitment: {0}")]
    MalformedCommitment(String),
    /// A proof's bytes are malformed.
    #[error("malformed proof: {0}")]
    MalformedProof(String),
    /// A proof's bytes could not be read (the shared decoder's typed error).
    #[error("malformed proof: {0}")]
    Decode(#[from] zkaccel_codec::DecodeError),
    /// A well-formed proof that does not lead to the expected cap.
    #[error("proof does not match the commitment")]
    Mismatch,
    /// A field element could not be decoded.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// The hash rejected its parameters or inputs.
    #[error(transparent)]
    Poseidon(#[from] PoseidonError),
}
