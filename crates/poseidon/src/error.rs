//! Errors of the Poseidon constructors and hashing APIs.

use thiserror::Error;
use zkaccel_field::FieldError;

/// What was wrong with Poseidon parameters or inputs.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PoseidonError {
    /// A state needs at least two lanes (one of capacity, one of rate).
    #[error("Poseidon width {0} is too small: t >= 2 is needed")]
    WidthTooSmall(usize),
    /// `x ↦ x^α` is not a permutation of the field.
    #[error("x^{alpha} is not a permutation of {field}: gcd({alpha}, p - 1) = {gcd}")]
    AlphaNotPermutation {
        /// The rejected exponent.
        alpha: u64,
        /// The field's name.
        field: &'static str,
        /// `gcd(α, p − 1)`.
        gcd: u64,
    },
    /// Exponents below 3 are not S-boxes.
    #[error("S-box exponent {0} is too small: Poseidon needs alpha >= 3")]
    AlphaTooSmall(u64),
    /// The full rounds are split in two equal halves, so their number must be even and positive.
    #[error("{0} full rounds: the number must be even and at least 2")]
    FullRounds(usize),
    /// The round-constant table does not have `(R_F + R_P)·t` entries.
    #[error("{actual} round constants, expected (R_F + R_P) * t = {expected}")]
    ConstantCount {
        /// `(R_F + R_P)·t`.
        expected: usize,
        /// The number supplied.
        actual: usize,
    },
    /// The MDS matrix is not `t × t`.
    #[error("the MDS matrix has {actual} entries, expected t * t = {expected}")]
    MdsShape {
        /// `t²`.
        expected: usize,
        /// The number supplied.
        actual: usize,
    },
    /// The MDS matrix (or a submatrix the sparse partial rounds need) is singular.
    #[error("the MDS matrix is not invertible (a {size}x{size} submatrix is singular)")]
    MdsSingular {
        /// The size of the singular (sub)matrix.
        size: usize,
    },
    /// A size or count past the library's documented limit (`crate::limits`).
    #[error("{what} {value} is over the limit of {max}")]
    Limit {
        /// What was too large.
        what: &'static str,
        /// The value supplied.
        value: usize,
        /// The largest accepted.
        max: usize,
    },
    /// A state or input of the wrong length.
    #[error("expected {expected} field elements, got {actual}")]
    InputLength {
        /// What the instance needs.
        expected: usize,
        /// What was supplied.
        actual: usize,
    },
    /// A width the preset's standard does not define.
    #[error("{preset} defines Poseidon for t = {min} to {max}, not t = {width}")]
    WidthNotDefined {
        /// The preset.
        preset: &'static str,
        /// The width asked for.
        width: usize,
        /// The narrowest width it defines.
        min: usize,
        /// The widest.
        max: usize,
    },
    /// A strength name other than `standard` and `strengthened`.
    #[error("unknown strength {name:?}: expected standard or strengthened")]
    UnknownStrength {
        /// The name given, at most 40 characters of it.
        name: String,
    },
    /// A parameter a preset fixes itself, or does not define.
    #[error("{preset}: {reason}")]
    PresetRefuses {
        /// The preset.
        preset: &'static str,
        /// What it fixes or does not define.
        reason: &'static str,
    },
    /// A Grain seed whose integers are not the field's size (rejection sampling needs
    /// `p_bits ≤ field_bits ≤ p_bits + 1`).
    #[error("Grain reads {field_bits}-bit integers, but {field} has {p_bits} bits")]
    GrainFieldBits {
        /// The bits per integer the seed reads.
        field_bits: u32,
        /// The field.
        field: &'static str,
        /// The modulus' bits.
        p_bits: u32,
    },
    /// No secure round numbers exist in the searched range.
    #[error("no secure round numbers for t = {width}, alpha = {alpha} in the searched range")]
    NoRoundNumbers {
        /// The width.
        width: usize,
        /// The exponent.
        alpha: u64,
    },
    /// Constant generation drew no acceptable MDS matrix within the attempt limit.
    #[error("no MDS matrix passed the security checks in {0} attempts")]
    NoSecureMds(usize),
    /// A field element could not be decoded.
    #[error(transparent)]
    Field(#[from] FieldError),
}
