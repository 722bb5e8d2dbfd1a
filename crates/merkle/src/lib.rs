#![doc = include_str!("../README.md")]

mod commitment;
mod disk;
mod error;
pub mod generated;
pub mod hasher;
pub mod limits;
mod proof;
mod stream;
pub mod text_rows;
mod tree;

pub use commitment::{HasherIdentity, MerkleCommitment};
pub use disk::{build_streaming_to_disk, DiskTree};
pub use error::{LeafSourceError, MerkleError, Place, StoreProblem};
pub use hasher::{FieldTreeHasher, TreeHasher};
pub use proof::MerkleProof;
pub use stream::{
    build_streaming, LeafSource, StreamConfig, StreamOutput, DEFAULT_MEMORY_BUDGET,
    DEFAULT_SUBTREE_LEAVES,
};
pub use tree::{exact_log, verify, verify_path, MerkleTree};
