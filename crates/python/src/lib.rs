//! The `zkaccel._native` extension module: thin wrappers over the zkaccel crates for the
//! Python package `zkaccel` (its pure-Python half is `python/zkaccel`). Every call that can
//! take more than about a millisecond releases the GIL; the work runs on rayon's global pool
//! (`RAYON_NUM_THREADS` sets its size).

use pyo3::prelude::*;

mod arrays;
mod errors;
mod fields;
mod hashes;
mod merkle;
mod models;
mod ntt;
#[cfg(feature = "bench-hooks")]
mod overhead_reference;
mod stark;

fn submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let m = PyModule::new(parent.py(), name)?;
    register(&m)?;
    parent.add_submodule(&m)
}

/// The Rust side of `benches/overhead.py` (only in a build with the `bench-hooks` feature,
/// never in the wheel users get): case `case`'s call made through the Rust API on
/// `words` (a writeable C-contiguous `uint64` array, the case's input), in place or (`copy`)
/// on a copy the call makes; returns its seconds. Same binary and same memory as the Python
/// call the benchmark then makes on the array, so only what Python adds differs.
///
/// # Errors
/// `InvalidInputError` for an unknown case, an array it cannot use, or the call's error.
#[cfg(feature = "bench-hooks")]
#[pyfunction]
fn _overhead_reference(
    py: Python<'_>,
    case: &str,
    words: &Bound<'_, numpy::PyArrayDyn<u64>>,
    copy: bool,
) -> PyResult<f64> {
    use numpy::PyArrayMethods;
    let mut rw = words
        .try_readwrite()
        .map_err(|e| errors::invalid(format!("words: cannot be written ({e})")))?;
    let words = rw
        .as_slice_mut()
        .map_err(|_| errors::invalid("words: the array must be C-contiguous"))?;
    py.detach(|| overhead_reference::time_call(case, words, copy))
        .map_err(errors::invalid)
}

/// zkaccel's native module; import `zkaccel` instead.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    #[cfg(feature = "bench-hooks")]
    m.add_function(wrap_pyfunction!(_overhead_reference, m)?)?;
    submodule(m, "fields", fields::register)?;
    submodule(m, "poseidon", hashes::register_poseidon)?;
    submodule(m, "mimc", hashes::register_mimc)?;
    submodule(m, "ntt", ntt::register)?;
    submodule(m, "merkle", merkle::register)?;
    submodule(m, "stark", stark::register)?;
    submodule(m, "models", models::register)?;
    Ok(())
}
