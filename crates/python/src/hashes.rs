//! `zkaccel.poseidon` and `zkaccel.mimc`: the presets users already rely on.

use num_bigint::BigInt;
use numpy::{PyArrayDyn, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_poseidon::Poseidon;
use zkaccel_presets::MimcPreset as Preset;
use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};

use zkaccel_registry::RegisteredField;

use crate::arrays::{element_of_int, read, update, write, Kernel};
use crate::errors::{invalid, other};

/// A neptune strength by name.
pub fn strength(name: &str) -> PyResult<Strength> {
    match name {
        "standard" => Ok(Strength::Standard),
        "strengthened" => Ok(Strength::Strengthened),
        _ => Err(invalid(format!(
            "unknown strength {name:?}; known: standard, strengthened"
        ))),
    }
}

fn unknown_preset(name: &str) -> PyErr {
    invalid(format!(
        "unknown Poseidon preset {name:?}; known: plonky2, neptune, circomlib"
    ))
}

/// Checks an element shape `(n, width)` (or `(width,)` when `single`) and returns `n`.
fn rows_of(shape: &[usize], width: usize, what: &str, single: bool) -> PyResult<usize> {
    match (single, shape) {
        (true, [w]) if *w == width => Ok(1),
        (false, [n, w]) if *w == width => Ok(*n),
        _ => Err(invalid(format!(
            "{what}: expected elements of shape {}, got {shape:?}",
            if single {
                format!("({width},)")
            } else {
                format!("(n, {width})")
            }
        ))),
    }
}

fn permute_with<'py, F: RegisteredField>(
    py: Python<'py>,
    perm: &Poseidon<F>,
    states: &Bound<'py, PyArrayDyn<u64>>,
    inplace: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let check = |shape: &[usize]| rows_of(shape, perm.width(), "states", false).map(|_| ());
    update::<F>(
        py,
        states,
        "states",
        Kernel::NonLinear,
        inplace,
        check,
        |s| perm.permute_many(s).map_err(|e| e.to_string()),
    )
}

/// Poseidon permutations of a batch of states, shape `(n, t)` in elements (256-bit: `(n, t,
/// 4)` limbs), on all cores. plonky2: t = 12 over Goldilocks; neptune: t = arity + 1 over
/// BLS12-381; circomlib: t = 2…17 over BN254 (the states' width picks it). A new array, or
/// `states` itself with `inplace=True` (Goldilocks: permuted where they lie, no copy).
#[pyfunction]
#[pyo3(signature = (states, preset, *, arity = 2, strength = "standard", inplace = false))]
fn permute<'py>(
    py: Python<'py>,
    states: Bound<'py, PyArrayDyn<u64>>,
    preset: &str,
    arity: usize,
    strength: &str,
    inplace: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    match preset {
        "plonky2" => {
            permute_with::<Goldilocks>(py, Plonky2Poseidon::get().permutation(), &states, inplace)
        }
        "neptune" => {
            let h = NeptunePoseidon::<Bls>::new(arity, self::strength(strength)?).map_err(other)?;
            permute_with::<Bls>(py, h.permutation(), &states, inplace)
        }
        "circomlib" => {
            let width = states.shape().get(1).copied().unwrap_or(0);
            let h = CircomPoseidon::get(width).map_err(other)?;
            permute_with::<Bn>(py, h.permutation(), &states, inplace)
        }
        _ => Err(unknown_preset(preset)),
    }
}

fn hash_rows<'py>(
    py: Python<'py>,
    inputs: &PyReadonlyArrayDyn<'py, u64>,
    preset: &str,
    arity: usize,
    strength: &str,
    single: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let n_in = |shape: &[usize]| -> PyResult<(usize, usize)> {
        match (single, shape) {
            (true, [k]) => Ok((1, *k)),
            (false, [n, k]) => Ok((*n, *k)),
            _ => Err(invalid(format!(
                "inputs: expected elements of shape {}, got {shape:?}",
                if single { "(k,)" } else { "(n, k)" }
            ))),
        }
    };
    match preset {
        "plonky2" => {
            let (x, shape) = read::<Goldilocks>(py, inputs, false, "inputs")?;
            let (n, k) = n_in(&shape)?;
            let h = Plonky2Poseidon::get();
            let out: Vec<Goldilocks> = py.detach(|| {
                if k == 0 {
                    return (0..n).flat_map(|_| h.hash_no_pad(&[])).collect();
                }
                x.par_chunks(k)
                    .flat_map_iter(|row| h.hash_no_pad(row))
                    .collect()
            });
            write(py, &out, &if single { vec![4] } else { vec![n, 4] })
        }
        "neptune" => {
            let (x, shape) = read::<Bls>(py, inputs, false, "inputs")?;
            let n = rows_of(&shape, arity, "inputs", single)?;
            let h = NeptunePoseidon::<Bls>::new(arity, self::strength(strength)?).map_err(other)?;
            let out = py.detach(|| h.hash_many(&x)).map_err(other)?;
            write(py, &out, &if single { vec![] } else { vec![n] })
        }
        "circomlib" => {
            let (x, shape) = read::<Bn>(py, inputs, false, "inputs")?;
            let (n, k) = n_in(&shape)?;
            let h = CircomPoseidon::for_inputs(k).map_err(other)?;
            let out = py.detach(|| h.hash_many(&x)).map_err(other)?;
            write(py, &out, &if single { vec![] } else { vec![n] })
        }
        _ => Err(unknown_preset(preset)),
    }
}

/// The Poseidon hash of one input. plonky2: `hash_no_pad` of a Goldilocks vector `(k,)`, a
/// digest `(4,)`; neptune: the Merkle-node hash of `arity` elements `(arity, 4)`; circomlib:
/// `poseidon(inputs)` of 1…16 elements `(k, 4)`; both give one element `(4,)`.
#[pyfunction]
#[pyo3(signature = (inputs, preset, *, arity = 2, strength = "standard"))]
fn hash<'py>(
    py: Python<'py>,
    inputs: PyReadonlyArrayDyn<'py, u64>,
    preset: &str,
    arity: usize,
    strength: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    hash_rows(py, &inputs, preset, arity, strength, true)
}

/// `hash` of each row of a batch `(n, k)` (256-bit: `(n, k, 4)`), on all cores; digests
/// `(n, 4)`.
#[pyfunction]
#[pyo3(signature = (inputs, preset, *, arity = 2, strength = "standard"))]
fn hash_many<'py>(
    py: Python<'py>,
    inputs: PyReadonlyArrayDyn<'py, u64>,
    preset: &str,
    arity: usize,
    strength: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    hash_rows(py, &inputs, preset, arity, strength, false)
}

/// Registers `zkaccel.poseidon`.
pub fn register_poseidon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(permute, m)?)?;
    m.add_function(wrap_pyfunction!(hash, m)?)?;
    m.add_function(wrap_pyfunction!(hash_many, m)?)?;
    Ok(())
}

fn mimc_preset(name: &str) -> PyResult<Preset> {
    Preset::ALL
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| {
            invalid(format!(
                "unknown MiMC preset {name:?}; known: circomlib, gnark, ethsnarks, circomlib-sponge"
            ))
        })
}

fn mp_preset(name: &str) -> PyResult<Preset> {
    let p = mimc_preset(name)?;
    if p.is_feistel() {
        return Err(invalid(format!(
            "{name} is the Feistel sponge: use mimc.sponge_hash"
        )));
    }
    Ok(p)
}

/// The MiMC-p/p encryption of each `x` under its key `k` (element arrays of equal shape,
/// `(n, 4)` limbs over BN254), on all cores.
#[pyfunction]
#[pyo3(signature = (x, k, *, preset = "circomlib"))]
fn encrypt<'py>(
    py: Python<'py>,
    x: PyReadonlyArrayDyn<'py, u64>,
    k: PyReadonlyArrayDyn<'py, u64>,
    preset: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let cipher = mp_preset(preset)?.cipher();
    let (xs, shape) = read::<Bn>(py, &x, false, "x")?;
    let (ks, kshape) = read::<Bn>(py, &k, false, "k")?;
    if shape != kshape {
        return Err(invalid(format!(
            "x and k: element shapes {shape:?} and {kshape:?} differ"
        )));
    }
    let out = py
        .detach(|| cipher.encrypt_batch(&xs, &ks))
        .map_err(other)?;
    write(py, &out, &shape)
}

fn mimc_rows<'py>(
    py: Python<'py>,
    inputs: &PyReadonlyArrayDyn<'py, u64>,
    key: &BigInt,
    preset: &str,
    single: bool,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let cipher = mp_preset(preset)?.cipher();
    let key = element_of_int::<Bn>(key, false)?;
    let (x, shape) = read::<Bn>(py, inputs, false, "inputs")?;
    let (n, k) = match (single, &shape[..]) {
        (true, [k]) => (1, *k),
        (false, [n, k]) => (*n, *k),
        _ => {
            return Err(invalid(format!(
                "inputs: expected elements of shape {}, got {shape:?}",
                if single { "(k,)" } else { "(n, k)" }
            )))
        }
    };
    let out: Vec<Bn> = py.detach(|| {
        if k == 0 {
            return vec![cipher.hash(&[], key); n];
        }
        let rows: Vec<&[Bn]> = x.chunks(k).collect();
        cipher.hash_batch(&rows, key)
    });
    write(py, &out, &if single { vec![] } else { vec![n] })
}

/// The MiMC Miyaguchi–Preneel hash of `inputs` (`(k, 4)` limbs over BN254) with `key`
/// (circomlib's `MultiMiMC7`): one element `(4,)`.
#[pyfunction]
#[pyo3(name = "hash", signature = (inputs, *, key = BigInt::ZERO, preset = "circomlib"), text_signature = "(inputs, *, key=0, preset='circomlib')")]
fn mimc_hash<'py>(
    py: Python<'py>,
    inputs: PyReadonlyArrayDyn<'py, u64>,
    key: BigInt,
    preset: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    mimc_rows(py, &inputs, &key, preset, true)
}

/// The hash of each row of `(n, k, 4)`, on all cores: `(n, 4)`.
#[pyfunction]
#[pyo3(name = "hash_many", signature = (inputs, *, key = BigInt::ZERO, preset = "circomlib"), text_signature = "(inputs, *, key=0, preset='circomlib')")]
fn mimc_hash_many<'py>(
    py: Python<'py>,
    inputs: PyReadonlyArrayDyn<'py, u64>,
    key: BigInt,
    preset: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    mimc_rows(py, &inputs, &key, preset, false)
}

/// circomlib's `MiMCSponge(n, 220, outputs)`: the Feistel sponge of `inputs` (`(k, 4)`) with
/// `key`, squeezing `outputs` elements `(outputs, 4)`.
#[pyfunction]
#[pyo3(signature = (inputs, *, key = BigInt::ZERO, outputs = 1), text_signature = "(inputs, *, key=0, outputs=1)")]
fn sponge_hash<'py>(
    py: Python<'py>,
    inputs: PyReadonlyArrayDyn<'py, u64>,
    key: BigInt,
    outputs: usize,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let sponge = Preset::CircomlibSponge.sponge();
    let key = element_of_int::<Bn>(&key, false)?;
    let (x, shape) = read::<Bn>(py, &inputs, false, "inputs")?;
    if shape.len() != 1 {
        return Err(invalid(format!(
            "inputs: expected elements of shape (k,), got {shape:?}"
        )));
    }
    let out = sponge.hash(&x, key, outputs).map_err(other)?;
    write(py, &out, &[out.len()])
}

/// Registers `zkaccel.mimc`.
pub fn register_mimc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(mimc_hash, m)?)?;
    m.add_function(wrap_pyfunction!(mimc_hash_many, m)?)?;
    m.add_function(wrap_pyfunction!(sponge_hash, m)?)?;
    Ok(())
}
