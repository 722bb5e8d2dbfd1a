//! The one classification of failures that every front end reports from.

/// What kind of failure an error is, as a user acts on it. The CLI's exit status and the
/// Python exception class are both chosen from it (and from nothing else), so a malformed
/// Merkle proof and a malformed STARK proof are reported alike everywhere.
///
/// | class | CLI exit status | Python exception (`zkaccel.errors`) |
/// |---|---|---|
/// | [`ErrorClass::Rejected`] | 1 | `VerificationError` (a `ValueError`) |
/// | [`ErrorClass::InvalidInput`] | 2 | `InvalidInputError` (a `ValueError`) |
/// | [`ErrorClass::Resource`] | 2 | `ResourceError` (a `MemoryError`) |
/// | [`ErrorClass::Storage`] | 2 | `StorageError` (an `OSError`) |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorClass {
    /// A proof or opening that does not verify: bytes that are not a proof's encoding, a
    /// proof of another shape than the statement's, or a well-formed proof that is false.
    Rejected,
    /// Values, parameters or configurations the library refuses.
    InvalidInput,
    /// A memory budget or an allocation that cannot hold the work.
    Resource,
    /// A file or directory that cannot be read or written.
    Storage,
}

/// An error that knows its [`ErrorClass`].
pub trait Classify {
    /// The class the front ends report this error under.
    fn class(&self) -> ErrorClass;
}

/// Bytes handed to a decoder that are not an encoding: the proof or commitment they were
/// meant to be does not verify.
impl Classify for crate::DecodeError {
    fn class(&self) -> ErrorClass {
        ErrorClass::Rejected
    }
}

/// A proof's part of another count than the statement fixes.
impl Classify for crate::ShapeError {
    fn class(&self) -> ErrorClass {
        ErrorClass::Rejected
    }
}
