//! `zkaccel.fields`: conversions and batch arithmetic.

use num_bigint::{BigInt, BigUint};
use numpy::{PyArrayDyn, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;

use zkaccel_registry::{FieldVisitor, RegisteredField};

use crate::arrays::{biguint, element_of_int, field_id, int_of_element, read, write};
use crate::errors::invalid;

/// The field's modulus `p`.
#[pyfunction]
fn modulus(field: &str) -> PyResult<BigUint> {
    struct Modulus;
    impl FieldVisitor for Modulus {
        type Output = BigUint;
        fn visit<F: RegisteredField>(self) -> BigUint {
            biguint(F::modulus().as_ref())
        }
    }
    Ok(field_id(field)?.visit(Modulus))
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
    struct ToArray<'a, 'py> {
        py: Python<'py>,
        values: &'a [BigInt],
        reduce: bool,
    }
    impl<'py> FieldVisitor for ToArray<'_, 'py> {
        type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
        fn visit<F: RegisteredField>(self) -> Self::Output {
            let elements = self
                .values
                .iter()
                .map(|v| element_of_int::<F>(v, self.reduce))
                .collect::<PyResult<Vec<F>>>()?;
            write(self.py, &elements, &[elements.len()])
        }
    }
    field_id(field)?.visit(ToArray {
        py,
        values: &values,
        reduce,
    })
}

/// An element array (any shape) as a flat list of Python ints.
#[pyfunction]
fn to_ints(
    py: Python<'_>,
    values: PyReadonlyArrayDyn<'_, u64>,
    field: &str,
) -> PyResult<Vec<BigUint>> {
    struct ToInts<'a, 'py> {
        py: Python<'py>,
        values: &'a PyReadonlyArrayDyn<'py, u64>,
    }
    impl FieldVisitor for ToInts<'_, '_> {
        type Output = PyResult<Vec<BigUint>>;
        fn visit<F: RegisteredField>(self) -> Self::Output {
            let (elements, _) = read::<F>(self.py, self.values, false, "values")?;
            Ok(elements.iter().map(int_of_element).collect())
        }
    }
    field_id(field)?.visit(ToInts {
        py,
        values: &values,
    })
}

/// Canonical words of any words: every element reduced modulo `p`.
#[pyfunction]
fn reduce<'py>(
    py: Python<'py>,
    values: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    struct Reduce<'a, 'py> {
        py: Python<'py>,
        values: &'a PyReadonlyArrayDyn<'py, u64>,
    }
    impl<'py> FieldVisitor for Reduce<'_, 'py> {
        type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
        fn visit<F: RegisteredField>(self) -> Self::Output {
            let (elements, shape) = read::<F>(self.py, self.values, true, "values")?;
            write(self.py, &elements, &shape)
        }
    }
    field_id(field)?.visit(Reduce {
        py,
        values: &values,
    })
}

/// An element-by-element operation of two arrays.
#[derive(Clone, Copy)]
enum Op {
    Add,
    Sub,
    Mul,
}

/// `a op b` on the field a name picks.
struct Binary<'a, 'py> {
    py: Python<'py>,
    a: &'a PyReadonlyArrayDyn<'py, u64>,
    b: &'a PyReadonlyArrayDyn<'py, u64>,
    op: Op,
}

impl<'py> FieldVisitor for Binary<'_, 'py> {
    type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
    fn visit<F: RegisteredField>(self) -> Self::Output {
        let op: fn(F, F) -> F = match self.op {
            Op::Add => |x, y| x + y,
            Op::Sub => |x, y| x - y,
            Op::Mul => |x, y| x * y,
        };
        binary::<F>(self.py, self.a, self.b, op)
    }
}

fn binary<'py, F: RegisteredField>(
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
    field_id(field)?.visit(Binary {
        py,
        a: &a,
        b: &b,
        op: Op::Add,
    })
}

/// `a − b` element by element.
#[pyfunction]
fn sub<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, u64>,
    b: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    field_id(field)?.visit(Binary {
        py,
        a: &a,
        b: &b,
        op: Op::Sub,
    })
}

/// `a · b` element by element.
#[pyfunction]
fn mul<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, u64>,
    b: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    field_id(field)?.visit(Binary {
        py,
        a: &a,
        b: &b,
        op: Op::Mul,
    })
}

/// `1 / a` element by element; a zero element is an `InvalidInputError`.
#[pyfunction]
fn inverse<'py>(
    py: Python<'py>,
    a: PyReadonlyArrayDyn<'py, u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    struct Inverse<'a, 'py> {
        py: Python<'py>,
        a: &'a PyReadonlyArrayDyn<'py, u64>,
    }
    impl<'py> FieldVisitor for Inverse<'_, 'py> {
        type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
        fn visit<F: RegisteredField>(self) -> Self::Output {
            let (x, shape) = read::<F>(self.py, self.a, false, "a")?;
            let out: Option<Vec<F>> = self
                .py
                .detach(|| x.par_iter().map(F::try_inverse).collect());
            let out = out.ok_or_else(|| invalid("zero has no inverse"))?;
            write(self.py, &out, &shape)
        }
    }
    field_id(field)?.visit(Inverse { py, a: &a })
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
