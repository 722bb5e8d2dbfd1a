//! Errors reading or checking a kernel trace.

/// Why a kernel trace was refused.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// A line that is not a record of this schema (its number counts from 1).
    #[error("line {line}: {message}")]
    Parse {
        /// The line, from 1.
        line: usize,
        /// What serde said.
        message: String,
    },
    /// A record written by another version of the schema.
    #[error("record {id}: schema version {found}, this reader knows {expected}")]
    Version {
        /// The record's id.
        id: u64,
        /// Its version.
        found: u32,
        /// [`crate::SCHEMA_VERSION`].
        expected: u32,
    },
    /// Records that do not form a trace: ids out of sequence, dependencies on later kernels,
    /// impossible shapes.
    #[error("record {id}: {message}")]
    Invalid {
        /// The record's id (or position).
        id: u64,
        /// What is wrong.
        message: String,
    },
    /// More records than [`crate::MAX_RECORDS`].
    #[error("more than {0} records")]
    TooLong(usize),
    /// Reading or writing failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}
