//! `zkaccel model <paper> <action>`: the papers' accelerator models, one subcommand per paper
//! and per action — `tables` (the paper's tables beside the model's), `run` (one
//! configuration), `replay` (a kernel trace) and `sweep` (a knob over values, written as CSV,
//! SVG and PNG). Every report is hwmodel's type, printed as text or with `--json` as the
//! Python call's dict. The spellings before the actions (`zkaccel model acclmt --leaves N`)
//! still work for one release, with a note on stderr (`model_legacy`).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};
use zkaccel_hwmodel::acclmt::{
    self, AcclmtTables, ControllerConfig, EngineConfig, EngineStream, PoseidonShape, RtlTreeBuild,
    TreeBuild,
};
use zkaccel_hwmodel::amaze::{AmazeConfig, AmazeTable, Design};
use zkaccel_hwmodel::ntt_fpga::{
    self, CoreKind, CoreRun, NttCoreConfig, NttTables, PAPER_CLOCK_MHZ, PAPER_MUL_LATENCY,
    TABLE_III_POINTS,
};
use zkaccel_hwmodel::sweep::parse_param;
use zkaccel_hwmodel::unizk::{workloads, Mode, UnizkConfig};
use zkaccel_hwmodel::{Sweep, SweepModel};
use zkaccel_kernel_trace::{read_jsonl, validate, CircuitShape, KernelRecord};

use crate::model_legacy::{self, Hidden};

type CliResult = Result<(), Box<dyn std::error::Error>>;

#[derive(Subcommand)]
pub enum ModelCommand {
    /// AMAZE MiMC designs: cycles, amortised latency and throughput at the paper's clocks
    /// (`tables`: Table 1; `run`: a configuration of your own).
    Amaze(AmazeCommand),
    /// UniZK: a kernel trace, a plonky2 shape or a built-in workload on the unified systolic
    /// accelerator (`replay`), or a knob swept over values (`sweep`, Figure 10).
    Unizk(Box<UnizkCommand>),
    /// FPGA NTT core (hw/ntt): Tables III, V and VII beside the paper's (`tables`), one
    /// configuration's cycles (`run`), a trace's NTTs (`replay`) or a knob swept (`sweep`).
    NttFpga(Box<NttFpgaCommand>),
    /// AcclMT's Poseidon engine and Merkle controller (hw/acclmt): Tables I and II beside the
    /// paper's (`tables`), one stream or tree (`run`), a trace's trees (`replay`) or a knob
    /// swept (`sweep`).
    Acclmt(Box<AcclmtCommand>),
}

/// Runs a `model` subcommand.
pub fn run(cmd: &ModelCommand) -> CliResult {
    match cmd {
        ModelCommand::Amaze(c) => match &c.action {
            Some(action) => run_amaze(action),
            None => run_amaze(&model_legacy::amaze(&c.legacy.0)),
        },
        ModelCommand::Unizk(c) => match &c.action {
            Some(UnizkAction::Replay(args)) => run_unizk(args),
            Some(UnizkAction::Sweep(args)) => run_unizk_sweep(args),
            None => {
                model_legacy::note_if_given(&c.legacy.0, "unizk", "replay");
                run_unizk(&c.legacy.0)
            }
        },
        ModelCommand::NttFpga(c) => match &c.action {
            Some(action) => run_ntt_fpga(action),
            None => run_ntt_fpga(&model_legacy::ntt_fpga(&c.legacy.0)?),
        },
        ModelCommand::Acclmt(c) => match &c.action {
            Some(action) => run_acclmt(action),
            None => run_acclmt(&model_legacy::acclmt(&c.legacy.0)?),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Arguments every model shares.

/// How a report is printed.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct Format {
    /// Print JSON (the Python call's dict).
    #[arg(long)]
    pub json: bool,
}

/// A sweep's knobs and where its files go.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct SweepOutput {
    /// A knob and its values, e.g. `pipelines=1,2,4,8`; repeat for several knobs (each writes
    /// its own `<stem>-<knob>.csv`, `.svg` and `.png`).
    #[arg(long = "param", value_name = "KNOB=V1,V2,…", required = true)]
    pub params: Vec<String>,
    /// The directory the CSV and plots are written to (created if missing).
    #[arg(long, alias = "out")]
    pub output: PathBuf,
    /// A TrueType font for the plots' text (default: DejaVu Sans, Liberation Sans or Lato
    /// where the system has them).
    #[arg(long)]
    pub font: Option<PathBuf>,
    /// Print each sweep as one line of JSON instead of its table.
    #[arg(long)]
    pub json: bool,
}

/// A size on the command line: `16384`, `2^14` or `1<<14`.
pub fn size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let power = |base: &str, exp: &str| -> Option<u64> {
        let base: u64 = base.trim().parse().ok()?;
        let exp: u32 = exp.trim().parse().ok()?;
        base.checked_pow(exp)
    };
    let value = if let Some((base, exp)) = text.split_once('^') {
        power(base, exp)
    } else if let Some((one, shift)) = text.split_once("<<") {
        let one: u64 = one.trim().parse().ok().filter(|&v| v == 1).unwrap_or(0);
        let shift: u32 = shift.trim().parse().unwrap_or(64);
        (one == 1 && shift < 64).then(|| 1u64 << shift)
    } else {
        text.parse().ok()
    };
    value.ok_or_else(|| format!("{text:.40}: a size is an integer, 2^k or 1<<k, below 2^64"))
}

/// A command-line real number, finite and within `lo ..= hi` (an absurd value such as `1e308`,
/// `inf` or `nan` is refused, not carried into the model and printed back as 300 digits).
pub fn real_in(lo: f64, hi: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    move |text: &str| {
        let v: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:.40?} is not a number"))?;
        if v.is_finite() && (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(format!("{text:.40}: expected {lo} to {hi}"))
        }
    }
}

/// Prints a model's report: its JSON (pretty) with `json`, its text otherwise.
fn print_report<R: serde::Serialize + std::fmt::Display>(report: &R, json: bool) -> CliResult {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}

/// Reads a file of at most `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64) -> Result<String, Box<dyn std::error::Error>> {
    use std::io::Read;
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    file.take(limit + 1).read_to_string(&mut text)?;
    if text.len() as u64 > limit {
        return Err(format!("{}: longer than {limit} bytes", path.display()).into());
    }
    Ok(text)
}

/// A kernel trace's records, validated.
fn trace_records(path: &Path) -> Result<Vec<KernelRecord>, Box<dyn std::error::Error>> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let records = read_jsonl(BufReader::new(file))?;
    validate(&records)?;
    Ok(records)
}

/// Each sweep of a run names its files after its knob: a knob swept twice would overwrite the
/// first sweep's files, so it is refused before any file is written.
fn distinct_knobs<'a>(knobs: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for knob in knobs {
        if !seen.insert(knob) {
            return Err(format!(
                "--param {knob} is given twice: its files would overwrite each other; sweep \
                 all its values in one --param"
            ));
        }
    }
    Ok(())
}

/// Runs every `--param` on `one` (all of them before any file is written), then writes each
/// sweep's files and prints it.
fn run_sweeps<M: SweepModel>(
    output: &SweepOutput,
    one: impl Fn(&str, &[String]) -> Result<Sweep<M>, zkaccel_hwmodel::ModelError>,
) -> CliResult
where
    Sweep<M>: std::fmt::Display,
{
    let sweeps = output
        .params
        .iter()
        .map(|p| -> Result<_, Box<dyn std::error::Error>> {
            let (knob, values) = parse_param(p)?;
            Ok(one(&knob, &values)?)
        })
        .collect::<Result<Vec<_>, _>>()?;
    distinct_knobs(sweeps.iter().map(|s| s.knob.as_str()))?;
    let font = zkaccel_plot::load_font(output.font.as_deref())?;
    for sweep in &sweeps {
        let files = zkaccel_plot::write_sweep(sweep, &output.output, &font)?;
        if output.json {
            println!("{}", serde_json::to_string(sweep)?);
            continue;
        }
        print!("{sweep}");
        println!(
            "  wrote {}, {}, {}",
            files.csv.display(),
            files.svg.display(),
            files.png.display()
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// AMAZE.

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct AmazeCommand {
    #[command(subcommand)]
    action: Option<AmazeAction>,
    #[command(flatten)]
    legacy: Hidden<model_legacy::AmazeArgs>,
}

#[derive(Subcommand, Clone, Debug, PartialEq)]
pub enum AmazeAction {
    /// Table 1: every design (or one) beside the paper's row.
    Tables {
        /// One design of Table 1; default: all of them.
        #[arg(long, value_parser = design_names())]
        design: Option<String>,
        #[command(flatten)]
        format: Format,
    },
    /// One configuration of your own: a JSON file of every field of the model's AmazeConfig
    /// (`zkaccel model amaze tables --design AMZ-1 --json` prints one to start from).
    Run {
        /// The configuration (JSON, at most 1 MiB).
        #[arg(long)]
        config: PathBuf,
        #[command(flatten)]
        format: Format,
    },
}

fn design_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(Design::ALL.map(Design::name))
}

fn run_amaze(action: &AmazeAction) -> CliResult {
    match action {
        AmazeAction::Tables { design, format } => {
            let table = match design {
                Some(name) => AmazeTable::design(name.parse::<Design>()?)?,
                None => AmazeTable::all()?,
            };
            print_report(&table, format.json)
        }
        AmazeAction::Run { config, format } => {
            let config = AmazeConfig::from_json(&read_bounded(config, 1 << 20)?)?;
            print_report(&AmazeTable::config(config)?, format.json)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// UniZK.

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct UnizkCommand {
    #[command(subcommand)]
    action: Option<UnizkAction>,
    #[command(flatten)]
    legacy: Hidden<UnizkReplayArgs>,
}

#[derive(Subcommand)]
pub enum UnizkAction {
    /// Replay a kernel trace, a plonky2 shape or a built-in workload: per class time, bytes,
    /// memory and VSA utilisation beside the CPU's time.
    Replay(UnizkReplayArgs),
    /// Design-space sweep (Figure 10): each `--param knob=v1,v2,…` replayed at every value;
    /// writes `sweep-<knob>.csv`, `.svg` and `.png` (speedup per class over the base).
    Sweep(UnizkSweepArgs),
}

/// The UniZK accelerator a replay or a sweep runs on.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct UnizkConfigArgs {
    /// `paper` (the hardware as published) or `unizk-sim` (the public simulator's artefacts).
    #[arg(long, value_enum, default_value_t = UnizkMode::Paper)]
    mode: UnizkMode,
    /// Override one knob, e.g. `--set vsas=64 --set spm_mb=16 --set bw_tbps=0.5`.
    #[arg(long = "set", value_name = "KNOB=VALUE")]
    set: Vec<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnizkMode {
    /// The hardware as published.
    Paper,
    /// The public simulator's artefacts.
    UnizkSim,
}

/// What a UniZK replay or sweep runs: exactly one of a trace, a shape or a workload.
#[derive(Args, Clone, Debug, PartialEq)]
#[group(required = true, multiple = false)]
pub struct UnizkSource {
    /// A kernel trace (JSON Lines) written by `zkaccel prove --trace`.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// A plonky2 circuit's shape (JSON, `peers/examples/plonky2_shapes`), expanded to the
    /// kernels of plonky2's `prove()`.
    #[arg(long)]
    shape: Option<PathBuf>,
    /// A built-in plonky2 workload of UniZK's Table 3.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(workloads::WORKLOADS))]
    workload: Option<String>,
}

#[derive(Args, Clone, Debug, PartialEq)]
pub struct UnizkReplayArgs {
    #[command(flatten)]
    pub source: UnizkSource,
    #[command(flatten)]
    pub config: UnizkConfigArgs,
    /// Print JSON (configuration, per class, per kernel).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct UnizkSweepArgs {
    #[command(flatten)]
    source: UnizkSource,
    #[command(flatten)]
    config: UnizkConfigArgs,
    #[command(flatten)]
    output: SweepOutput,
}

/// The configuration and the validated trace a replay or a sweep runs on.
fn unizk_inputs(
    source: &UnizkSource,
    args: &UnizkConfigArgs,
) -> Result<(UnizkConfig, Vec<KernelRecord>), Box<dyn std::error::Error>> {
    let mode = match args.mode {
        UnizkMode::Paper => Mode::Paper,
        UnizkMode::UnizkSim => Mode::UnizkSim,
    };
    let mut config = UnizkConfig::preset(mode);
    for knob in &args.set {
        config.set(knob)?;
    }
    let records = if let Some(path) = &source.trace {
        return Ok((config, trace_records(path)?));
    } else if let Some(path) = &source.shape {
        CircuitShape::from_json(&read_bounded(path, 1 << 20)?)?.kernels()?
    } else if let Some(name) = &source.workload {
        workloads::kernels(name)?
    } else {
        return Err("one of --trace FILE, --shape FILE or --workload NAME is required".into());
    };
    validate(&records)?;
    Ok((config, records))
}

fn run_unizk(args: &UnizkReplayArgs) -> CliResult {
    let (config, records) = unizk_inputs(&args.source, &args.config)?;
    print_report(&config.replay(&records)?, args.json)
}

fn run_unizk_sweep(args: &UnizkSweepArgs) -> CliResult {
    let (config, records) = unizk_inputs(&args.source, &args.config)?;
    run_sweeps(&args.output, |knob, values| {
        config.sweep(&records, knob, values)
    })
}

// ---------------------------------------------------------------------------------------------
// The FPGA NTT core.

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct NttFpgaCommand {
    #[command(subcommand)]
    action: Option<NttFpgaAction>,
    #[command(flatten)]
    legacy: Hidden<model_legacy::NttFpgaArgs>,
}

#[derive(Subcommand, Clone, Debug, PartialEq)]
pub enum NttFpgaAction {
    /// Tables III (the core on 4096 points, with the PipeZK replica), V (end to end) and VII
    /// (the U50 column) from the model beside the paper's.
    Tables {
        /// Latency of the wide multiplier in cycles (the butterfly interval is 3·(L + 1) + 1).
        #[arg(long, default_value_t = PAPER_MUL_LATENCY)]
        mul_latency: u32,
        /// Clock in MHz (0.001 to 100000).
        #[arg(long, default_value_t = PAPER_CLOCK_MHZ, value_parser = real_in(1e-3, 1e5))]
        clock_mhz: f64,
        #[command(flatten)]
        format: Format,
    },
    /// One configuration's cycles and time on one task.
    Run {
        #[command(flatten)]
        core: NttCoreArgs,
        #[command(flatten)]
        format: Format,
    },
    /// Replay the `ntt` records of a kernel trace (JSON Lines, `zkaccel ntt --trace` or any
    /// producer) over 256- and 384-bit fields on the end-to-end model; other records are
    /// listed as not modelled.
    Replay {
        /// The kernel trace.
        #[arg(long)]
        trace: PathBuf,
        /// The paper's core or the PipeZK replica (the end-to-end model's two series).
        #[arg(long, value_enum, default_value_t = ReplayCore::Ours)]
        core: ReplayCore,
        /// Clock in MHz (0.001 to 100000).
        #[arg(long, default_value_t = PAPER_CLOCK_MHZ, value_parser = real_in(1e-3, 1e5))]
        clock_mhz: f64,
        #[command(flatten)]
        format: Format,
    },
    /// Design-space sweep of the core: each `--param knob=v1,v2,…` (log_points, pipelines,
    /// mul_latency, width, clock_mhz, points, core) from the base the other flags set; writes
    /// `ntt-sweep-<knob>.csv`, `.svg` and `.png`.
    Sweep {
        #[command(flatten)]
        core: NttCoreArgs,
        #[command(flatten)]
        output: SweepOutput,
    },
}

/// The NTT cores (`--core`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NttCore {
    /// The paper's core: sub-tasks overlap in the round pipeline.
    Ours,
    /// The paper's replica of PipeZK's core: one sub-task at a time.
    Pipezk,
    /// The fully pipelined core (hw/ntt/rtl/ntt_core_pipe.sv): a butterfly per cycle per
    /// round unit.
    Pipelined,
}

impl From<NttCore> for CoreKind {
    fn from(core: NttCore) -> Self {
        match core {
            NttCore::Ours => Self::Overlapped,
            NttCore::Pipezk => Self::PipeZkReplica,
            NttCore::Pipelined => Self::FullyPipelined,
        }
    }
}

/// The cores the end-to-end model replays a trace on.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayCore {
    /// The paper's core.
    Ours,
    /// The PipeZK replica.
    Pipezk,
}

/// One configuration of the NTT core and its task.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct NttCoreArgs {
    /// m, log2 of the sub-task size (2 to 16; Table III has 8 and 4).
    #[arg(long, default_value_t = 8)]
    pub log_points: u32,
    /// Pipelines.
    #[arg(long, default_value_t = 1)]
    pub pipelines: u32,
    /// Latency of the wide multiplier in cycles (the butterfly interval is 3·(L + 1) + 1).
    #[arg(long, default_value_t = PAPER_MUL_LATENCY)]
    pub mul_latency: u32,
    /// Element width in bits.
    #[arg(long, default_value_t = 256)]
    pub width: u32,
    /// Task size in points, a multiple of 2^m (`4096`, `2^12`, `1<<12`).
    #[arg(long, default_value_t = TABLE_III_POINTS, value_parser = size)]
    pub points: u64,
    /// The core.
    #[arg(long, value_enum, default_value_t = NttCore::Ours)]
    pub core: NttCore,
    /// Clock in MHz (0.001 to 100000).
    #[arg(long, default_value_t = PAPER_CLOCK_MHZ, value_parser = real_in(1e-3, 1e5))]
    pub clock_mhz: f64,
}

impl NttCoreArgs {
    fn config(&self) -> NttCoreConfig {
        NttCoreConfig {
            width_bits: self.width,
            log_points: self.log_points,
            pipelines: self.pipelines,
            mul_latency: self.mul_latency,
            kind: self.core.into(),
            clock_mhz: self.clock_mhz,
        }
    }
}

fn run_ntt_fpga(action: &NttFpgaAction) -> CliResult {
    match action {
        NttFpgaAction::Tables {
            mul_latency,
            clock_mhz,
            format,
        } => print_report(&NttTables::new(*mul_latency, *clock_mhz)?, format.json),
        NttFpgaAction::Run { core, format } => {
            print_report(&CoreRun::new(core.config(), core.points)?, format.json)
        }
        NttFpgaAction::Replay {
            trace,
            core,
            clock_mhz,
            format,
        } => {
            let kind = match core {
                ReplayCore::Ours => CoreKind::Overlapped,
                ReplayCore::Pipezk => CoreKind::PipeZkReplica,
            };
            let report = ntt_fpga::trace::replay(&trace_records(trace)?, kind, *clock_mhz)?;
            print_report(&report, format.json)
        }
        NttFpgaAction::Sweep { core, output } => {
            let base = core.config();
            run_sweeps(output, |knob, values| base.sweep(core.points, knob, values))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// AcclMT.

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct AcclmtCommand {
    #[command(subcommand)]
    action: Option<AcclmtAction>,
    #[command(flatten)]
    legacy: Hidden<model_legacy::AcclmtArgs>,
}

#[derive(Subcommand, Clone, Debug, PartialEq)]
pub enum AcclmtAction {
    /// Table I (the engine's rate per arity) and Table II (binary trees of 2^12 … 2^23
    /// leaves on the Merkle controller) beside the paper's, with the time losses against two
    /// FR engines and the mean utilisation.
    Tables {
        #[command(flatten)]
        controller: ControllerArgs,
        #[command(flatten)]
        format: Format,
    },
    /// One run: `--hashes N` streamed through the engine (the RTL bench's run), or one tree
    /// of `--leaves N` on the Merkle controller (batch-level, or `--cycle-exact`: the RTL
    /// controller's own cycles).
    Run(Box<AcclmtRunArgs>),
    /// Replay a kernel trace's `merkle` records over 256-bit fields (`poseidon-bls12-381-3`,
    /// `poseidon-bn254-3`; neptune's arity 4 and 8, `poseidon-bls12-381-5` / `-9`) on the
    /// Merkle controller.
    Replay {
        /// The kernel trace (JSON Lines).
        #[arg(long)]
        trace: PathBuf,
        #[command(flatten)]
        controller: ControllerArgs,
        #[command(flatten)]
        format: Format,
    },
    /// Design-space sweep of the Merkle controller on one binary tree: each `--param
    /// knob=v1,v2,…` (batch, mul_latency, slot_gap, handover_gap, clock_mhz, bandwidth_gbps,
    /// subtree_leaves, scratch_pad_nodes, level0_subtrees, initial_load_ns,
    /// rhe_dispatch_cycles, merger, leaves); writes `acclmt-sweep-<knob>.csv`, `.svg`, `.png`.
    Sweep {
        /// The tree's leaves (`16384`, `2^14`, `1<<14`).
        #[arg(long, default_value = "16384", value_parser = size)]
        leaves: u64,
        #[command(flatten)]
        controller: ControllerArgs,
        #[command(flatten)]
        output: SweepOutput,
    },
}

#[derive(Args, Clone, Debug, PartialEq)]
#[command(group(clap::ArgGroup::new("workload").args(["hashes", "leaves"]).required(true)))]
pub struct AcclmtRunArgs {
    /// Stream this many hashes through the engine (`1000`, `2^10`).
    #[arg(long, value_parser = size)]
    pub hashes: Option<u64>,
    /// Build one tree of this many leaves: a power of the arity (`t − 1`).
    #[arg(long, value_parser = size)]
    pub leaves: Option<u64>,
    /// With --hashes: the two-FR-engine baseline instead of the two-batch schedule.
    #[arg(long, requires = "hashes", conflicts_with = "leaves")]
    pub baseline: bool,
    /// With --leaves: the RTL controller's cycle-exact model (every register of
    /// hw/acclmt/rtl/acclmt_tree.sv and its two engines, cycle by cycle, fed as the Verilator
    /// bench feeds it) instead of the batch-level one; its cycles are the RTL's.
    #[arg(long, requires = "leaves",
          conflicts_with_all = ["hashes", "no_merger", "initial_load_ns", "rhe_dispatch_cycles", "paper_overheads"])]
    pub cycle_exact: bool,
    /// With --cycle-exact: the bench's pace in bytes per cycle (element n is offered once
    /// (n + 1)·32 bytes have arrived), instead of --bandwidth-gbps at --clock-mhz.
    #[arg(long, requires = "cycle_exact", value_parser = real_in(1e-6, 1e6))]
    pub bytes_per_cycle: Option<f64>,
    #[command(flatten)]
    pub shape: ShapeArgs,
    #[command(flatten)]
    pub controller: ControllerArgs,
    #[command(flatten)]
    pub format: Format,
}

/// The Poseidon instance a run streams or a tree hashes.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct ShapeArgs {
    /// State width t (3 … 12): a tree's arity is t − 1, each leaf t − 1 elements (arity 4, 8,
    /// 11 are beyond the paper's binary trees).
    #[arg(long, default_value_t = 3)]
    pub width: u32,
    /// S-box exponent (3, 5 or 7).
    #[arg(long, default_value_t = 5)]
    pub alpha: u32,
    /// Full rounds.
    #[arg(long, default_value_t = 8)]
    pub full_rounds: u32,
    /// Partial rounds (FileCoin's 56 by default; neptune's arity-2 instance has 55,
    /// circomlib's 57).
    #[arg(long, default_value_t = 56)]
    pub partial_rounds: u32,
}

impl ShapeArgs {
    pub fn shape(&self) -> PoseidonShape {
        PoseidonShape {
            width: self.width,
            alpha: self.alpha,
            full_rounds: self.full_rounds,
            partial_rounds: self.partial_rounds,
        }
    }
}

fn acclmt_defaults() -> ControllerConfig {
    ControllerConfig::default()
}

/// The Merkle controller and its engines.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct ControllerArgs {
    /// The wide multiplier's pipeline stages (the Montgomery multiplier takes 3·(L + 1)).
    #[arg(long, default_value_t = 1)]
    pub mul_latency: u32,
    /// Hashes per batch (a power of two).
    #[arg(long, default_value_t = 32)]
    pub batch: u32,
    /// Idle cycles after each round of a batch.
    #[arg(long, default_value_t = 1)]
    pub slot_gap: u32,
    /// Cycles before a sub-engine starts a batch it takes from the other.
    #[arg(long, default_value_t = 9)]
    pub handover_gap: u32,
    /// Clock in MHz (0.001 to 100000).
    #[arg(long, default_value_t = 500.0, value_parser = real_in(1e-3, 1e5))]
    pub clock_mhz: f64,
    /// Off-chip bandwidth for the leaves' elements, GB/s (0.001 to 10^4; the default is
    /// fitted to Table II).
    #[arg(long, default_value_t = acclmt_defaults().bandwidth_gb_per_s,
          value_parser = real_in(1e-3, 1e4))]
    pub bandwidth_gbps: f64,
    /// Nanoseconds before the loader's first transfer (the paper's "initial data loading"; 0
    /// to 10^9).
    #[arg(long, default_value_t = acclmt_defaults().initial_load_ns,
          value_parser = real_in(0.0, 1e9))]
    pub initial_load_ns: f64,
    /// Cycles the RHE's dispatch scheduler takes per pair of batches.
    #[arg(long, default_value_t = acclmt_defaults().rhe_dispatch_cycles)]
    pub rhe_dispatch_cycles: u64,
    /// The paper's overheads in place of the slow loader: a 19.2 GB/s loader, the fitted
    /// initial load and RHE dispatch, which reproduce Table II and the paper's utilisation in
    /// one configuration (the RTL has neither overhead).
    #[arg(long, conflicts_with_all = ["bandwidth_gbps", "initial_load_ns", "rhe_dispatch_cycles"])]
    pub paper_overheads: bool,
    /// Leaves per standard subtree (the leaf hash buffer).
    #[arg(long, default_value_t = acclmt_defaults().subtree_leaves)]
    pub subtree_leaves: u64,
    /// Layers with at least this many nodes are major aggregation (the scratch pad).
    #[arg(long, default_value_t = acclmt_defaults().major_min_nodes)]
    pub scratch_pad_nodes: u64,
    /// Subtree roots per HIDM Level-0 aggregation.
    #[arg(long, default_value_t = acclmt_defaults().level0_subtrees)]
    pub level0_subtrees: u64,
    /// Entries of HIDM Level 1.
    #[arg(long, default_value_t = acclmt_defaults().level1_entries)]
    pub level1_entries: u64,
    /// The paper's pre-optimisation controller: no merger of minor aggregation.
    #[arg(long)]
    pub no_merger: bool,
}

impl ControllerArgs {
    /// The controller, validated (`baseline`: the engine's two-FR-engine baseline).
    pub fn controller(
        &self,
        baseline: bool,
    ) -> Result<ControllerConfig, Box<dyn std::error::Error>> {
        let engine = EngineConfig {
            mul_latency: self.mul_latency,
            batch: self.batch,
            slot_gap: self.slot_gap,
            handover_gap: self.handover_gap,
            baseline,
            clock_mhz: self.clock_mhz,
        };
        engine.validate()?;
        let overheads = if self.paper_overheads {
            ControllerConfig::with_paper_overheads()
        } else {
            ControllerConfig {
                bandwidth_gb_per_s: self.bandwidth_gbps,
                initial_load_ns: self.initial_load_ns,
                rhe_dispatch_cycles: self.rhe_dispatch_cycles,
                ..acclmt_defaults()
            }
        };
        let controller = ControllerConfig {
            engine,
            subtree_leaves: self.subtree_leaves,
            major_min_nodes: self.scratch_pad_nodes,
            level0_subtrees: self.level0_subtrees,
            level1_entries: self.level1_entries,
            merger: !self.no_merger,
            ..overheads
        };
        controller.validate()?;
        Ok(controller)
    }
}

fn run_acclmt(action: &AcclmtAction) -> CliResult {
    match action {
        AcclmtAction::Tables { controller, format } => print_report(
            &AcclmtTables::new(controller.controller(false)?)?,
            format.json,
        ),
        AcclmtAction::Run(run) => {
            let controller = run.controller.controller(run.baseline)?;
            let shape = run.shape.shape();
            let json = run.format.json;
            match (run.hashes, run.leaves) {
                (Some(hashes), _) => {
                    print_report(&EngineStream::new(controller.engine, shape, hashes)?, json)
                }
                (None, Some(leaves)) if run.cycle_exact => print_report(
                    &RtlTreeBuild::new(&controller, shape, leaves, run.bytes_per_cycle)?,
                    json,
                ),
                (None, Some(leaves)) => {
                    print_report(&TreeBuild::new(controller, shape, leaves)?, json)
                }
                (None, None) => Err("give --hashes N or --leaves N".into()),
            }
        }
        AcclmtAction::Replay {
            trace,
            controller,
            format,
        } => {
            let report =
                acclmt::trace::replay(&trace_records(trace)?, &controller.controller(false)?)?;
            print_report(&report, format.json)
        }
        AcclmtAction::Sweep {
            leaves,
            controller,
            output,
        } => {
            let base = controller.controller(false)?;
            run_sweeps(output, |knob, values| base.sweep(*leaves, knob, values))
        }
    }
}
