//! `zkaccel.models`: every accelerator model's report as a dict (the CLI's `--json`).

use std::io::Cursor;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use zkaccel_hwmodel::amaze::{AmazeConfig, Design};
use zkaccel_hwmodel::ntt_fpga::{
    CoreKind, NttCoreConfig, PAPER_CLOCK_MHZ, PAPER_MUL_LATENCY, TABLE_III_POINTS,
};
use zkaccel_hwmodel::unizk::{Mode, UnizkConfig};
use zkaccel_kernel_trace::{read_jsonl, validate, CircuitShape, KernelRecord};

use crate::errors::{invalid, other};

/// UniZK's plonky2 workloads, as `peers/examples/plonky2_shapes` wrote them.
const PLONKY2_FIBONACCI: &str = include_str!("../../hwmodel/shapes/plonky2-fibonacci.json");
const PLONKY2_FACTORIAL: &str = include_str!("../../hwmodel/shapes/plonky2-factorial.json");

/// A serialisable value as Python objects (through `json.loads`).
fn to_python<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value).map_err(other)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// The AMAZE model: for a design (`AMZ-1` … `AMZ-3`) its configuration, the model's report
/// and the paper's figures; without one, a list over every design; or the report of a
/// configuration given as a dict (the JSON `zkaccel model amaze --config` reads).
#[pyfunction]
#[pyo3(signature = (design = None, *, config = None))]
fn amaze(
    py: Python<'_>,
    design: Option<&str>,
    config: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let configs: Vec<(AmazeConfig, Option<Design>)> = if let Some(c) = config {
        let text: String = py.import("json")?.call_method1("dumps", (c,))?.extract()?;
        vec![(AmazeConfig::from_json(&text).map_err(other)?, None)]
    } else if let Some(name) = design {
        let d: Design = name.parse().map_err(other)?;
        vec![(AmazeConfig::preset(d), Some(d))]
    } else {
        Design::ALL
            .into_iter()
            .map(|d| (AmazeConfig::preset(d), Some(d)))
            .collect()
    };
    let mut rows = Vec::new();
    for (config, design) in &configs {
        let report = config.report().map_err(other)?;
        rows.push(serde_json::json!({
            "config": config,
            "model": report,
            "paper": design.map(|d| d.paper()),
        }));
    }
    if rows.len() == 1 && (design.is_some() || configs[0].1.is_none()) {
        return to_python(py, &rows[0]);
    }
    to_python(py, &rows)
}

fn core_kind(name: &str) -> PyResult<CoreKind> {
    match name {
        "ours" => Ok(CoreKind::Overlapped),
        "pipezk" => Ok(CoreKind::PipeZkReplica),
        "pipelined" => Ok(CoreKind::FullyPipelined),
        _ => Err(invalid(format!(
            "unknown core {name:?}; known: ours, pipezk, pipelined"
        ))),
    }
}

/// The FPGA NTT core's cycle model for one configuration: its cycles and time for `points`
/// points (the paper's Table III configurations: `log_points` 8 or 4 rounds, 1–4 pipelines).
#[pyfunction]
#[pyo3(signature = (log_points, *, pipelines = 1, mul_latency = PAPER_MUL_LATENCY, width = 256, points = TABLE_III_POINTS, core = "ours", clock_mhz = PAPER_CLOCK_MHZ))]
#[allow(clippy::too_many_arguments)]
fn ntt_fpga(
    py: Python<'_>,
    log_points: u32,
    pipelines: u32,
    mul_latency: u32,
    width: u32,
    points: u64,
    core: &str,
    clock_mhz: f64,
) -> PyResult<Py<PyAny>> {
    let config = NttCoreConfig {
        width_bits: width,
        log_points,
        pipelines,
        mul_latency,
        kind: core_kind(core)?,
        clock_mhz,
    };
    let cycles = config.core_cycles(points).map_err(other)?;
    let ms = config.core_ms(points).map_err(other)?;
    to_python(
        py,
        &serde_json::json!({"config": config, "points": points, "cycles": cycles, "ms": ms}),
    )
}

fn records_of(trace: &str) -> PyResult<Vec<KernelRecord>> {
    let records = read_jsonl(Cursor::new(trace.as_bytes())).map_err(other)?;
    validate(&records).map_err(other)?;
    Ok(records)
}

/// The FPGA NTT model's replay of a kernel trace's wide-field NTT records (JSON Lines text).
#[pyfunction]
#[pyo3(signature = (trace, *, core = "ours", clock_mhz = PAPER_CLOCK_MHZ))]
fn ntt_fpga_trace(py: Python<'_>, trace: &str, core: &str, clock_mhz: f64) -> PyResult<Py<PyAny>> {
    let records = records_of(trace)?;
    let report = zkaccel_hwmodel::ntt_fpga::trace::replay(&records, core_kind(core)?, clock_mhz)
        .map_err(other)?;
    to_python(py, &report)
}

/// The UniZK accelerator model's replay of a kernel trace (JSON Lines text, e.g. from
/// `zkaccel.stark.prove_with_trace`), of a plonky2 circuit shape (JSON text) or of a built-in
/// workload (`fibonacci`, `factorial`), in `mode` (`paper`, `unizk-sim`) with knobs
/// (`{"vsas": 64, "spm_mb": 16, ...}`).
#[pyfunction]
#[pyo3(signature = (*, trace = None, shape = None, workload = None, mode = "paper", knobs = None))]
fn unizk(
    py: Python<'_>,
    trace: Option<&str>,
    shape: Option<&str>,
    workload: Option<&str>,
    mode: &str,
    knobs: Option<Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let mode: Mode = mode.parse().map_err(other)?;
    let mut config = UnizkConfig::preset(mode);
    if let Some(knobs) = knobs {
        for (k, v) in knobs.iter() {
            config
                .set(&format!("{}={}", k.str()?, v.str()?))
                .map_err(other)?;
        }
    }
    let records = match (trace, shape, workload) {
        (Some(t), None, None) => records_of(t)?,
        (None, Some(s), None) => {
            let r = CircuitShape::from_json(s)
                .map_err(other)?
                .kernels()
                .map_err(other)?;
            validate(&r).map_err(other)?;
            r
        }
        (None, None, Some(w)) => {
            let text = match w {
                "fibonacci" => PLONKY2_FIBONACCI,
                "factorial" => PLONKY2_FACTORIAL,
                other => {
                    return Err(invalid(format!(
                        "workload {other:?}: known fibonacci, factorial"
                    )))
                }
            };
            CircuitShape::from_json(text)
                .map_err(other)?
                .kernels()
                .map_err(other)?
        }
        _ => return Err(invalid("give exactly one of trace=, shape=, workload=")),
    };
    let report = py.detach(|| config.replay(&records)).map_err(other)?;
    to_python(py, &report)
}

/// Registers `zkaccel.models`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(amaze, m)?)?;
    m.add_function(wrap_pyfunction!(ntt_fpga, m)?)?;
    m.add_function(wrap_pyfunction!(ntt_fpga_trace, m)?)?;
    m.add_function(wrap_pyfunction!(unizk, m)?)?;
    Ok(())
}
