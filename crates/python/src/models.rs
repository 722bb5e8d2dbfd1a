//! `zkaccel.models`: every accelerator model's report as a dict (the CLI's `--json`).

use std::io::Cursor;
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use zkaccel_hwmodel::acclmt::Acclmt;
use zkaccel_hwmodel::amaze::{AmazeConfig, AmazeTable, Design};
use zkaccel_hwmodel::ntt_fpga::sweep::NttFpga;
use zkaccel_hwmodel::ntt_fpga::{
    CoreKind, CoreRun, NttCoreConfig, NttTables, PAPER_CLOCK_MHZ, PAPER_MUL_LATENCY,
    TABLE_III_POINTS,
};
use zkaccel_hwmodel::sweep::MAX_SWEEP_POINTS;
use zkaccel_hwmodel::unizk::{workloads, Mode, Unizk, UnizkConfig};
use zkaccel_hwmodel::SweepModel;
use zkaccel_kernel_trace::{read_jsonl, validate, CircuitShape, KernelRecord};

use crate::errors::{invalid, other, plot};

/// A serialisable value as Python objects (through `json.loads`).
fn to_python<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value).map_err(other)?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// The AMAZE model: for a design (`AMZ-1` … `AMZ-3`) its configuration, the model's report
/// and the paper's figures; without one, a list over every design; or the report of a
/// configuration given as a dict (the JSON `zkaccel model amaze run --config` reads).
#[pyfunction]
#[pyo3(signature = (design = None, *, config = None))]
fn amaze(
    py: Python<'_>,
    design: Option<&str>,
    config: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let table = if let Some(c) = config {
        let text: String = py.import("json")?.call_method1("dumps", (c,))?.extract()?;
        AmazeTable::config(AmazeConfig::from_json(&text).map_err(other)?)
    } else if let Some(name) = design {
        AmazeTable::design(name.parse::<Design>().map_err(other)?)
    } else {
        AmazeTable::all()
    };
    to_python(py, &table.map_err(other)?)
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

/// The NTT core configuration the keyword arguments describe, validated.
fn ntt_config(
    width_bits: u32,
    log_points: u32,
    pipelines: u32,
    mul_latency: u32,
    core: &str,
    clock_mhz: f64,
) -> PyResult<NttCoreConfig> {
    let config = NttCoreConfig {
        width_bits,
        log_points,
        pipelines,
        mul_latency,
        kind: core_kind(core)?,
        clock_mhz,
    };
    config.validate().map_err(other)?;
    Ok(config)
}

// The signatures spell the paper's defaults out (so Python's signature shows them); they are
// the model's constants.
const _: () =
    assert!(PAPER_MUL_LATENCY == 5 && TABLE_III_POINTS == 4096 && PAPER_CLOCK_MHZ == 68.0);

/// The FPGA NTT core's cycle model for one configuration: its cycles and time for `points`
/// points (the paper's Table III configurations: `log_points` 8 or 4 rounds, 1–4 pipelines).
#[pyfunction]
#[pyo3(signature = (log_points, *, pipelines = 1, mul_latency = 5, width = 256, points = 4096, core = "ours", clock_mhz = 68.0))]
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
    let config = ntt_config(width, log_points, pipelines, mul_latency, core, clock_mhz)?;
    to_python(py, &CoreRun::new(config, points).map_err(other)?)
}

/// The FPGA NTT model's Tables III, V and VII (U50 column) beside the paper's, at the wide
/// multiplier's latency `mul_latency` and `clock_mhz` (`zkaccel model ntt-fpga tables --json`).
#[pyfunction]
#[pyo3(signature = (*, mul_latency = 5, clock_mhz = 68.0))]
fn ntt_fpga_tables(py: Python<'_>, mul_latency: u32, clock_mhz: f64) -> PyResult<Py<PyAny>> {
    to_python(py, &NttTables::new(mul_latency, clock_mhz).map_err(other)?)
}

fn records_of(trace: &str) -> PyResult<Vec<KernelRecord>> {
    let records = read_jsonl(Cursor::new(trace.as_bytes())).map_err(other)?;
    validate(&records).map_err(other)?;
    Ok(records)
}

/// The FPGA NTT model's replay of a kernel trace's wide-field NTT records (JSON Lines text).
#[pyfunction]
#[pyo3(signature = (trace, *, core = "ours", clock_mhz = 68.0))]
fn ntt_fpga_trace(py: Python<'_>, trace: &str, core: &str, clock_mhz: f64) -> PyResult<Py<PyAny>> {
    let records = records_of(trace)?;
    let report = zkaccel_hwmodel::ntt_fpga::trace::replay(&records, core_kind(core)?, clock_mhz)
        .map_err(other)?;
    to_python(py, &report)
}

/// The UniZK configuration (`mode` and `knobs`) and the validated records of exactly one of a
/// trace, a shape or a built-in workload.
fn unizk_inputs(
    trace: Option<&str>,
    shape: Option<&str>,
    workload: Option<&str>,
    mode: &str,
    knobs: Option<&Bound<'_, PyDict>>,
) -> PyResult<(UnizkConfig, Vec<KernelRecord>)> {
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
        (None, None, Some(w)) => workloads::kernels(w).map_err(other)?,
        _ => return Err(invalid("give exactly one of trace=, shape=, workload=")),
    };
    Ok((config, records))
}

/// The UniZK accelerator model's replay of a kernel trace (JSON Lines text, e.g. from
/// `zkaccel.stark.prove_with_trace`), of a plonky2 circuit shape (JSON text) or of a built-in
/// workload (`fibonacci`, `factorial`, `mvm`, `ecdsa`, `sha256`, `image-crop`), in `mode` (`paper`, `unizk-sim`) with knobs
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
    let (config, records) = unizk_inputs(trace, shape, workload, mode, knobs.as_ref())?;
    let report = py.detach(|| config.replay(&records)).map_err(other)?;
    to_python(py, &report)
}

/// A design-space sweep of the UniZK model (`zkaccel model unizk sweep`): the workload
/// replayed once per value of `knob` (at most 64), the rest of the configuration as `mode` and
/// `knobs` set it; each point's milliseconds and speedup over that base, per class
/// (NTT, polynomial, hash, layout, total). `write_sweep` writes its CSV and plots.
#[pyfunction]
#[pyo3(signature = (knob, values, *, trace = None, shape = None, workload = None, mode = "paper", knobs = None))]
#[allow(clippy::too_many_arguments)]
fn unizk_sweep(
    py: Python<'_>,
    knob: &str,
    values: Vec<Bound<'_, PyAny>>,
    trace: Option<&str>,
    shape: Option<&str>,
    workload: Option<&str>,
    mode: &str,
    knobs: Option<Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let values = value_strings(knob, &values)?;
    let (config, records) = unizk_inputs(trace, shape, workload, mode, knobs.as_ref())?;
    let sweep = py
        .detach(|| config.sweep(&records, knob, &values))
        .map_err(other)?;
    to_python(py, &sweep)
}

/// A sweep's values as the knobs take them (`str()` of each), at most [`MAX_SWEEP_POINTS`].
fn value_strings(knob: &str, values: &[Bound<'_, PyAny>]) -> PyResult<Vec<String>> {
    if values.is_empty() || values.len() > MAX_SWEEP_POINTS {
        return Err(invalid(format!(
            "{knob}: 1 to {MAX_SWEEP_POINTS} values, got {}",
            values.len()
        )));
    }
    values.iter().map(|v| Ok(v.str()?.to_string())).collect()
}

/// A design-space sweep of the FPGA NTT core's model (`zkaccel model ntt-fpga sweep --param`):
/// `knob` (log_points, pipelines, mul_latency, width, clock_mhz, points, core) over `values`,
/// the rest as the other arguments set it; each point's cycles, time, wide multipliers, speedup
/// and multipliers × time over that base. `write_sweep` writes its CSV and plots.
#[pyfunction]
#[pyo3(signature = (knob, values, *, log_points = 8, pipelines = 1, mul_latency = 5, width = 256, points = 4096, core = "ours", clock_mhz = 68.0))]
#[allow(clippy::too_many_arguments)]
fn ntt_fpga_sweep(
    py: Python<'_>,
    knob: &str,
    values: Vec<Bound<'_, PyAny>>,
    log_points: u32,
    pipelines: u32,
    mul_latency: u32,
    width: u32,
    points: u64,
    core: &str,
    clock_mhz: f64,
) -> PyResult<Py<PyAny>> {
    let values = value_strings(knob, &values)?;
    let config = ntt_config(width, log_points, pipelines, mul_latency, core, clock_mhz)?;
    let sweep = config.sweep(points, knob, &values).map_err(other)?;
    to_python(py, &sweep)
}

/// Writes a sweep (the dict `unizk_sweep` or `ntt_fpga_sweep` returned, or points of several
/// such dicts of one knob gathered in order) into `out` as the CLI does: `sweep-<knob>.csv`,
/// `.svg` and `.png` for `model="unizk"`, `ntt-sweep-<knob>.*` for `model="ntt-fpga"`,
/// `acclmt-sweep-<knob>.*` for `model="acclmt"`, each file atomically. `font` is a TrueType file (default: DejaVu, Liberation or Lato from the
/// system). Returns the paths as `{"csv": …, "svg": …, "png": …}`.
#[pyfunction]
#[pyo3(signature = (sweep, out, *, model, font = None))]
fn write_sweep(
    py: Python<'_>,
    sweep: Bound<'_, PyAny>,
    out: PathBuf,
    model: &str,
    font: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (sweep,))?
        .extract()?;
    let font = zkaccel_plot::load_font(font.as_deref()).map_err(plot)?;
    /// The sweep of model `M` the JSON describes, written into `out`.
    fn write<M: SweepModel>(
        py: Python<'_>,
        text: &str,
        out: &std::path::Path,
        font: &zkaccel_plot::PlotFont,
    ) -> PyResult<zkaccel_plot::SweepFiles> {
        let sweep: zkaccel_hwmodel::Sweep<M> = serde_json::from_str(text)
            .map_err(|e| invalid(format!("not a {} sweep: {e}", M::LABEL)))?;
        py.detach(|| zkaccel_plot::write_sweep(&sweep, out, font))
            .map_err(plot)
    }
    let files = match model {
        "unizk" => write::<Unizk>(py, &text, &out, &font)?,
        "ntt-fpga" => write::<NttFpga>(py, &text, &out, &font)?,
        "acclmt" => write::<Acclmt>(py, &text, &out, &font)?,
        other => {
            return Err(invalid(format!(
                "model {other:?}: sweeps are written for unizk, ntt-fpga and acclmt"
            )))
        }
    };

    let paths = |p: &std::path::Path| p.to_string_lossy().into_owned();
    to_python(
        py,
        &serde_json::json!({
            "csv": paths(&files.csv),
            "svg": paths(&files.svg),
            "png": paths(&files.png),
        }),
    )
}

/// The AcclMT controller configuration a dict describes (the CLI's JSON `controller`: missing
/// fields take the paper's defaults, unknown ones are errors), validated.
fn acclmt_config(
    py: Python<'_>,
    config: Option<Bound<'_, PyAny>>,
) -> PyResult<zkaccel_hwmodel::acclmt::ControllerConfig> {
    let config = match config {
        Some(c) => {
            let text: String = py.import("json")?.call_method1("dumps", (c,))?.extract()?;
            serde_json::from_str(&text)
                .map_err(|e| invalid(format!("not an AcclMT controller configuration: {e}")))?
        }
        None => zkaccel_hwmodel::acclmt::ControllerConfig::default(),
    };
    config.validate().map_err(other)?;
    Ok(config)
}

/// The Poseidon instance a dict describes (`{"width": 5, "alpha": 5, "full_rounds": 8,
/// "partial_rounds": 56}`), or FileCoin's for `arity`.
fn acclmt_shape(
    py: Python<'_>,
    shape: Option<Bound<'_, PyAny>>,
    arity: u32,
) -> PyResult<zkaccel_hwmodel::acclmt::PoseidonShape> {
    use zkaccel_hwmodel::acclmt::PoseidonShape;
    let shape = match shape {
        Some(s) => {
            let text: String = py.import("json")?.call_method1("dumps", (s,))?.extract()?;
            serde_json::from_str::<PoseidonShape>(&text)
                .map_err(|e| invalid(format!("not a Poseidon shape: {e}")))?
        }
        None => PoseidonShape::filecoin(arity).map_err(other)?,
    };
    shape.validate().map_err(other)?;
    Ok(shape)
}

/// The AcclMT models (the CLI's `zkaccel model acclmt tables --json`, key for key):
/// - with `leaves`, one tree of FileCoin's Poseidon for `arity` (2, 4, 8 or 11; wider than 2
///   is beyond the paper) built on the Merkle controller (cycles, ms, each engine's
///   utilisation, the buffers' geometry for the arity); with `cycle_exact`, on the RTL
///   controller's cycle-exact model instead (`--leaves N --cycle-exact`: its cycles are the
///   RTL's);
/// - with `hashes`, that many states streamed through the engine (`--hashes N`, the RTL
///   bench's run: cycles and cycles per hash);
/// - with neither, Tables I and II beside the paper's, the time losses and the mean
///   utilisation.
///
/// `config` is a dict of the controller's fields (`{"merger": False, "engine": {"batch": 16,
/// "baseline": True}}`); `shape` a Poseidon instance (`{"width": 3, "alpha": 5,
/// "full_rounds": 8, "partial_rounds": 56}`) in place of FileCoin's for `arity`.
#[pyfunction]
#[pyo3(signature = (leaves = None, *, hashes = None, arity = 2, shape = None, config = None, cycle_exact = false))]
#[allow(clippy::too_many_arguments)]
fn acclmt(
    py: Python<'_>,
    leaves: Option<u64>,
    hashes: Option<u64>,
    arity: u32,
    shape: Option<Bound<'_, PyAny>>,
    config: Option<Bound<'_, PyAny>>,
    cycle_exact: bool,
) -> PyResult<Py<PyAny>> {
    use zkaccel_hwmodel::acclmt::{AcclmtTables, EngineStream, RtlTreeBuild, TreeBuild};
    let c = acclmt_config(py, config)?;
    let given_shape = shape.is_some();
    let shape = acclmt_shape(py, shape, arity)?;
    match (leaves, hashes, cycle_exact) {
        (Some(_), Some(_), _) => Err(invalid("give leaves (one tree) or hashes, not both")),
        (None, _, true) => Err(invalid("cycle_exact needs leaves (one tree)")),
        (Some(leaves), None, true) => {
            let build = py
                .detach(|| RtlTreeBuild::new(&c, shape, leaves, None))
                .map_err(other)?;
            to_python(py, &build)
        }
        (Some(leaves), None, false) => {
            let build = py
                .detach(|| TreeBuild::new(c, shape, leaves))
                .map_err(other)?;
            to_python(py, &build)
        }
        (None, Some(hashes), _) => {
            let stream = py
                .detach(|| EngineStream::new(c.engine, shape, hashes))
                .map_err(other)?;
            to_python(py, &stream)
        }
        (None, None, false) => {
            if arity != 2 || given_shape {
                return Err(invalid(format!(
                    "arity {arity} without leaves: Tables I and II are the paper's (pass leaves for one tree)"
                )));
            }
            let tables = py.detach(|| AcclmtTables::new(c)).map_err(other)?;
            to_python(py, &tables)
        }
    }
}

/// The AcclMT controller on a tree of `leaves` leaves once per value of `knob` (batch,
/// mul_latency, slot_gap, handover_gap, clock_mhz, bandwidth_gbps, subtree_leaves,
/// scratch_pad_nodes, level0_subtrees, merger, leaves), the rest as `config`; each point's
/// build and speedup over the base. `write_sweep(..., model="acclmt")` writes its files.
#[pyfunction]
#[pyo3(signature = (knob, values, *, leaves = 16384, config = None))]
fn acclmt_sweep(
    py: Python<'_>,
    knob: &str,
    values: Vec<Bound<'_, PyAny>>,
    leaves: u64,
    config: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let values = value_strings(knob, &values)?;
    let c = acclmt_config(py, config)?;
    let sweep = py
        .detach(|| c.sweep(leaves, knob, &values))
        .map_err(other)?;
    to_python(py, &sweep)
}

/// The AcclMT controller's replay of a kernel trace's Merkle records over 256-bit
/// fields (JSON Lines text); the rest listed as not modelled.
#[pyfunction]
#[pyo3(signature = (trace, *, config = None))]
fn acclmt_trace(
    py: Python<'_>,
    trace: &str,
    config: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let records = records_of(trace)?;
    let c = acclmt_config(py, config)?;
    let report = py
        .detach(|| zkaccel_hwmodel::acclmt::trace::replay(&records, &c))
        .map_err(other)?;
    to_python(py, &report)
}

/// Registers `zkaccel.models`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(amaze, m)?)?;
    m.add_function(wrap_pyfunction!(ntt_fpga, m)?)?;
    m.add_function(wrap_pyfunction!(ntt_fpga_tables, m)?)?;
    m.add_function(wrap_pyfunction!(ntt_fpga_trace, m)?)?;
    m.add_function(wrap_pyfunction!(unizk, m)?)?;
    m.add_function(wrap_pyfunction!(unizk_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(ntt_fpga_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(write_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(acclmt, m)?)?;
    m.add_function(wrap_pyfunction!(acclmt_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(acclmt_trace, m)?)?;
    Ok(())
}
