//! `zkaccel.stark`: proofs of the shipped AIRs, byte-identical to the CLI's files.

use num_bigint::{BigInt, BigUint};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::{write_jsonl, Tracer};
use zkaccel_stark::shipped::{config_with, MAX_PROOF_BYTES};
use zkaccel_stark::{ShippedAir, StarkConfig, Statement, VerifyMode};

use crate::arrays::{element_of_int, int_of_element};
use crate::errors::{invalid, stark as stark_err};

fn air(name: &str) -> PyResult<ShippedAir> {
    ShippedAir::from_name(name)
        .ok_or_else(|| invalid(format!("unknown AIR {name:?}; known: fibonacci, factorial")))
}

fn inputs(values: Option<Vec<BigInt>>) -> PyResult<Option<Vec<Goldilocks>>> {
    values
        .map(|v| {
            v.iter()
                .map(|x| element_of_int::<Goldilocks>(x, false))
                .collect()
        })
        .transpose()
}

/// The configuration preset and overrides a call names.
#[derive(FromPyObject)]
struct Overrides {
    rate_bits: Option<usize>,
    cap_height: Option<usize>,
    pow_bits: Option<u32>,
    queries: Option<usize>,
}

fn config(name: &str, o: &Overrides) -> PyResult<StarkConfig> {
    config_with(name, o.rate_bits, o.cap_height, o.pow_bits, o.queries).map_err(stark_err)
}

#[allow(clippy::too_many_arguments)]
fn prove_impl(
    py: Python<'_>,
    air_name: &str,
    log_rows: usize,
    public: Option<Vec<BigInt>>,
    config_name: &str,
    overrides: Overrides,
    encoding: &str,
    traced: bool,
) -> PyResult<(Vec<u8>, Option<String>)> {
    let air = air(air_name)?;
    let config = config(config_name, &overrides)?;
    let public = inputs(public)?;
    let plonky2 = match encoding {
        "zkaccel" => false,
        "plonky2" => true,
        _ => {
            return Err(invalid(format!(
                "unknown encoding {encoding:?}; known: zkaccel (with its statement), plonky2"
            )))
        }
    };
    let mut tracer = if traced {
        Tracer::recording()
    } else {
        Tracer::off()
    };
    let proof = py
        .detach(|| air.prove(log_rows, public.as_deref(), &config, &mut tracer))
        .map_err(stark_err)?;
    let body = proof.to_bytes().map_err(stark_err)?;
    let file = if plonky2 {
        body
    } else {
        Statement {
            air,
            log_rows,
            config,
        }
        .encode_file(&body)
    };
    let trace = if traced {
        let mut jsonl = Vec::new();
        write_jsonl(tracer.records(), &mut jsonl).map_err(crate::errors::other)?;
        Some(String::from_utf8(jsonl).map_err(crate::errors::other)?)
    } else {
        None
    };
    Ok((file, trace))
}

/// Proves the statement `air` over `2^log_rows` rows (Fibonacci: `inputs = [x0, x1]`,
/// default `[0, 1]`; Factorial: none) under the configuration preset (`standard-fast`,
/// `small-proofs`) with optional overrides. Returns the proof file's bytes (what
/// `zkaccel prove` writes): with its statement header, or the bare starky-compatible proof
/// with `encoding="plonky2"`.
#[pyfunction]
#[pyo3(signature = (air, log_rows, *, inputs = None, config = "standard-fast", rate_bits = None, cap_height = None, pow_bits = None, queries = None, encoding = "zkaccel"))]
#[allow(clippy::too_many_arguments)]
fn prove<'py>(
    py: Python<'py>,
    air: &str,
    log_rows: usize,
    inputs: Option<Vec<BigInt>>,
    config: &str,
    rate_bits: Option<usize>,
    cap_height: Option<usize>,
    pow_bits: Option<u32>,
    queries: Option<usize>,
    encoding: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let o = Overrides {
        rate_bits,
        cap_height,
        pow_bits,
        queries,
    };
    let (file, _) = prove_impl(py, air, log_rows, inputs, config, o, encoding, false)?;
    Ok(PyBytes::new(py, &file))
}

/// `prove`, also returning the proof's kernel trace (JSON Lines, `kernel-trace.md`), which
/// `zkaccel.models.unizk(trace=...)` replays.
#[pyfunction]
#[pyo3(signature = (air, log_rows, *, inputs = None, config = "standard-fast", rate_bits = None, cap_height = None, pow_bits = None, queries = None, encoding = "zkaccel"))]
#[allow(clippy::too_many_arguments)]
fn prove_with_trace<'py>(
    py: Python<'py>,
    air: &str,
    log_rows: usize,
    inputs: Option<Vec<BigInt>>,
    config: &str,
    rate_bits: Option<usize>,
    cap_height: Option<usize>,
    pow_bits: Option<u32>,
    queries: Option<usize>,
    encoding: &str,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let o = Overrides {
        rate_bits,
        cap_height,
        pow_bits,
        queries,
    };
    let (file, trace) = prove_impl(py, air, log_rows, inputs, config, o, encoding, true)?;
    Ok((PyBytes::new(py, &file), trace.unwrap_or_default()))
}

/// Verifies a proof file (from `prove` or `zkaccel prove`): returns its public inputs, or
/// raises `VerificationError` when it does not verify (or is not of the expected `air`,
/// `log_rows`, `inputs`) and `InvalidInputError` for a file that is not a proof at all. A bare
/// proof (`encoding="plonky2"`) needs `air`, `log_rows` and the configuration it was made
/// under. `starky_compatible=True` accepts what starky 1.1.0's verifier accepts.
#[pyfunction]
#[pyo3(signature = (proof, *, air = None, log_rows = None, inputs = None, encoding = "zkaccel", config = "standard-fast", rate_bits = None, cap_height = None, pow_bits = None, queries = None, starky_compatible = false))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    proof: &[u8],
    air: Option<&str>,
    log_rows: Option<usize>,
    inputs: Option<Vec<BigInt>>,
    encoding: &str,
    config: &str,
    rate_bits: Option<usize>,
    cap_height: Option<usize>,
    pow_bits: Option<u32>,
    queries: Option<usize>,
    starky_compatible: bool,
) -> PyResult<Vec<BigUint>> {
    if proof.len() as u64 > MAX_PROOF_BYTES {
        return Err(invalid(format!(
            "{} bytes: a proof is at most {MAX_PROOF_BYTES}",
            proof.len()
        )));
    }
    let expected_air = air.map(self::air).transpose()?;
    let (statement, start) = match encoding {
        "zkaccel" => {
            let (s, start) = Statement::decode_header(proof).map_err(stark_err)?;
            let rejected = |what: &str| {
                crate::errors::error(
                    crate::errors::Kind::Verification,
                    format!("the proof is of another {what} than expected"),
                )
            };
            if expected_air.is_some_and(|a| a != s.air) {
                return Err(rejected("AIR"));
            }
            if log_rows.is_some_and(|l| l != s.log_rows) {
                return Err(rejected("number of rows"));
            }
            (s, start)
        }
        "plonky2" => {
            let o = Overrides {
                rate_bits,
                cap_height,
                pow_bits,
                queries,
            };
            let s = Statement {
                air: expected_air.ok_or_else(|| invalid("encoding=\"plonky2\" needs air="))?,
                log_rows: log_rows
                    .ok_or_else(|| invalid("encoding=\"plonky2\" needs log_rows="))?,
                config: self::config(config, &o)?,
            };
            (s, 0)
        }
        _ => {
            return Err(invalid(format!(
                "unknown encoding {encoding:?}; known: zkaccel, plonky2"
            )))
        }
    };
    let expected = self::inputs(inputs)?;
    let mode = if starky_compatible {
        VerifyMode::StarkyCompatible
    } else {
        VerifyMode::Strict
    };
    let body = &proof[start..];
    let pis = py
        .detach(|| {
            statement.air.verify(
                &statement.config,
                statement.log_rows,
                body,
                expected.as_deref(),
                mode,
            )
        })
        .map_err(|e| {
            // Everything past the header is the verifier's verdict.
            crate::errors::error(crate::errors::Kind::Verification, e.to_string())
        })?;
    Ok(pis.iter().map(int_of_element).collect())
}

/// Registers `zkaccel.stark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(prove_with_trace, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    Ok(())
}
