//! Errors of the transforms.

use thiserror::Error;
use zkaccel_field::FieldError;

/// What is wrong with a transform's input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NttError {
    /// The length is not a power of two.
    #[error("length {len} is not a power of two")]
    NotPowerOfTwo {
        /// The length given.
        len: usize,
    },
    /// The size needs a larger power-of-two subgroup than the field has (or than the plan
    /// was made for).
    #[error("a transform of size 2^{log_n} exceeds the limit 2^{max} ({reason})")]
    TooLarge {
        /// `log2` of the size asked for.
        log_n: usize,
        /// The largest `log2` size possible.
        max: usize,
        /// Whose limit: the field's two-adicity or the plan's size.
        reason: &'static str,
    },
    /// A batch whose values do not split into `count` polynomials of one length.
    #[error("{len} values are not {count} polynomials of equal length")]
    BatchShape {
        /// The values given.
        len: usize,
        /// The polynomials asked for.
        count: usize,
    },
    /// Values that do not split into whole points of `width` values.
    #[error("{len} values are not whole points of width {width}")]
    PointWidth {
        /// The values given.
        len: usize,
        /// The values per point.
        width: usize,
    },
    /// A size that overflows the address space.
    #[error("{what} overflows")]
    SizeOverflow {
        /// The size.
        what: &'static str,
    },
    /// A four-step plan whose core transform is below 2 points.
    #[error("the four-step core needs at least 2 points")]
    CoreTooSmall,
    /// Groth16's `A`, `B`, `C` evaluations of other or zero lengths.
    #[error("A, B and C need the same non-zero number of evaluations (got {a}, {b}, {c})")]
    EvaluationCounts {
        /// Evaluations of `A`.
        a: usize,
        /// Evaluations of `B`.
        b: usize,
        /// Evaluations of `C`.
        c: usize,
    },
    /// A coset generator that lies in the evaluation domain (its vanishing value is zero).
    #[error("the coset generator lies in the domain")]
    GeneratorInDomain,
    /// A coset shift that is zero (the coset would not be a coset).
    #[error("the coset shift must be non-zero")]
    ZeroShift,
    /// A root of unity given for the plan's convention that does not generate the field's
    /// whole power-of-two subgroup.
    #[error("the root given does not have order 2^{two_adicity}")]
    NotPrimitiveRoot {
        /// The field's two-adicity `s`: the root must have order exactly `2^s`.
        two_adicity: usize,
    },
    /// An input the plan's check refused ([`crate::NttPlan::checking_inputs_with`]); the
    /// values are as they were.
    #[error("an input was refused by the plan's check; the values are unchanged")]
    InputRejected,
    /// A field-level failure (e.g. no root of unity of the size).
    #[error(transparent)]
    Field(#[from] FieldError),
}
