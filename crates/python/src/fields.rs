//! `zkaccel.fields`: conversions and batch arithmetic.

use num_bigint::{BigInt, BigUint};
use numpy::{PyArrayDyn, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use zkaccel_field::{Field, PrimeField};

use crate::arrays::{biguint, element_of_int, int_of_element, read, write, FieldName, NumpyField};
use crate::errors::invalid;

/// The field's modulus `p`.
#[pyfunction]
fn modulus(field: &str) -> PyResult<BigUint> {
    Ok(by_field!(FieldName::parse(field)?, F => biguint(F::modulus().as_ref())))
}

/// Python ints as an element array (Goldilocks: shape `(n,)`; 256-bit: `(n, 4)` limbs).
/// Values must lie in `[0, p)` unless `reduce=True`, which takes them modulo `p`.
#[pyfunction]
#[pyo3(signature = (values, field, *, reduce = false))]
fn to_array<'py>(
    py: Python<'py>,
    values: Vec<BigInt>,
    field: &str,
    reduce: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    by_field!(FieldName::parse(field)?, F => {
        let elements = values
            .iter()
            .map(|v| element_of_int::<F>(v, reduce))
            .collect::<PyResult<Vec<F>>>()?;
        write(py, &elements, &[elements.len()])
    })
}

/// An element array (any shape) as a flat list of Python ints.
#[pyfunction]
fn to_ints(
    py: Python<'_>,
    values: PyReadonlyArrayDyn<'_, u64>,
    field: &str,
) -> PyResult<Vec<BigUint>> {
    by_field!(FieldName::parse(field)?, F => {
        let (elements, _) = read::<F>(py, &values, false, "values")?;
        Ok(elements.iter().map(int_of_element).collect())
    })
}

/// Canonical words of any words: every element reduced modulo `p`.
#[pyfunction]
fn reduce<'py>(
    py: Python<'py>,
    values: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    by_field!(FieldName::parse(field)?, F => {
        let (elements, shape) = read::<F>(py, &values, true, "values")?;
        write(py, &elements, &shape)
    })
}

fn binary<'py, F: NumpyField>(
    py: Python<'py>,
    a: &PyReadonlyArrayDyn<'py, u64>,
    b: &PyReadonlyArrayDyn<'py, u64>,
    op: fn(F, F) -> F,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    if a.shape() != b.shape() {
        return Err(invalid(format!(
            "operands of shapes {:?} and {:?}: they must be equal",
            a.shape(),
            b.shape()
        )));
    }
    let (x, shape) = read::<F>(py, a, false, "a")?;
    let (y, _) = read::<F>(py, b, false, "b")?;
    let out: Vec<F> = py.detach(|| x.par_iter().zip(&y).map(|(&x, &y)| op(x, y)).collect());
    write(py, &out, &shape)
}

/// `a + b` element by element (arrays of equal shape).
#[pyfunction]
fn add<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, u64>,
    b: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    by_field!(FieldName::parse(field)?, F => binary::<F>(py, &a, &b, |x, y| x + y))
}

/// `a − b` element by element.
#[pyfunction]
fn sub<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, u64>,
    b: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    by_field!(FieldName::parse(field)?, F => binary::<F>(py, &a, &b, |x, y| x - y))
}

/// `a · b` element by element.
#[pyfunction]
fn mul<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, u64>,
    b: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    by_field!(FieldName::parse(field)?, F => binary::<F>(py, &a, &b, |x, y| x * y))
}

/// `1 / a` element by element; a zero element is an `InvalidInputError`.
#[pyfunction]
fn inverse<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    by_field!(FieldName::parse(field)?, F => {
        let (x, shape) = read::<F>(py, &a, false, "a")?;
        let out: Option<Vec<F>> = py.detach(|| x.par_iter().map(F::try_inverse).collect());
        let out = out.ok_or_else(|| invalid("zero has no inverse"))?;
        write(py, &out, &shape)
    })
}

/// Registers the functions on `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(modulus, m)?)?;
    m.add_function(wrap_pyfunction!(to_array, m)?)?;
    m.add_function(wrap_pyfunction!(to_ints, m)?)?;
    m.add_function(wrap_pyfunction!(reduce, m)?)?;
    m.add_function(wrap_pyfunction!(add, m)?)?;
    m.add_function(wrap_pyfunction!(sub, m)?)?;
    m.add_function(wrap_pyfunction!(mul, m)?)?;
    m.add_function(wrap_pyfunction!(inverse, m)?)?;
    Ok(())
}
