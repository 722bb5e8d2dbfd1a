//! `zkaccel.ntt`: forward/inverse transforms in the four orders, on cosets, batches in both
//! layouts and low-degree extensions, over Goldilocks, BN254 and BLS12-381.

use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use zkaccel_ntt::{Layout, LdeInput, NttError, NttPlan, Order};

use zkaccel_registry::{FieldVisitor, RegisteredField};

use crate::arrays::{field_id, plan, read, update, write, Kernel};
use crate::errors::{invalid, other};

fn order(name: &str) -> PyResult<Order> {
    match name {
        "nn" => Ok(Order::NN),
        "nr" => Ok(Order::NR),
        "rn" => Ok(Order::RN),
        "rr" => Ok(Order::RR),
        _ => Err(invalid(format!(
            "unknown order {name:?}; known: nn, nr, rn, rr (input then output: natural or \
             bit-reversed)"
        ))),
    }
}

fn layout(name: &str) -> PyResult<Layout> {
    match name {
        "polynomial-major" => Ok(Layout::PolynomialMajor),
        "index-major" => Ok(Layout::IndexMajor),
        _ => Err(invalid(format!(
            "unknown layout {name:?}; known: polynomial-major (one row per polynomial), \
             index-major (one row per point, plonky2/Plonky3's matrices)"
        ))),
    }
}

fn log2_exact(n: usize, what: &str) -> PyResult<usize> {
    if n.is_power_of_two() {
        Ok(n.trailing_zeros() as usize)
    } else {
        Err(invalid(format!("{what}: {n} is not a power of two")))
    }
}

/// What one call transforms.
#[derive(Clone, Copy)]
struct Transform {
    inverse: bool,
    coset: bool,
    order: Order,
    /// `Some((count, layout))` for a batch.
    batch: Option<(usize, Layout)>,
}

impl Transform {
    fn run<F: RegisteredField>(&self, values: &mut [F], n: usize) -> Result<(), String> {
        let plan: std::sync::Arc<NttPlan<F>> = plan::<F>(
            log2_exact(n.max(1), "length")
                .map_err(|_| format!("{n} points: not a power of two"))?,
        )?;
        let result = match (self.batch, self.inverse, self.coset) {
            (None, false, false) => plan.forward(values, self.order),
            (None, true, false) => plan.inverse(values, self.order),
            (None, false, true) => plan.coset_forward(values, F::GENERATOR, self.order),
            (None, true, true) => plan.coset_inverse(values, F::GENERATOR, self.order),
            (Some((count, l)), false, false) => plan.forward_batch(values, count, l, self.order),
            (Some((count, l)), true, false) => plan.inverse_batch(values, count, l, self.order),
            (Some(_), _, true) => return Err("batched transforms on cosets: use lde_batch".into()),
        };
        result.map_err(|e| match e {
            // The values are as they were: the field names the word it refused.
            NttError::InputRejected => format!("values: {}", F::refusal(values)),
            e => e.to_string(),
        })
    }

    /// Points per polynomial of an array of element shape `shape`.
    fn points(&self, shape: &[usize]) -> PyResult<usize> {
        match (self.batch, shape) {
            (None, [n]) => Ok(*n),
            (Some((_, Layout::PolynomialMajor)), [_, n]) => Ok(*n),
            (Some((_, Layout::IndexMajor)), [n, _]) => Ok(*n),
            _ => Err(invalid(format!(
                "values: expected elements of shape {}, got {shape:?}",
                match self.batch {
                    None => "(n,)",
                    Some((_, Layout::PolynomialMajor)) => "(polynomials, n)",
                    Some((_, Layout::IndexMajor)) => "(n, polynomials)",
                }
            ))),
        }
    }
}

fn batch_count(shape: &[usize], l: Layout) -> usize {
    match (l, shape) {
        (Layout::PolynomialMajor, [c, _]) => *c,
        (Layout::IndexMajor, [_, c]) => *c,
        _ => 0,
    }
}

fn element_shape_of<F: RegisteredField>(
    array: &Bound<'_, PyArrayDyn<u64>>,
) -> PyResult<Vec<usize>> {
    crate::arrays::element_shape::<F>(array.shape(), "values")
}

fn apply<'py, F: RegisteredField>(
    py: Python<'py>,
    values: &Bound<'py, PyArrayDyn<u64>>,
    t: Transform,
    inplace: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let mut t = t;
    let shape = element_shape_of::<F>(values)?;
    if let Some((_, l)) = t.batch {
        t.batch = Some((batch_count(&shape, l), l));
    }
    let n = t.points(&shape)?;
    // In place, or one copy of the words transformed where they lie.
    // An NTT is linear: the 256-bit fields' canonical words are transformed where they lie
    // too, viewed as Montgomery representations (no conversion in or out).
    let kernel = Kernel::PlanTransform;
    update::<F>(
        py,
        values,
        "values",
        kernel,
        inplace,
        |_| Ok(()),
        |x| t.run(x, n),
    )
}

/// [`apply`] on the field a name picks.
struct Apply<'a, 'py> {
    py: Python<'py>,
    values: &'a Bound<'py, PyArrayDyn<u64>>,
    t: Transform,
    inplace: bool,
}

impl<'py> FieldVisitor for Apply<'_, 'py> {
    type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
    fn visit<F: RegisteredField>(self) -> Self::Output {
        apply::<F>(self.py, self.values, self.t, self.inplace)
    }
}

/// The forward transform (coefficients → evaluations on `⟨ω_n⟩`, or on the coset
/// `g·⟨ω_n⟩` with `coset=True`, g the field's generator) of a vector of `n = 2^k` elements
/// (Goldilocks `(n,)`, 256-bit `(n, 4)`); `order` names input then output order
/// (`nn`, `nr`, `rn`, `rr`). A new array, or `values` itself with `inplace=True`.
#[pyfunction]
#[pyo3(signature = (values, *, field = "goldilocks", order = "nn", coset = false, inplace = false))]
fn forward<'py>(
    py: Python<'py>,
    values: Bound<'py, PyArrayDyn<u64>>,
    field: &str,
    order: &str,
    coset: bool,
    inplace: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let t = Transform {
        inverse: false,
        coset,
        order: self::order(order)?,
        batch: None,
    };
    field_id(field)?.visit(Apply {
        py,
        values: &values,
        t,
        inplace,
    })
}

/// The inverse of `forward` (with the `1/n` scale).
#[pyfunction]
#[pyo3(signature = (values, *, field = "goldilocks", order = "nn", coset = false, inplace = false))]
fn inverse<'py>(
    py: Python<'py>,
    values: Bound<'py, PyArrayDyn<u64>>,
    field: &str,
    order: &str,
    coset: bool,
    inplace: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let t = Transform {
        inverse: true,
        coset,
        order: self::order(order)?,
        batch: None,
    };
    field_id(field)?.visit(Apply {
        py,
        values: &values,
        t,
        inplace,
    })
}

/// Forward transforms of a batch: `(polynomials, n)` in `polynomial-major` layout or
/// `(n, polynomials)` in `index-major` (256-bit: a trailing limb axis).
#[pyfunction]
#[pyo3(signature = (values, *, field = "goldilocks", layout = "polynomial-major", order = "nn", inverse = false, inplace = false))]
fn forward_batch<'py>(
    py: Python<'py>,
    values: Bound<'py, PyArrayDyn<u64>>,
    field: &str,
    layout: &str,
    order: &str,
    inverse: bool,
    inplace: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let t = Transform {
        inverse,
        coset: false,
        order: self::order(order)?,
        batch: Some((0, self::layout(layout)?)),
    };
    field_id(field)?.visit(Apply {
        py,
        values: &values,
        t,
        inplace,
    })
}

fn lde_impl<'py, F: RegisteredField>(
    py: Python<'py>,
    values: &Bound<'py, PyArrayDyn<u64>>,
    log_blowup: usize,
    batch: Option<(Layout, LdeInput)>,
    coset: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let (x, shape) = read::<F>(py, &values.readonly(), false, "values")?;
    let shift = if coset { F::GENERATOR } else { F::ONE };
    let n = match (batch, &shape[..]) {
        (None, [n]) | (Some((Layout::PolynomialMajor, _)), [_, n]) => *n,
        (Some((Layout::IndexMajor, _)), [n, _]) => *n,
        _ => {
            return Err(invalid(format!(
                "values: expected elements of shape (n,), (polynomials, n) or (n, polynomials) \
                 by layout; got {shape:?}"
            )))
        }
    };
    let log_n = log2_exact(n, "length")?;
    let log_big = log_n
        .checked_add(log_blowup)
        .filter(|&b| b <= 40)
        .ok_or_else(|| invalid(format!("2^{log_n} points · 2^{log_blowup}: too large")))?;
    let big = 1usize << log_big;
    let out_shape = match (batch, &shape[..]) {
        (Some((Layout::PolynomialMajor, _)), [c, _]) => vec![*c, big],
        (Some((Layout::IndexMajor, _)), [_, c]) => vec![big, *c],
        _ => vec![big],
    };
    let plan = plan::<F>(log_big).map_err(invalid)?;
    let out = py
        .detach(|| match batch {
            None => plan.lde(&x, log_blowup, shift),
            Some((l, input)) => {
                let count = batch_count(&shape, l);
                plan.lde_batch(&x, count, l, log_blowup, shift, input)
            }
        })
        .map_err(other)?;
    write(py, &out, &out_shape)
}

/// [`lde_impl`] on the field a name picks.
struct Lde<'a, 'py> {
    py: Python<'py>,
    values: &'a Bound<'py, PyArrayDyn<u64>>,
    log_blowup: usize,
    batch: Option<(Layout, LdeInput)>,
    coset: bool,
}

impl<'py> FieldVisitor for Lde<'_, 'py> {
    type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
    fn visit<F: RegisteredField>(self) -> Self::Output {
        lde_impl::<F>(
            self.py,
            self.values,
            self.log_blowup,
            self.batch,
            self.coset,
        )
    }
}

/// The low-degree extension of one polynomial from its `n` coefficients: its `n·2^log_blowup`
/// evaluations, natural order, on the coset `g·⟨ω⟩` (`coset=False`: on `⟨ω⟩`).
#[pyfunction]
#[pyo3(signature = (coefficients, log_blowup, *, field = "goldilocks", coset = true))]
fn lde<'py>(
    py: Python<'py>,
    coefficients: Bound<'py, PyArrayDyn<u64>>,
    log_blowup: usize,
    field: &str,
    coset: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    field_id(field)?.visit(Lde {
        py,
        values: &coefficients,
        log_blowup,
        batch: None,
        coset,
    })
}

/// Batched low-degree extensions in either layout, from `coefficients` or `evaluations` on
/// `⟨ω_n⟩` (index-major from evaluations is Plonky3's `coset_lde_batch`); same layout out.
#[pyfunction]
#[pyo3(signature = (values, log_blowup, *, field = "goldilocks", layout = "polynomial-major", input = "coefficients", coset = true))]
fn lde_batch<'py>(
    py: Python<'py>,
    values: Bound<'py, PyArrayDyn<u64>>,
    log_blowup: usize,
    field: &str,
    layout: &str,
    input: &str,
    coset: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let input = match input {
        "coefficients" => LdeInput::Coefficients,
        "evaluations" => LdeInput::Evaluations,
        _ => {
            return Err(invalid(format!(
                "unknown input {input:?}; known: coefficients, evaluations"
            )))
        }
    };
    let batch = Some((self::layout(layout)?, input));
    field_id(field)?.visit(Lde {
        py,
        values: &values,
        log_blowup,
        batch,
        coset,
    })
}

/// Registers `zkaccel.ntt`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(forward, m)?)?;
    m.add_function(wrap_pyfunction!(inverse, m)?)?;
    m.add_function(wrap_pyfunction!(forward_batch, m)?)?;
    m.add_function(wrap_pyfunction!(lde, m)?)?;
    m.add_function(wrap_pyfunction!(lde_batch, m)?)?;
    Ok(())
}
