//! numpy arrays ↔ field elements.
//!
//! Goldilocks elements are `uint64` words (canonical: `< p`), viewed in place where the
//! operation allows. 256-bit elements are rows of four little-endian `uint64` limbs: an array
//! of shape `S + (4,)` holds elements of shape `S`. Arrays must be C-contiguous and of dtype
//! `uint64`; anything else is an error, never a silent copy that changes meaning.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use num_bigint::{BigInt, BigUint, Sign};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::PrimeField;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::NttField;
use zkaccel_ntt::NttPlan;

use crate::errors::invalid;

/// Elements per parallel chunk of a conversion.
const CHUNK: usize = 1 << 12;

/// A field the Python package exposes.
pub trait NumpyField:
    PrimeField + NttField + zkaccel_poseidon::PoseidonField + Send + Sync
{
    /// `uint64` words per element.
    const LIMBS: usize;

    /// Elements from canonical words (`reduce`: any words, reduced modulo `p`).
    ///
    /// # Errors
    /// The first non-canonical element, unless `reduce`.
    fn from_words(words: &[u64], reduce: bool) -> Result<Vec<Self>, String> {
        words
            .par_chunks(CHUNK * Self::LIMBS)
            .map(|chunk| {
                chunk
                    .chunks_exact(Self::LIMBS)
                    .map(|w| {
                        if reduce {
                            Ok(Self::from_limbs_reduced(w))
                        } else {
                            let mut limbs = Self::Limbs::default();
                            limbs.as_mut().copy_from_slice(w);
                            Self::from_canonical_limbs(limbs).map_err(|e| e.to_string())
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|parts| parts.concat())
    }

    /// The canonical words of `values`.
    fn to_words(values: &[Self]) -> Vec<u64> {
        let mut out = vec![0u64; values.len() * Self::LIMBS];
        out.par_chunks_mut(CHUNK * Self::LIMBS)
            .zip(values.par_chunks(CHUNK))
            .for_each(|(o, v)| {
                for (w, x) in o.chunks_exact_mut(Self::LIMBS).zip(v) {
                    w.copy_from_slice(x.to_canonical_limbs().as_ref());
                }
            });
        out
    }

    /// The NTT plan for `2^log_n` points, built once per size and kept; its transforms leave
    /// canonical words (where the representation needs a step for that, the plan runs it).
    fn plan(log_n: usize) -> Result<Arc<NttPlan<Self>>, String>;

    /// `words` viewed as elements where they lie (Goldilocks), or `None` where the field's
    /// representation needs a conversion.
    fn view_mut(_words: &mut [u64]) -> Option<Result<&mut [Self], String>> {
        None
    }

    /// `words` viewed as elements for a map that is linear over the field (an NTT): where
    /// [`NumpyField::view_mut`] needs a conversion, the Montgomery fields view the canonical
    /// words as Montgomery representations (the elements `x·R⁻¹`), which a linear map turns
    /// into the canonical words of its result — no conversion either way.
    fn view_linear(words: &mut [u64]) -> Option<Result<&mut [Self], String>> {
        Self::view_mut(words)
    }

    /// The message for values a plan's input check refused (the values as they were).
    fn refused(_values: &[Self]) -> String {
        zkaccel_ntt::NttError::InputRejected.to_string()
    }

    /// Leaves a buffer viewed by [`NumpyField::view_mut`] or [`NumpyField::view_linear`] as
    /// canonical words.
    fn finish_view(_values: &mut [Self]) {}
}

/// Plans by `log2` size, built on first use.
type PlanCache<F> = OnceLock<Mutex<HashMap<usize, Arc<NttPlan<F>>>>>;

/// The cached plan for `2^log_n` points, built on first use and passed through `adapt` (the
/// field's input check and output finishing, where its representation needs them).
fn cached_plan<F: NttField>(
    cache: &'static PlanCache<F>,
    log_n: usize,
    adapt: fn(NttPlan<F>) -> NttPlan<F>,
) -> Result<Arc<NttPlan<F>>, String> {
    let mut plans = cache
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(p) = plans.get(&log_n) {
        return Ok(p.clone());
    }
    let plan = Arc::new(adapt(NttPlan::new(log_n).map_err(|e| e.to_string())?));
    plans.insert(log_n, plan.clone());
    Ok(plan)
}

/// Words per task of the parallel canonical check and reduction (128 KiB: a core's L2 share).
const SCAN_CHUNK: usize = 1 << 14;

/// Every word below the Goldilocks modulus: a pass over memory the kernel then reads, so on all
/// cores, in chunks.
fn check_canonical_goldilocks(words: &[u64]) -> Result<(), String> {
    words.par_chunks(SCAN_CHUNK).try_for_each(|chunk| {
        Goldilocks::slice_from_canonical(chunk)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
}

/// A copy of `words`, made by every core (the new pages are touched in parallel too).
fn copy_words(words: &[u64]) -> Vec<u64> {
    let mut out = Vec::new();
    words.par_iter().copied().collect_into_vec(&mut out);
    out
}

impl NumpyField for Goldilocks {
    const LIMBS: usize = 1;

    fn from_words(words: &[u64], reduce: bool) -> Result<Vec<Self>, String> {
        if !reduce {
            check_canonical_goldilocks(words)?;
        }
        // Written in place by every core (rayon collects an indexed iterator into the Vec).
        let mut out = Vec::new();
        words
            .par_iter()
            .map(|&w| Goldilocks::new_reduced(w))
            .collect_into_vec(&mut out);
        Ok(out)
    }

    fn to_words(values: &[Self]) -> Vec<u64> {
        values.iter().map(Goldilocks::as_canonical_u64).collect()
    }

    fn plan(log_n: usize) -> Result<Arc<NttPlan<Self>>, String> {
        static PLANS: PlanCache<Goldilocks> = OnceLock::new();
        // Transforms check their inputs inside the first pass and leave canonical words
        // while each run of outputs is in cache: no pass of their own over memory.
        cached_plan(&PLANS, log_n, |plan| {
            plan.checking_inputs_with(Goldilocks::all_canonical)
                .finishing_outputs_with(|v| {
                    Goldilocks::canonical_words_mut(v);
                })
        })
    }

    fn view_mut(words: &mut [u64]) -> Option<Result<&mut [Self], String>> {
        let checked = check_canonical_goldilocks(words);
        Some(checked.map(|()| Goldilocks::slice_from_words_mut(words)))
    }

    fn view_linear(words: &mut [u64]) -> Option<Result<&mut [Self], String>> {
        // Unchecked here: the plans check the words inside their first pass.
        Some(Ok(Goldilocks::slice_from_words_mut(words)))
    }

    fn refused(values: &[Self]) -> String {
        let words: Vec<u64> = values.iter().map(Goldilocks::as_raw_u64).collect();
        match check_canonical_goldilocks(&words) {
            Err(e) => e,
            Ok(()) => zkaccel_ntt::NttError::InputRejected.to_string(),
        }
    }

    fn finish_view(values: &mut [Self]) {
        values.par_chunks_mut(SCAN_CHUNK).for_each(|chunk| {
            Goldilocks::canonical_words_mut(chunk);
        });
    }
}

impl NumpyField for Bn {
    const LIMBS: usize = 4;
    fn plan(log_n: usize) -> Result<Arc<NttPlan<Self>>, String> {
        static PLANS: PlanCache<Bn> = OnceLock::new();
        cached_plan(&PLANS, log_n, |plan| plan)
    }
    fn view_linear(words: &mut [u64]) -> Option<Result<&mut [Self], String>> {
        Some(Bn::slice_from_montgomery_words_mut(words).map_err(|e| e.to_string()))
    }
}

impl NumpyField for Bls {
    const LIMBS: usize = 4;
    fn plan(log_n: usize) -> Result<Arc<NttPlan<Self>>, String> {
        static PLANS: PlanCache<Bls> = OnceLock::new();
        cached_plan(&PLANS, log_n, |plan| plan)
    }
    fn view_linear(words: &mut [u64]) -> Option<Result<&mut [Self], String>> {
        Some(Bls::slice_from_montgomery_words_mut(words).map_err(|e| e.to_string()))
    }
}

/// What a kernel run on an array's elements is, which decides how the words are viewed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// A transform by a plan of [`NumpyField::plan`] (linear over the field:
    /// [`NumpyField::view_linear`]); the plan leaves its outputs canonical itself, in cache,
    /// so no finishing pass follows.
    PlanTransform,
    /// Anything else (permutations, hashes): [`NumpyField::view_mut`] or a converted copy.
    NonLinear,
}

/// The fields by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldName {
    /// Goldilocks, `2^64 − 2^32 + 1`.
    Goldilocks,
    /// BN254's scalar field.
    Bn254,
    /// BLS12-381's scalar field.
    Bls12_381,
}

impl FieldName {
    /// The field called `name` (`goldilocks`, `bn254`, `bls12-381`).
    ///
    /// # Errors
    /// `InvalidInputError` naming the known fields.
    pub fn parse(name: &str) -> PyResult<Self> {
        match name {
            "goldilocks" => Ok(Self::Goldilocks),
            "bn254" => Ok(Self::Bn254),
            "bls12-381" => Ok(Self::Bls12_381),
            _ => Err(invalid(format!(
                "unknown field {name:?}; known: goldilocks, bn254, bls12-381"
            ))),
        }
    }
}

/// The element shape of a words array: the whole shape for one-word elements, the shape
/// without its last axis (which must have `F::LIMBS` entries) otherwise.
///
/// # Errors
/// `InvalidInputError` for a missing or wrong limb axis.
pub fn element_shape<F: NumpyField>(shape: &[usize], what: &str) -> PyResult<Vec<usize>> {
    if F::LIMBS == 1 {
        return Ok(shape.to_vec());
    }
    match shape.split_last() {
        Some((&l, outer)) if l == F::LIMBS => Ok(outer.to_vec()),
        _ => Err(invalid(format!(
            "{what}: {} elements are arrays of shape (..., {}) of uint64 limbs, little-endian; \
             got shape {shape:?}",
            F::NAME,
            F::LIMBS
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
pub fn read<F: NumpyField>(
    py: Python<'_>,
    array: &PyReadonlyArrayDyn<'_, u64>,
    reduce: bool,
    what: &str,
) -> PyResult<(Vec<F>, Vec<usize>)> {
    let shape = element_shape::<F>(array.shape(), what)?;
    let w = words(array, what)?;
    let values = py
        .detach(|| F::from_words(w, reduce))
        .map_err(|e| invalid(format!("{what}: {e}")))?;
    Ok((values, shape))
}

/// A new array holding `values` with element shape `shape`.
///
/// # Errors
/// Only numpy's own (a shape that does not hold the values is a bug here).
pub fn write<'py, F: NumpyField>(
    py: Python<'py>,
    values: &[F],
    shape: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let words = py.detach(|| F::to_words(values));
    array_of_words::<F>(py, words, shape)
}

/// Words (already canonical) as an array of element shape `shape`, without copying.
///
/// # Errors
/// As [`write`].
pub fn array_of_words<'py, F: NumpyField>(
    py: Python<'py>,
    words: Vec<u64>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let mut dims = shape.to_vec();
    if F::LIMBS > 1 {
        dims.push(F::LIMBS);
    }
    PyArray1::from_vec(py, words).reshape(dims)
}

/// A Python int as an element (`reduce`: any int, taken modulo `p`).
///
/// # Errors
/// `InvalidInputError` for a negative or too large value, unless `reduce`.
pub fn element_of_int<F: NumpyField>(value: &BigInt, reduce: bool) -> PyResult<F> {
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
pub fn int_of_element<F: NumpyField>(value: &F) -> BigUint {
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
pub fn in_place<F: NumpyField, R: Send>(
    py: Python<'_>,
    words: &mut [u64],
    what: &str,
    kernel: Kernel,
    f: impl FnOnce(&mut [F]) -> Result<R, String> + Send,
) -> PyResult<R> {
    py.detach(|| {
        let view = match kernel {
            Kernel::PlanTransform => F::view_linear(words),
            Kernel::NonLinear => F::view_mut(words),
        };
        if let Some(view) = view {
            let view = view.map_err(|e| format!("{what}: {e}"))?;
            let r = f(view);
            if kernel == Kernel::NonLinear {
                F::finish_view(view);
            }
            return r;
        }
        let mut x = F::from_words(words, false).map_err(|e| format!("{what}: {e}"))?;
        let r = f(&mut x)?;
        words.copy_from_slice(&F::to_words(&x));
        Ok::<R, String>(r)
    })
    .map_err(invalid)
}

/// A new array of the elements of `array`, computed by `f` on a copy of its words (see
/// [`in_place`]); the element shape is checked by `check` first.
///
/// # Errors
/// As [`in_place`], and `check`'s.
pub fn map_copy<'py, F: NumpyField>(
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
pub fn update<'py, F: NumpyField>(
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
