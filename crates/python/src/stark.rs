//! `zkaccel.stark`: proofs of the shipped AIRs, byte-identical to the CLI's files.

use num_bigint::{BigInt, BigUint};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::{write_jsonl, Tracer};
use zkaccel_plonky2::shipped::{config_with, preset, ConfigOverrides, MAX_PROOF_BYTES};
use zkaccel_plonky2::Plonky2Encoding as _;
use zkaccel_plonky2::{ShippedAir, Statement};
use zkaccel_stark::{
    ConfigRequirement, StarkConfig, VerifierPolicy, VerifyMode, DEFAULT_MIN_SECURITY_BITS,
};

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

/// The configuration overrides a call names.
type Overrides = ConfigOverrides;

fn config(name: &str, o: &Overrides) -> PyResult<StarkConfig> {
    config_with(name, o).map_err(stark_err)
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
/// with `encoding="plonky2"`. Parameters that conjecture less than the security target
/// (`security_bits`, default the preset's 100) are refused: lower the target to prove a weaker
/// proof on purpose.
#[pyfunction]
#[pyo3(signature = (air, log_rows, *, inputs = None, config = "standard-fast", rate_bits = None, cap_height = None, pow_bits = None, queries = None, encoding = "zkaccel", security_bits = None))]
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
    security_bits: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let o = Overrides {
        security_bits,
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
#[pyo3(signature = (air, log_rows, *, inputs = None, config = "standard-fast", rate_bits = None, cap_height = None, pow_bits = None, queries = None, encoding = "zkaccel", security_bits = None))]
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
    security_bits: Option<usize>,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let o = Overrides {
        security_bits,
        rate_bits,
        cap_height,
        pow_bits,
        queries,
    };
    let (file, trace) = prove_impl(py, air, log_rows, inputs, config, o, encoding, true)?;
    Ok((PyBytes::new(py, &file), trace.unwrap_or_default()))
}

// The signature spells the default policy out (so Python's signature shows it).
const _: () = assert!(DEFAULT_MIN_SECURITY_BITS == 100);

/// Verifies a proof file (from `prove` or `zkaccel prove`): returns its public inputs, or
/// raises `VerificationError` when it does not verify, is not of the expected `air`,
/// `log_rows`, `inputs`, conjectures less than `min_security_bits` of security (default 100),
/// or was made under another configuration than one named (`config`, `security_bits` and the
/// overrides, each compared when given), and `InvalidInputError` for a file that is not a proof
/// at all. A bare proof (`encoding="plonky2"`) needs `air`, `log_rows` and the configuration it
/// was made under (default standard-fast). `starky_compatible=True` accepts what starky
/// 1.1.0's verifier accepts.
#[pyfunction]
#[pyo3(signature = (proof, *, air = None, log_rows = None, inputs = None, encoding = "zkaccel", config = None, rate_bits = None, cap_height = None, pow_bits = None, queries = None, starky_compatible = false, security_bits = None, min_security_bits = 100))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    proof: &[u8],
    air: Option<&str>,
    log_rows: Option<usize>,
    inputs: Option<Vec<BigInt>>,
    encoding: &str,
    config: Option<&str>,
    rate_bits: Option<usize>,
    cap_height: Option<usize>,
    pow_bits: Option<u32>,
    queries: Option<usize>,
    starky_compatible: bool,
    security_bits: Option<usize>,
    min_security_bits: usize,
) -> PyResult<Vec<BigUint>> {
    if proof.len() as u64 > MAX_PROOF_BYTES {
        return Err(invalid(format!(
            "{} bytes: a proof is at most {MAX_PROOF_BYTES}",
            proof.len()
        )));
    }
    let o = Overrides {
        security_bits,
        rate_bits,
        cap_height,
        pow_bits,
        queries,
    };
    let required = match config {
        Some(name) => ConfigRequirement::exactly(&o.apply(preset(name).map_err(stark_err)?)),
        None => o.requirement(),
    };
    let policy = VerifierPolicy {
        min_security_bits,
        required,
    };
    let expected_air = air.map(self::air).transpose()?;
    let (statement, start) = match encoding {
        "zkaccel" => Statement::decode_header(proof).map_err(stark_err)?,
        "plonky2" => {
            let s = Statement {
                air: expected_air.ok_or_else(|| invalid("encoding=\"plonky2\" needs air="))?,
                log_rows: log_rows
                    .ok_or_else(|| invalid("encoding=\"plonky2\" needs log_rows="))?,
                config: self::config(config.unwrap_or("standard-fast"), &o)?,
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
    if let Some(want) = &expected {
        let takes = statement.air.public_input_count();
        if want.len() != takes {
            return Err(invalid(format!(
                "inputs: {} values, but a {} proof has {takes} public inputs",
                want.len(),
                statement.air.name()
            )));
        }
    }
    let verdict = |e: zkaccel_stark::StarkError| {
        // Everything past the header is the verifier's verdict.
        crate::errors::error(crate::errors::Kind::Verification, e.to_string())
    };
    statement
        .check(expected_air, log_rows, &policy)
        .map_err(verdict)?;
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
                &policy,
            )
        })
        .map_err(verdict)?;
    Ok(pis.iter().map(int_of_element).collect())
}

/// Registers `zkaccel.stark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(prove_with_trace, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    Ok(())
}
