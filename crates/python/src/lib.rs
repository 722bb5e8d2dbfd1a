//! The `zkaccel._native` extension module: thin wrappers over the zkaccel crates for the
//! Python package `zkaccel` (its pure-Python half is `python/zkaccel`). Every call that can
//! take more than about a millisecond releases the GIL; the work runs on rayon's global pool
//! (`RAYON_NUM_THREADS` sets its size).

use pyo3::prelude::*;

/// Runs `$body` with `$F` the field type that `$name` (an `arrays::FieldName`) names.
macro_rules! by_field {
    ($name:expr, $F:ident => $body:expr) => {
        match $name {
            $crate::arrays::FieldName::Goldilocks => {
                type $F = zkaccel_goldilocks::Goldilocks;
                $body
            }
            $crate::arrays::FieldName::Bn254 => {
                type $F = zkaccel_bn254::Fr;
                $body
            }
            $crate::arrays::FieldName::Bls12_381 => {
                type $F = zkaccel_bls12_381::Fr;
                $body
            }
        }
    };
}

mod arrays;
mod errors;
mod fields;
mod hashes;
mod merkle;
mod models;
mod ntt;
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

/// zkaccel's native module; import `zkaccel` instead.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    submodule(m, "fields", fields::register)?;
    submodule(m, "poseidon", hashes::register_poseidon)?;
    submodule(m, "mimc", hashes::register_mimc)?;
    submodule(m, "ntt", ntt::register)?;
    submodule(m, "merkle", merkle::register)?;
    submodule(m, "stark", stark::register)?;
    submodule(m, "models", models::register)?;
    Ok(())
}
