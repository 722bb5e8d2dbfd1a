//! numpy arrays ↔ field elements.
//!
//! Goldilocks elements are `uint64` words (canonical: `< p`), viewed in place where the
//! operation allows. 256-bit elements are rows of four little-endian `uint64` limbs: an array
//! of shape `S + (4,)` holds elements of shape `S`. Arrays must be C-contiguous and of dtype
//! `uint64`; anything else is an error, never a silent copy that changes meaning.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use num_bigint::{BigInt, BigUint, Sign};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use zkaccel_ntt::NttPlan;
use zkaccel_registry::{FieldId, RegisteredField};

use crate::errors::invalid;

/// The fields the package exposes, from the registry.
pub const FIELDS: [FieldId; 3] = [FieldId::Goldilocks, FieldId::Bn254, FieldId::Bls12_381];

/// The field called `name` (`goldilocks`, `bn254`, `bls12-381`).
///
/// # Errors
/// `InvalidInputError` naming the known fields.
pub fn field_id(name: &str) -> PyResult<FieldId> {
    FieldId::parse_among(name, &FIELDS).map_err(|e| invalid(e.to_string()))
}

/// Plans by field and `log2` size, built on first use and kept.
type PlanCache = OnceLock<Mutex<HashMap<(TypeId, usize), Arc<dyn Any + Send + Sync>>>>;

/// The NTT plan of field `F` for `2^log_n` points, built once per field and size and kept,
/// set up for canonical words ([`RegisteredField::plan_for_words`]): its transforms check the
/// words and leave canonical words where the representation needs a step for that.
///
/// # Errors
/// The plan's error for a size past the field's two-adicity.
pub fn plan<F: RegisteredField>(log_n: usize) -> Result<Arc<NttPlan<F>>, String> {
    static PLANS: PlanCache = OnceLock::new();
    let mut plans = PLANS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let key = (TypeId::of::<F>(), log_n);
    if let Some(p) = plans
        .get(&key)
        .and_then(|p| p.clone().downcast::<NttPlan<F>>().ok())
    {
        return Ok(p);
    }
    let plan = Arc::new(F::plan_for_words(
        NttPlan::new(log_n).map_err(|e| e.to_string())?,
    ));
    plans.insert(key, plan.clone());
    Ok(plan)
}

/// A copy of `words`, made by every core (the new pages are touched in parallel too).
fn copy_words(words: &[u64]) -> Vec<u64> {
    let mut out = Vec::new();
    words.par_iter().copied().collect_into_vec(&mut out);
    out
}

/// What a kernel run on an array's elements is, which decides how the words are viewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// A transform by a plan of [`plan`] (linear over the field:
    /// [`RegisteredField::view_words_for_linear_map`]); the plan leaves its outputs canonical itself, in cache,
    /// so no finishing pass follows.
    PlanTransform,
    /// Anything else (permutations, hashes): [`RegisteredField::view_canonical_words`] or a converted copy.
    NonLinear,
}

/// The element shape of a words array: the whole shape for one-word elements, the shape
/// without its last axis (which must have `F::WORDS` entries) otherwise.
///
/// # Errors
/// `InvalidInputError` for a missing or wrong limb axis.
pub fn element_shape<F: RegisteredField>(shape: &[usize], what: &str) -> PyResult<Vec<usize>> {
    if F::WORDS == 1 {
        return Ok(shape.to_vec());
    }
    match shape.split_last() {
        Some((&l, outer)) if l == F::WORDS => Ok(outer.to_vec()),
        _ => Err(invalid(format!(
            "{what}: {} elements are arrays of shape (..., {}) of uint64 limbs, little-endian; \
             got shape {shape:?}",
            F::NAME,
            F::WORDS
        ))),
    }
}

/// The words of a C-contiguous array.
///
/// # Errors
/// `InvalidInputError` for a non-contiguous array.
pub fn words<'a>(array: &'a PyReadonlyArrayDyn<'_, u64>, what: &str) -> PyResult<&'a [u64]> {
    array.as_slice().map_err(|_| {
        invalid(format!(
            "{what}: the array must be C-contiguous (numpy.ascontiguousarray makes one)"
        ))
    })
}

/// The elements of `array` and their shape, converted with the GIL released.
///
/// # Errors
/// `InvalidInputError` for a wrong shape, a non-contiguous array or (unless `reduce`) a
/// non-canonical value.
pub fn read<F: RegisteredField>(
    py: Python<'_>,
    array: &PyReadonlyArrayDyn<'_, u64>,
    reduce: bool,
    what: &str,
) -> PyResult<(Vec<F>, Vec<usize>)> {
    let shape = element_shape::<F>(array.shape(), what)?;
    let w = words(array, what)?;
    let values = py
        .detach(|| F::from_canonical_words(w, reduce).map_err(|e| e.to_string()))
        .map_err(|e| invalid(format!("{what}: {e}")))?;
    Ok((values, shape))
}

/// A new array holding `values` with element shape `shape`.
///
/// # Errors
/// Only numpy's own (a shape that does not hold the values is a bug here).
pub fn write<'py, F: RegisteredField>(
    py: Python<'py>,
    values: &[F],
    shape: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let words = py.detach(|| F::to_canonical_words(values));
    array_of_words::<F>(py, words, shape)
}

/// Words (already canonical) as an array of element shape `shape`, without copying.
///
/// # Errors
/// As [`write`].
pub fn array_of_words<'py, F: RegisteredField>(
    py: Python<'py>,
    words: Vec<u64>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let mut dims = shape.to_vec();
    if F::WORDS > 1 {
        dims.push(F::WORDS);
    }
    PyArray1::from_vec(py, words).reshape(dims)
}

/// A Python int as an element (`reduce`: any int, taken modulo `p`).
///
/// # Errors
/// `InvalidInputError` for a negative or too large value, unless `reduce`.
pub fn element_of_int<F: RegisteredField>(value: &BigInt, reduce: bool) -> PyResult<F> {
    let p = biguint(F::modulus().as_ref());
    let magnitude = value.magnitude();
    let canonical = if value.sign() == Sign::Minus {
        if !reduce {
            return Err(invalid(format!(
                "{value} is negative; pass reduce=True to take it modulo p"
            )));
        }
        let r = magnitude % &p;
        if r == BigUint::ZERO {
            r
        } else {
            &p - r
        }
    } else if magnitude >= &p {
        if !reduce {
            return Err(invalid(format!(
                "{value} is not canonical: it is not below the {} modulus {p}; pass \
                 reduce=True to take it modulo p",
                F::NAME
            )));
        }
        magnitude % &p
    } else {
        magnitude.clone()
    };
    let mut limbs = F::Limbs::default();
    for (l, d) in limbs.as_mut().iter_mut().zip(canonical.to_u64_digits()) {
        *l = d;
    }
    F::from_canonical_limbs(limbs).map_err(|e| invalid(e.to_string()))
}

/// An element as a Python int.
pub fn int_of_element<F: RegisteredField>(value: &F) -> BigUint {
    biguint(value.to_canonical_limbs().as_ref())
}

/// Little-endian words as an integer.
pub fn biguint(words: &[u64]) -> BigUint {
    let digits: Vec<u32> = words
        .iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect();
    BigUint::from_slice(&digits)
}

/// Runs `f` on the elements that canonical `words` hold, leaving its result in `words`: where
/// they lie for Goldilocks, through a converted copy for the Montgomery fields. The GIL is
/// released meanwhile.
///
/// # Errors
/// `InvalidInputError` for a non-canonical value (nothing is changed then) or `f`'s error.
pub fn in_place<F: RegisteredField, R: Send>(
    py: Python<'_>,
    words: &mut [u64],
    what: &str,
    kernel: Kernel,
    f: impl FnOnce(&mut [F]) -> Result<R, String> + Send,
) -> PyResult<R> {
    py.detach(|| {
        let view = match kernel {
            Kernel::PlanTransform => F::view_words_for_linear_map(words),
            Kernel::NonLinear => F::view_canonical_words(words),
        };
        if let Some(view) = view {
            let view = view.map_err(|e| format!("{what}: {e}"))?;
            let r = f(view);
            if kernel == Kernel::NonLinear {
                F::canonicalize_view(view);
            }
            return r;
        }
        let mut x = F::from_canonical_words(words, false).map_err(|e| format!("{what}: {e}"))?;
        let r = f(&mut x)?;
        words.copy_from_slice(&F::to_canonical_words(&x));
        Ok::<R, String>(r)
    })
    .map_err(invalid)
}

/// A new array of the elements of `array`, computed by `f` on a copy of its words (see
/// [`in_place`]); the element shape is checked by `check` first.
///
/// # Errors
/// As [`in_place`], and `check`'s.
pub fn map_copy<'py, F: RegisteredField>(
    py: Python<'py>,
    array: &PyReadonlyArrayDyn<'py, u64>,
    what: &str,
    kernel: Kernel,
    check: impl FnOnce(&[usize]) -> PyResult<()>,
    f: impl FnOnce(&mut [F]) -> Result<(), String> + Send,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let shape = element_shape::<F>(array.shape(), what)?;
    check(&shape)?;
    let mut copy = copy_words(words(array, what)?);
    in_place::<F, ()>(py, &mut copy, what, kernel, f)?;
    array_of_words::<F>(py, copy, &shape)
}

/// `f` on the elements of `values`: in the caller's array with `inplace` (it must be
/// writeable and C-contiguous; for Goldilocks no copy at all), else on a new array
/// ([`map_copy`]). The element shape is checked by `check` first.
///
/// # Errors
/// `InvalidInputError` for an array that cannot be written in place, is not C-contiguous or
/// holds a non-canonical value (nothing changed then); `check`'s and `f`'s errors.
pub fn update<'py, F: RegisteredField>(
    py: Python<'py>,
    values: &Bound<'py, PyArrayDyn<u64>>,
    what: &str,
    kernel: Kernel,
    inplace: bool,
    check: impl FnOnce(&[usize]) -> PyResult<()>,
    f: impl FnOnce(&mut [F]) -> Result<(), String> + Send,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    if !inplace {
        let ro = values
            .try_readonly()
            .map_err(|e| invalid(format!("{what}: cannot be read ({e})")))?;
        return map_copy::<F>(py, &ro, what, kernel, check, f);
    }
    check(&element_shape::<F>(values.shape(), what)?)?;
    let mut rw = values
        .try_readwrite()
        .map_err(|e| invalid(format!("{what}: cannot be written in place ({e})")))?;
    let words = rw.as_slice_mut().map_err(|_| {
        invalid(format!(
            "{what}: the array must be C-contiguous (numpy.ascontiguousarray makes one)"
        ))
    })?;
    in_place::<F, ()>(py, words, what, kernel, f)?;
    Ok(values.clone())
}
