//! The largest instances the library builds, checked before any table is generated, so a
//! hostile width or round count is a typed [`PoseidonError::Limit`] instead of a t × t matrix
//! that exhausts memory or a Grain seed that silently truncates.

use crate::error::PoseidonError;

/// The widest state `t` (an arity of 63 for tree presets). Generating reference parameters
/// with their MDS security checks grows like t^5 (2 s at t = 64, 52 s at t = 128, release);
/// published instances stop at t = 24 (plonky2 12, neptune arity ≤ 16 + 1, circomlib ≤ 17).
pub const MAX_WIDTH: usize = 64;

/// The most full rounds `R_F` (the Grain seed holds `R_F` in 10 bits, and `R_F` is even).
pub const MAX_FULL_ROUNDS: usize = 1022;

/// The most partial rounds `R_P` (the Grain seed holds `R_P` in 10 bits).
pub const MAX_PARTIAL_ROUNDS: usize = 1023;

/// Checks `value ≤ max` for the parameter `what`.
///
/// # Errors
/// [`PoseidonError::Limit`] when it is larger.
pub fn check(what: &'static str, value: usize, max: usize) -> Result<(), PoseidonError> {
    if value > max {
        return Err(PoseidonError::Limit { what, value, max });
    }
    Ok(())
}

/// Checks a width and round numbers against [`MAX_WIDTH`], [`MAX_FULL_ROUNDS`] and
/// [`MAX_PARTIAL_ROUNDS`].
///
/// # Errors
/// [`PoseidonError::Limit`] for the first one past its limit.
pub fn check_shape(
    width: usize,
    full_rounds: usize,
    partial_rounds: usize,
) -> Result<(), PoseidonError> {
    check("width", width, MAX_WIDTH)?;
    check("full rounds", full_rounds, MAX_FULL_ROUNDS)?;
    check("partial rounds", partial_rounds, MAX_PARTIAL_ROUNDS)
}
