//! Reading field elements from the command line and from files, with errors that name the
//! offending value and its position.

use std::path::{Path, PathBuf};

use zkaccel_field::{FieldError, PrimeField};
use zkaccel_plot::files::BoundedLines;

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
    /// More values than the command takes.
    #[error("{origin}: more than {max} values; {what} takes at most {max}")]
    TooMany {
        /// Where the first value too many was.
        origin: String,
        /// The most the command takes.
        max: usize,
        /// What takes them.
        what: String,
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

/// What to do with a number at or above the field's modulus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueMode {
    /// Reject it, naming the value and where it was.
    #[default]
    Canonical,
    /// Reduce it modulo `p` (numbers of any size), as circomlibjs's `F.e` does.
    Reduce,
}

impl ValueMode {
    /// `Reduce` when the user asked for it (`--reduce`), else `Canonical`.
    pub fn reduce_if(reduce: bool) -> Self {
        if reduce {
            Self::Reduce
        } else {
            Self::Canonical
        }
    }
}

/// Parses one canonical element.
pub fn parse_one<F: PrimeField>(value: &str, origin: Origin) -> Result<F, InputError> {
    parse_one_as(value, origin, ValueMode::Canonical)
}

/// Parses one element, treating numbers at or above `p` as `mode` says.
pub fn parse_one_as<F: PrimeField>(
    value: &str,
    origin: Origin,
    mode: ValueMode,
) -> Result<F, InputError> {
    let parsed = match mode {
        ValueMode::Canonical => F::from_str_canonical(value),
        ValueMode::Reduce => F::from_str_reduced(value),
    };
    parsed.map_err(|source| {
        // At most 80 characters of the value in the message.
        let trimmed = value.trim();
        let value = match trimmed.char_indices().nth(80) {
            Some((end, _)) => format!("{}…", &trimmed[..end]),
            None => trimmed.to_owned(),
        };
        InputError::Value {
            origin,
            value,
            source,
        }
    })
}

/// The longest line of a value file, in bytes (a value reduced with `--reduce` may have any
/// number of digits up to this).
pub const MAX_VALUE_LINE: usize = 1 << 21;

/// Values from the command line, or from a file holding one per line (blank lines and lines
/// starting with `#` are skipped), treating numbers at or above `p` as `mode` says; at most
/// `max_count` of them, for `what`. The file is streamed: more values than that, or a line
/// longer than [`MAX_VALUE_LINE`], is an error found before more is read.
pub fn read_values_as<F: PrimeField>(
    values: &[String],
    file: Option<&Path>,
    mode: ValueMode,
    max_count: usize,
    what: &str,
) -> Result<Vec<F>, InputError> {
    let too_many = |origin: String| InputError::TooMany {
        origin,
        max: max_count,
        what: what.to_owned(),
    };
    match file {
        None => {
            if values.len() > max_count {
                return Err(too_many("the command line".into()));
            }
            values
                .iter()
                .enumerate()
                .map(|(i, v)| parse_one_as(v, Origin::Argument(i + 1), mode))
                .collect()
        }
        Some(path) => {
            let io = |source: std::io::Error| InputError::Io {
                path: path.to_owned(),
                source,
            };
            let file = std::fs::File::open(path).map_err(io)?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(io(std::io::Error::other("a directory, not a file")));
            }
            let lines = BoundedLines::new(std::io::BufReader::new(file), MAX_VALUE_LINE);
            let mut out = Vec::new();
            for line in lines {
                let (n, l) = line.map_err(io)?;
                if l.trim().is_empty() || l.trim_start().starts_with('#') {
                    continue;
                }
                if out.len() == max_count {
                    return Err(too_many(format!("{}:{n}", path.display())));
                }
                out.push(parse_one_as(&l, Origin::Line(path.to_owned(), n), mode)?);
            }
            Ok(out)
        }
    }
}

pub use zkaccel_merkle::generated::generate_rows;

/// A size in bytes with an optional K, M or G suffix (binary multiples).
///
/// # Errors
/// A message for anything else, or a size past `u64`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = match s.chars().last() {
        Some('K' | 'k') => (&s[..s.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&s[..s.len() - 1], 1 << 20),
        Some('G' | 'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("invalid size {s:?}: expected bytes with an optional K, M or G"))
}

/// A size for messages: `12.0 GiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// Checks that `bytes` (`None`: past 2^64) fit in `budget`.
///
/// # Errors
/// A message naming `what`, the size and the budget.
pub fn check_budget(
    bytes: Option<u64>,
    what: &str,
    budget: u64,
    budget_flag: &str,
) -> Result<(), String> {
    match bytes {
        Some(b) if b <= budget => Ok(()),
        _ => {
            let size = bytes.map_or_else(|| "more than 2^64 bytes".to_owned(), human_bytes);
            Err(format!(
                "{what} needs {size}, over the memory budget of {} ({budget_flag})",
                human_bytes(budget)
            ))
        }
    }
}

/// Allocates `len` copies of `value` for `what`, within `budget` bytes: an error naming the
/// size when it is over the budget, overflows, or the allocator refuses.
///
/// # Errors
/// A message naming `what`, the size and the budget.
pub fn alloc_within<T: Clone>(
    len: u64,
    value: T,
    what: &str,
    budget: u64,
    budget_flag: &str,
) -> Result<Vec<T>, String> {
    let bytes = len.checked_mul(core::mem::size_of::<T>() as u64);
    check_budget(bytes, what, budget, budget_flag)?;
    let len = usize::try_from(len).map_err(|_| format!("{what}: too many elements"))?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        format!(
            "cannot allocate {} for {what}",
            human_bytes(bytes.unwrap_or(u64::MAX))
        )
    })?;
    v.resize(len, value);
    Ok(v)
}
