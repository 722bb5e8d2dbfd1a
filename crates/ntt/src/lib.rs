#![doc = include_str!("../README.md")]

pub mod butterflies;
mod error;
mod field;
mod four_step;
mod groth16;
mod kernels;
mod memory;
mod plan;
mod prefetch;

pub use error::NttError;
pub use field::NttField;
pub use groth16::groth16_h;
pub use kernels::{bit_reverse, reverse_bits};
pub use plan::{Algorithm, Layout, LdeInput, NttPlan, Order, DEFAULT_CORE_LOG};
pub use prefetch::WritePrefetch;
pub use zkaccel_field::TwoAdicField;

fn plan_for<F: NttField>(len: usize) -> Result<NttPlan<F>, NttError> {
    if !len.is_power_of_two() {
        return Err(NttError::NotPowerOfTwo { len });
    }
    NttPlan::new(len.trailing_zeros() as usize)
}

/// The forward transform of `values` in place with a plan made for its size
/// (see [`NttPlan::forward`]; keep an [`NttPlan`] to transform many times).
///
/// # Errors
/// [`NttError::NotPowerOfTwo`], [`NttError::TooLarge`].
pub fn ntt<F: NttField>(values: &mut [F], order: Order) -> Result<(), NttError> {
    plan_for(values.len())?.forward(values, order)
}

/// The inverse transform of `values` in place (see [`NttPlan::inverse`]).
///
/// # Errors
/// As [`ntt`].
pub fn intt<F: NttField>(values: &mut [F], order: Order) -> Result<(), NttError> {
    plan_for(values.len())?.inverse(values, order)
}

/// Evaluations on the coset `F::GENERATOR·⟨ω_n⟩` (see [`NttPlan::coset_forward`]), the coset
/// arkworks, bellman and Plonky3 use.
///
/// # Errors
/// As [`ntt`].
pub fn coset_ntt<F: NttField>(values: &mut [F], order: Order) -> Result<(), NttError> {
    plan_for(values.len())?.coset_forward(values, F::GENERATOR, order)
}

/// Coefficients from evaluations on the coset `F::GENERATOR·⟨ω_n⟩`
/// (see [`NttPlan::coset_inverse`]).
///
/// # Errors
/// As [`ntt`].
pub fn coset_intt<F: NttField>(values: &mut [F], order: Order) -> Result<(), NttError> {
    plan_for(values.len())?.coset_inverse(values, F::GENERATOR, order)
}

/// The low-degree extension of `coefficients` onto `F::GENERATOR·⟨ω_{n·2^log_blowup}⟩`
/// (see [`NttPlan::lde`]).
///
/// # Errors
/// As [`ntt`] for the extended size.
pub fn lde<F: NttField>(coefficients: &[F], log_blowup: usize) -> Result<Vec<F>, NttError> {
    let big = coefficients
        .len()
        .checked_shl(log_blowup as u32)
        .ok_or(NttError::SizeOverflow {
            what: "the extended size",
        })?;
    plan_for(big)?.lde(coefficients, log_blowup, F::GENERATOR)
}
