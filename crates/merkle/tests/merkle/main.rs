//! The Merkle integration tests, one binary (the hashers' kernels are built once, not once
//! per file): known roots and caps (`vectors`), openings and their attacks (`proofs`), and
//! commitments (`commitment`).

mod commitment;
mod common;
mod proofs;
mod vectors;
