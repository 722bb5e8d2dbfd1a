//! The error type every field decoder and parameter check returns.

use thiserror::Error;

/// What was wrong with an input handed to a field.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FieldError {
    /// The value is an integer `>= p`; canonical encodings hold values in `[0, p)`.
    /// Use the explicitly named `*_reduced` constructors to reduce modulo `p` instead.
    #[error("value {value} is not canonical: it is not below the {field} modulus {modulus}")]
    NonCanonical {
        /// The field's name.
        field: &'static str,
        /// The offending value, in decimal.
        value: String,
        /// The modulus, in decimal.
        modulus: String,
    },
    /// Two slices that must have equal lengths (the messages and keys of a batch, say) do not.
    #[error("slices of unequal lengths: {left} and {right}")]
    UnequalLengths {
        /// The first slice's length.
        left: usize,
        /// The second slice's length.
        right: usize,
    },
    /// A byte or limb encoding has the wrong length.
    #[error("wrong encoding length for {field}: expected {expected} {unit}, got {actual}")]
    WrongLength {
        /// The field's name.
        field: &'static str,
        /// The length the field's canonical encoding has.
        expected: usize,
        /// The length that was supplied.
        actual: usize,
        /// What the length counts (`"bytes"`, `"limbs"`, `"coefficients"`).
        unit: &'static str,
    },
    /// A string is neither a decimal number nor a `0x`-prefixed hexadecimal number.
    #[error("malformed number {input:?}: {reason}")]
    Malformed {
        /// The string as supplied (truncated to 80 characters).
        input: String,
        /// What was wrong with it.
        reason: &'static str,
    },
    /// A root of unity of order `2^requested` was asked for, but the field only has them up to
    /// `2^max`.
    #[error("no root of unity of order 2^{requested} in {field}: its two-adicity is {max}")]
    TwoAdicityExceeded {
        /// The field's name.
        field: &'static str,
        /// The requested log2 of the order.
        requested: usize,
        /// The field's two-adicity.
        max: usize,
    },
    /// An element that has no inverse (zero) was found at `index` of a batch.
    #[error("element {index} of the batch is zero and has no inverse")]
    ZeroInBatch {
        /// The position of the first zero.
        index: usize,
    },
    /// A modulus handed to one of the modular-multiplication algorithms is unusable.
    #[error("unusable modulus: {reason}")]
    InvalidModulus {
        /// Why the modulus was rejected.
        reason: &'static str,
    },
}

/// Cuts a user string down to a length fit for an error message.
pub(crate) fn excerpt(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(MAX).collect();
        out.push('…');
        out
    }
}
