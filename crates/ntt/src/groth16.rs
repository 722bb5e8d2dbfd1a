//! The Groth16 prover's H-polynomial kernel, exactly as bellman computes it (the workload the
//! NTT paper's accelerator was integrated into).
//!
//! Given the evaluations `a`, `b`, `c` of the QAP polynomials `A`, `B`, `C` on the domain
//! `⟨ω_m⟩` (`m` = the number of constraints rounded up to a power of two, zero-padded), bellman
//! (`groth16::prover`, `EvaluationDomain`) runs: `ifft` of each, `coset_fft` of each on
//! `g·⟨ω_m⟩` (`g` the field's multiplicative generator), `A·B − C` pointwise, multiplication by
//! `1/Z(g)` with `Z(X) = X^m − 1` (constant on the coset), `icoset_fft`, and drops the last
//! coefficient: the `m − 1` coefficients of `H = (A·B − C)/Z`.

use crate::NttField;

use crate::error::NttError;
use crate::plan::{NttPlan, Order};

/// The coefficients of `H = (A·B − C)/Z` from the evaluations of `A`, `B`, `C` on the domain
/// (see the module documentation); `plan` must cover the padded size.
///
/// Memory: three vectors of the padded size (the inputs are copied once).
///
/// # Errors
/// [`NttError::EvaluationCounts`] for empty or unequal inputs; [`NttError::TooLarge`] when the padded
/// size exceeds the plan; [`NttError::Field`] never in practice (`Z(g) ≠ 0` because `g` is
/// not in the domain).
pub fn groth16_h<F: NttField>(
    plan: &NttPlan<F>,
    a: &[F],
    b: &[F],
    c: &[F],
) -> Result<Vec<F>, NttError> {
    if a.is_empty() || a.len() != b.len() || a.len() != c.len() {
        return Err(NttError::EvaluationCounts {
            a: a.len(),
            b: b.len(),
            c: c.len(),
        });
    }
    let m = a.len().next_power_of_two();
    let g = F::GENERATOR;
    let to_coset = |v: &[F]| -> Result<Vec<F>, NttError> {
        let mut v = v.to_vec();
        v.resize(m, F::ZERO);
        plan.inverse(&mut v, Order::NN)?;
        plan.coset_forward(&mut v, g, Order::NN)?;
        Ok(v)
    };
    let mut h = to_coset(a)?;
    let b = to_coset(b)?;
    h.iter_mut().zip(&b).for_each(|(x, y)| *x *= *y);
    drop(b);
    let c = to_coset(c)?;
    let z_inv = (g.exp_u64(m as u64) - F::ONE)
        .try_inverse()
        .ok_or(NttError::GeneratorInDomain)?;
    h.iter_mut()
        .zip(&c)
        .for_each(|(x, y)| *x = (*x - *y) * z_inv);
    drop(c);
    plan.coset_inverse(&mut h, g, Order::NN)?;
    h.truncate(m - 1);
    Ok(h)
}
