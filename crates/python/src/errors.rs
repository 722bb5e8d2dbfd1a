//! Rust errors as the Python exceptions of `zkaccel.errors`.
//!
//! The hierarchy lives in Python (`python/zkaccel/errors.py`) so that each class can derive
//! from `ZkaccelError` and from the built-in a Python user catches (`ValueError`,
//! `MemoryError`, `OSError`); this module only picks the class and carries the message.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use zkaccel_codec::{Classify, ErrorClass};
use zkaccel_merkle::MerkleError;
use zkaccel_plot::PlotError;
use zkaccel_stark::StarkError;

/// The exception classes of `zkaccel.errors`.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Values, shapes or parameters the library refuses (also a `ValueError`).
    InvalidInput,
    /// A proof or opening that does not verify (also a `ValueError`).
    Verification,
    /// A memory budget that cannot hold the work (also a `MemoryError`).
    Resource,
    /// A file or directory that cannot be read or written (also an `OSError`).
    Storage,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Self::InvalidInput => "InvalidInputError",
            Self::Verification => "VerificationError",
            Self::Resource => "ResourceError",
            Self::Storage => "StorageError",
        }
    }
}

/// The Python exception of `kind` with `message`.
pub fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let class = py
            .import("zkaccel.errors")
            .and_then(|m| m.getattr(kind.class_name()));
        match class.and_then(|c| c.call1((message.clone(),))) {
            Ok(instance) => PyErr::from_value(instance),
            // Only when the package's Python half is missing (a broken install).
            Err(e) => PyRuntimeError::new_err(format!("{message} (and zkaccel.errors: {e})")),
        }
    })
}

/// An [`Kind::InvalidInput`] error.
pub fn invalid(message: impl Into<String>) -> PyErr {
    error(Kind::InvalidInput, message)
}

impl From<ErrorClass> for Kind {
    /// The one classification the CLI's exit statuses also follow (`zkaccel_codec::ErrorClass`).
    fn from(class: ErrorClass) -> Self {
        match class {
            ErrorClass::Rejected => Self::Verification,
            ErrorClass::InvalidInput => Self::InvalidInput,
            ErrorClass::Resource => Self::Resource,
            ErrorClass::Storage => Self::Storage,
        }
    }
}

/// A library error that knows its class, as the exception of that class.
pub fn classified<E: Classify + std::fmt::Display>(e: &E) -> PyErr {
    error(e.class().into(), e.to_string())
}

/// A Merkle error, by its class ([`MerkleError`]'s `Classify`).
pub fn merkle(e: MerkleError) -> PyErr {
    classified(&e)
}

/// A STARK error, by its class ([`StarkError`]'s `Classify`).
pub fn stark(e: StarkError) -> PyErr {
    classified(&e)
}

/// A sweep's files: writing or drawing them is [`Kind::Storage`]; a sweep that cannot name
/// its files or a missing font is [`Kind::InvalidInput`].
pub fn plot(e: PlotError) -> PyErr {
    let kind = match &e {
        PlotError::Io { .. } | PlotError::Draw { .. } => Kind::Storage,
        _ => Kind::InvalidInput,
    };
    error(kind, e.to_string())
}

/// Any other library error, as [`Kind::InvalidInput`].
pub fn other(e: impl std::fmt::Display) -> PyErr {
    invalid(e.to_string())
}
