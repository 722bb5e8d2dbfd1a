//! Errors of tree construction and proof verification.

use thiserror::Error;
use zkaccel_codec::{Classify, ErrorClass};
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
    LeafSource(#[from] LeafSourceError),
    /// A tree store on disk cannot be written or read, or is not a whole store of this tree.
    #[error("tree store {}: {problem}", path.display())]
    Store {
        /// The file or directory.
        path: std::path::PathBuf,
        /// What is wrong with it.
        problem: StoreProblem,
    },
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
    /// A commitment's bytes are not a commitment's encoding (the shared decoder's error).
    #[error("malformed commitment: {0}")]
    MalformedCommitment(zkaccel_codec::DecodeError),
    /// A proof's bytes (or the parts of a proof handed to a verifier) are not a proof's
    /// encoding: what was read, and what the format requires.
    #[error("malformed proof: {0}")]
    MalformedProof(#[from] zkaccel_codec::DecodeError),
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

/// What is wrong with a tree store's file or directory.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StoreProblem {
    /// The operating system refused a read or a write.
    #[error("{message}")]
    Io {
        /// The error's kind.
        kind: std::io::ErrorKind,
        /// The operating system's message.
        message: String,
    },
    /// The target exists; a store is never overwritten.
    #[error("already exists; not overwriting it")]
    Exists,
    /// The contents are not a whole store of this tree: which check failed.
    #[error("{what}")]
    Corrupt {
        /// The check, in words.
        what: &'static str,
    },
}

impl Classify for MerkleError {
    /// Budgets are [`ErrorClass::Resource`]; tree stores and leaf files that cannot be read
    /// are [`ErrorClass::Storage`]; a proof that is not an encoding, has another shape than the
    /// commitment or leads to another cap is [`ErrorClass::Rejected`]; the rest (parameters,
    /// leaves, a malformed commitment, another hasher) is [`ErrorClass::InvalidInput`].
    fn class(&self) -> ErrorClass {
        match self {
            Self::MemoryBudget { .. } | Self::Allocation { .. } => ErrorClass::Resource,
            Self::Store { .. } | Self::LeafSource(LeafSourceError::Read { .. }) => {
                ErrorClass::Storage
            }
            Self::Mismatch
            | Self::MalformedProof(_)
            | Self::ProofShape { .. }
            | Self::LeafRow { .. } => ErrorClass::Rejected,
            _ => ErrorClass::InvalidInput,
        }
    }
}

/// Where in a text of leaves: a line of the file, or a leaf row (blank lines are not rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A line, numbered from 1.
    Line(u64),
    /// A leaf row, numbered from 0.
    Row(u64),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Line(n) => write!(f, "line {n}"),
            Self::Row(n) => write!(f, "row {n}"),
        }
    }
}

/// Why a leaf source failed or ran out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LeafSourceError {
    /// The operating system refused a read.
    #[error("{at}: {message}")]
    Read {
        /// Where.
        at: Place,
        /// The error's kind.
        kind: std::io::ErrorKind,
        /// The operating system's message.
        message: String,
    },
    /// A line longer than the reader accepts.
    #[error("{at}: longer than {max} bytes")]
    LineTooLong {
        /// Where.
        at: Place,
        /// The longest line accepted, in bytes.
        max: usize,
    },
    /// A line that is not UTF-8 text.
    #[error("{at}: not UTF-8 text")]
    NotText {
        /// Where.
        at: Place,
    },
    /// A row with another number of elements than the leaf width.
    #[error("{at}: {got} elements where the leaves have {expected}")]
    RowWidth {
        /// Where.
        at: Place,
        /// The leaf width (the first row's).
        expected: usize,
        /// The row's elements.
        got: usize,
    },
    /// A first row wider than a leaf may be.
    #[error("{at}: {got} elements, a leaf has at most {max}")]
    TooWide {
        /// Where.
        at: Place,
        /// The row's elements.
        got: usize,
        /// The widest leaf accepted.
        max: usize,
    },
    /// A source with no rows at all.
    #[error("no leaves")]
    NoLeaves,
    /// A source that ends before the rows asked for.
    #[error("{at}: the input ends {missing} rows early")]
    EndsEarly {
        /// The first row missing.
        at: Place,
        /// How many rows are missing.
        missing: u64,
    },
    /// A value that is not a canonical element of the leaves' field.
    #[error("{at} ({value:?}): {source}")]
    Element {
        /// Where.
        at: Place,
        /// The value, at most 80 characters of it.
        value: String,
        /// What the field said.
        source: FieldError,
    },
    /// An index of parts that cannot be made: `base < 2` or `max_offsets < base`.
    #[error("an index in parts of powers of {base} within {max_offsets} offsets")]
    PartIndex {
        /// The base asked for.
        base: u64,
        /// The most offsets asked for.
        max_offsets: usize,
    },
    /// A source of the caller's own failed, in its own words (a file that changed while it
    /// was read, a remote store that went away).
    #[error("{message}")]
    Other {
        /// The source's message.
        message: String,
    },
}
