//! Reading field elements from the command line and from files, with errors that name the
//! offending value and its position.

use std::path::{Path, PathBuf};

use zkaccel_field::{FieldError, PrimeField};

/// Where a value came from, for error messages.
#[derive(Debug, Clone)]
pub enum Origin {
    /// The n-th value on the command line (1-based).
    Argument(usize),
    /// Line n (1-based) of a file.
    Line(PathBuf, usize),
    /// A named option.
    Option(&'static str),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Argument(i) => write!(f, "value {i}"),
            Origin::Line(path, i) => write!(f, "{}:{i}", path.display()),
            Origin::Option(name) => write!(f, "{name}"),
        }
    }
}

/// Errors reading inputs.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A value that is not a canonical element.
    #[error("{origin} ({value:?}): {source}")]
    Value {
        /// Where the value was.
        origin: Origin,
        /// The value as written.
        value: String,
        /// What was wrong.
        source: FieldError,
    },
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Parses one canonical element.
pub fn parse_one<F: PrimeField>(value: &str, origin: Origin) -> Result<F, InputError> {
    F::from_str_canonical(value).map_err(|source| InputError::Value {
        origin,
        value: value.trim().to_owned(),
        source,
    })
}

/// Values from the command line, or from a file holding one per line (blank lines and lines
/// starting with `#` are skipped).
pub fn read_values<F: PrimeField>(
    values: &[String],
    file: Option<&Path>,
) -> Result<Vec<F>, InputError> {
    match file {
        None => values
            .iter()
            .enumerate()
            .map(|(i, v)| parse_one(v, Origin::Argument(i + 1)))
            .collect(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|source| InputError::Io {
                path: path.to_owned(),
                source,
            })?;
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map(|(i, l)| parse_one(l, Origin::Line(path.to_owned(), i + 1)))
                .collect()
        }
    }
}
