//! `zkaccel model amaze`: the AMAZE cycle model's report beside the paper's Table 1.
//! `zkaccel model unizk`: a kernel trace replayed on the UniZK accelerator model.
//! `zkaccel model ntt-fpga`: the FPGA NTT core's cycle model beside the paper's Table III.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use zkaccel_hwmodel::amaze::{AmazeConfig, AmazeTable, Design};
use zkaccel_hwmodel::ntt_fpga;
use zkaccel_hwmodel::ntt_fpga::{
    CoreKind, CoreRun, NttCoreConfig, NttTables, PAPER_CLOCK_MHZ, PAPER_MUL_LATENCY, TABLE_III,
    TABLE_III_POINTS,
};
use zkaccel_hwmodel::unizk::sweep::parse_param;
use zkaccel_hwmodel::unizk::{Mode, UnizkConfig};
use zkaccel_kernel_trace::{read_jsonl, validate, CircuitShape, KernelRecord};

#[derive(Subcommand)]
pub enum ModelCommand {
    /// AMAZE MiMC designs: cycles, amortised latency and throughput at the paper's clocks.
    Amaze(AmazeArgs),
    /// UniZK: replay a kernel trace (`zkaccel prove --trace FILE`) on the unified systolic
    /// accelerator; per class time, bytes, memory and VSA utilisation beside the CPU's time.
    Unizk(Box<UnizkArgs>),
    /// FPGA NTT core (hw/ntt): cycles of Table III's configurations beside the paper's, with
    /// the PipeZK replica; or one configuration's cycles (--log-points …).
    NttFpga(NttFpgaArgs),
    /// AcclMT's Poseidon engine (hw/acclmt): Table I beside the paper's and the two-batch
    /// schedule's time loss against two FR engines; or one streamed run's cycles (--hashes).
    Acclmt(AcclmtArgs),
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("workload").args(["hashes", "leaves"])))]
pub struct AcclmtArgs {
    /// Stream this many hashes through the engine (the RTL bench's run) and print its cycles,
    /// instead of Table I.
    #[arg(long)]
    hashes: Option<u64>,
    /// State width t of the streamed instance or the tree's hash (3 … 12): a tree's arity is
    /// t − 1, each leaf t − 1 elements (arity 4, 8, 11 are beyond the paper's binary trees).
    #[arg(long, default_value_t = 3, requires = "workload")]
    width: u32,
    /// S-box exponent of the streamed instance or the tree's hash (3, 5 or 7).
    #[arg(long, default_value_t = 5, requires = "workload")]
    alpha: u32,
    /// Full rounds of the streamed instance or the tree's hash.
    #[arg(long, default_value_t = 8, requires = "workload")]
    full_rounds: u32,
    /// Partial rounds of the streamed instance or the tree's hash (FileCoin's 56 by default;
    /// neptune's arity-2 instance has 55, circomlib's 57).
    #[arg(long, default_value_t = 56, requires = "workload")]
    partial_rounds: u32,
    /// The two-FR-engine baseline instead of the two-batch schedule (with --hashes).
    #[arg(long, requires = "hashes")]
    baseline: bool,
    /// The wide multiplier's pipeline stages (the Montgomery multiplier takes 3·(L + 1)).
    #[arg(long, default_value_t = 1)]
    mul_latency: u32,
    /// Hashes per batch (a power of two).
    #[arg(long, default_value_t = 32)]
    batch: u32,
    /// Idle cycles after each round of a batch.
    #[arg(long, default_value_t = 1)]
    slot_gap: u32,
    /// Cycles before a sub-engine starts a batch it takes from the other.
    #[arg(long, default_value_t = 9)]
    handover_gap: u32,
    /// Clock in MHz (0.001 to 100000).
    #[arg(long, default_value_t = 500.0, value_parser = real_in(1e-3, 1e5))]
    clock_mhz: f64,
    /// Build one tree of this many leaves on the Merkle controller (a power of the arity,
    /// binary unless --width says otherwise) and print its time and utilisation, instead of
    /// Tables I and II.
    #[arg(long, conflicts_with = "hashes")]
    leaves: Option<u64>,
    /// Off-chip bandwidth for the leaves' elements, GB/s (0.001 to 10^4; the default is fitted
    /// to Table II).
    #[arg(long, default_value_t = acclmt_defaults().bandwidth_gb_per_s,
          value_parser = real_in(1e-3, 1e4))]
    bandwidth_gbps: f64,
    /// Nanoseconds before the loader's first transfer (the paper's "initial data loading"; 0
    /// to 10^9).
    #[arg(long, default_value_t = acclmt_defaults().initial_load_ns,
          value_parser = real_in(0.0, 1e9))]
    initial_load_ns: f64,
    /// Cycles the RHE's dispatch scheduler takes per pair of batches (the paper's "RHE incurs
    /// more scheduling overhead").
    #[arg(long, default_value_t = acclmt_defaults().rhe_dispatch_cycles)]
    rhe_dispatch_cycles: u64,
    /// The paper's overheads in place of the slow loader: a 19.2 GB/s loader, the fitted
    /// initial load and RHE dispatch, which reproduce Table II and the paper's utilisation in
    /// one configuration (the RTL has neither overhead).
    #[arg(long, conflicts_with_all = ["bandwidth_gbps", "initial_load_ns", "rhe_dispatch_cycles", "cycle_exact"])]
    paper_overheads: bool,
    /// With --leaves: run the RTL controller's cycle-exact model (every register of
    /// hw/acclmt/rtl/acclmt_tree.sv and its two engines, cycle by cycle, fed as the Verilator
    /// bench feeds it) instead of the batch-level one; its cycles are the RTL's.
    #[arg(long, requires = "leaves", conflicts_with_all = ["hashes", "trace", "sweep", "no_merger", "initial_load_ns", "rhe_dispatch_cycles"])]
    cycle_exact: bool,
    /// With --cycle-exact: the bench's pace in bytes per cycle (element n is offered once
    /// (n + 1)·32 bytes have arrived), instead of --bandwidth-gbps at --clock-mhz.
    #[arg(long, requires = "cycle_exact")]
    bytes_per_cycle: Option<f64>,
    /// Leaves per standard subtree (the leaf hash buffer).
    #[arg(long, default_value_t = acclmt_defaults().subtree_leaves)]
    subtree_leaves: u64,
    /// Layers with at least this many nodes are major aggregation (the scratch pad).
    #[arg(long, default_value_t = acclmt_defaults().major_min_nodes)]
    scratch_pad_nodes: u64,
    /// Subtree roots per HIDM Level-0 aggregation.
    #[arg(long, default_value_t = acclmt_defaults().level0_subtrees)]
    level0_subtrees: u64,
    /// Entries of HIDM Level 1.
    #[arg(long, default_value_t = acclmt_defaults().level1_entries)]
    level1_entries: u64,
    /// The paper's pre-optimisation controller: no merger of minor aggregation.
    #[arg(long)]
    no_merger: bool,
    /// Replay a kernel trace (JSON Lines): its `merkle` records over 256-bit fields
    /// (`poseidon-bls12-381-3`, `poseidon-bn254-3`; neptune's arity 4 and 8,
    /// `poseidon-bls12-381-5` / `-9`) on the Merkle controller.
    #[arg(long, conflicts_with_all = ["hashes", "leaves"])]
    trace: Option<PathBuf>,
    /// Design-space sweep of the Merkle controller on a tree of --leaves (default 2^14): a
    /// knob (batch, mul_latency, slot_gap, handover_gap, clock_mhz, bandwidth_gbps,
    /// subtree_leaves, scratch_pad_nodes, level0_subtrees, initial_load_ns,
    /// rhe_dispatch_cycles, merger, leaves) and its values, e.g.
    /// `bandwidth_gbps=0.5,0.87,2,19.2`; repeat for several. Writes
    /// `acclmt-sweep-<knob>.csv`, `.svg` and `.png` to --out.
    #[arg(
        long,
        value_name = "KNOB=V1,V2,…",
        conflicts_with = "hashes",
        requires = "out"
    )]
    sweep: Vec<String>,
    #[command(flatten)]
    files: SweepFiles,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Where a model's sweeps go: the directory and the plots' font.
#[derive(Args)]
pub struct SweepFiles {
    /// The directory the sweeps' CSV and plots are written to (created if missing).
    #[arg(long)]
    out: Option<PathBuf>,
    /// A TrueType font for the plots' text (default: a system sans-serif font).
    #[arg(long)]
    font: Option<PathBuf>,
}

impl SweepFiles {
    /// The output directory and the loaded font.
    fn open(&self) -> Result<(&PathBuf, zkaccel_plot::PlotFont), Box<dyn std::error::Error>> {
        let out = self.out.as_ref().ok_or("--sweep needs --out DIR")?;
        Ok((out, zkaccel_plot::load_font(self.font.as_deref())?))
    }
}

fn acclmt_defaults() -> zkaccel_hwmodel::acclmt::ControllerConfig {
    zkaccel_hwmodel::acclmt::ControllerConfig::default()
}

#[derive(Args)]
pub struct NttFpgaArgs {
    /// One configuration instead of Table III: m, log2 of the sub-task size (2 to 16).
    #[arg(long)]
    log_points: Option<u32>,
    /// Pipelines (with --log-points).
    #[arg(long, default_value_t = 1, requires = "log_points")]
    pipelines: u32,
    /// Latency of the wide multiplier in cycles (the butterfly interval is 3·(L + 1) + 1).
    #[arg(long, default_value_t = PAPER_MUL_LATENCY)]
    mul_latency: u32,
    /// Element width in bits (with --log-points).
    #[arg(long, default_value_t = 256, requires = "log_points")]
    width: u32,
    /// Task size in points (with --log-points): a multiple of 2^m.
    #[arg(long, default_value_t = TABLE_III_POINTS, requires = "log_points")]
    points: u64,
    /// The PipeZK replica (no sub-task overlap) instead of the paper's core (with
    /// --log-points or --trace).
    #[arg(long)]
    pipezk: bool,
    /// The fully pipelined core (hw/ntt/rtl/ntt_core_pipe.sv: one butterfly per cycle per
    /// round unit) instead of the paper's (with --log-points or --sweep).
    #[arg(long, conflicts_with_all = ["pipezk", "trace"])]
    pipelined: bool,
    /// Replay the `ntt` records of a kernel trace (JSON Lines, `zkaccel ntt --trace` or any
    /// producer) over 256- and 384-bit fields on the end-to-end model; other records are
    /// listed as not modelled.
    #[arg(long, conflicts_with = "log_points")]
    trace: Option<PathBuf>,
    /// Design-space sweep of the core: a knob (log_points, pipelines, mul_latency, width,
    /// clock_mhz, points, core) and its values, e.g. `pipelines=1,2,4,8`; repeat for several.
    /// The base is --log-points … (default Table III's first row); writes
    /// `ntt-sweep-<knob>.csv`, `.svg` and `.png` to --out.
    #[arg(
        long,
        value_name = "KNOB=V1,V2,…",
        conflicts_with = "trace",
        requires = "out"
    )]
    sweep: Vec<String>,
    #[command(flatten)]
    files: SweepFiles,
    /// Clock in MHz (0.001 to 100000).
    #[arg(long, default_value_t = PAPER_CLOCK_MHZ, value_parser = real_in(1e-3, 1e5))]
    clock_mhz: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct UnizkArgs {
    /// Sweep a knob instead of one replay.
    #[command(subcommand)]
    action: Option<UnizkAction>,
    #[command(flatten)]
    replay: UnizkReplayArgs,
}

#[derive(Subcommand)]
pub enum UnizkAction {
    /// Design-space sweep (Figure 10): each `--param knob=v1,v2,…` replayed at every value;
    /// writes `sweep-<knob>.csv`, `.svg` and `.png` (speedup per class over the base) to `--out`.
    Sweep(UnizkSweepArgs),
}

#[derive(Args)]
pub struct UnizkReplayArgs {
    /// A kernel trace (JSON Lines) written by `zkaccel prove --trace`.
    #[arg(long, conflicts_with_all = ["shape", "workload"])]
    trace: Option<PathBuf>,
    /// A plonky2 circuit's shape (JSON, `peers/examples/plonky2_shapes`), expanded to the
    /// kernels of plonky2's `prove()`.
    #[arg(long, conflicts_with = "workload")]
    shape: Option<PathBuf>,
    /// A built-in plonky2 workload of UniZK's Table 3: fibonacci, factorial, mvm, ecdsa, sha256
    /// or image-crop.
    #[arg(long)]
    workload: Option<String>,
    /// `paper` (the hardware as published) or `unizk-sim` (the public simulator's artefacts).
    #[arg(long, default_value = "paper")]
    mode: String,
    /// Override one knob, e.g. `--set vsas=64 --set spm_mb=16 --set bw_tbps=0.5`.
    #[arg(long = "set", value_name = "KNOB=VALUE")]
    set: Vec<String>,
    /// Print JSON (configuration, per class, per kernel).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct UnizkSweepArgs {
    #[command(flatten)]
    replay: UnizkReplayArgs,
    /// A knob and its values, e.g. `spm_mb=2,4,8,16,32`; repeat for several sweeps.
    #[arg(long = "param", value_name = "KNOB=V1,V2,…", required = true)]
    params: Vec<String>,
    /// The directory the CSV and plots are written to (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// A TrueType font for the plots' text (default: DejaVu Sans or Liberation Sans where the
    /// system has them).
    #[arg(long)]
    font: Option<PathBuf>,
}

#[derive(Args)]
pub struct AmazeArgs {
    /// One design of Table 1 (AMZ-1 … AMZ-3); default: all of them.
    #[arg(long, conflicts_with = "config")]
    design: Option<String>,
    /// A JSON configuration (every field of the model's AmazeConfig).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs a `model` subcommand.
pub fn run(cmd: &ModelCommand) -> Result<(), Box<dyn std::error::Error>> {
    let args = match cmd {
        ModelCommand::Amaze(args) => args,
        ModelCommand::NttFpga(args) => return run_ntt_fpga(args),
        ModelCommand::Acclmt(args) => return run_acclmt(args),
        ModelCommand::Unizk(args) => {
            return match &args.action {
                Some(UnizkAction::Sweep(sweep)) => run_unizk_sweep(sweep),
                None => run_unizk(&args.replay),
            }
        }
    };
    let table = if let Some(path) = &args.config {
        AmazeTable::config(AmazeConfig::from_json(&read_bounded(path, 1 << 20)?)?)?
    } else if let Some(name) = &args.design {
        AmazeTable::design(name.parse::<Design>()?)?
    } else {
        AmazeTable::all()?
    };
    print_report(&table, args.json)
}

/// Prints a model's report: its JSON (pretty) with `json`, its text otherwise.
fn print_report<R: serde::Serialize + std::fmt::Display>(
    report: &R,
    json: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}

/// `zkaccel model acclmt`.
fn run_acclmt(args: &AcclmtArgs) -> Result<(), Box<dyn std::error::Error>> {
    use zkaccel_hwmodel::acclmt::{self, EngineConfig, PoseidonShape};
    let config = EngineConfig {
        mul_latency: args.mul_latency,
        batch: args.batch,
        slot_gap: args.slot_gap,
        handover_gap: args.handover_gap,
        baseline: args.baseline,
        clock_mhz: args.clock_mhz,
    };
    config.validate()?;
    let overheads = if args.paper_overheads {
        acclmt::ControllerConfig::with_paper_overheads()
    } else {
        acclmt::ControllerConfig {
            bandwidth_gb_per_s: args.bandwidth_gbps,
            initial_load_ns: args.initial_load_ns,
            rhe_dispatch_cycles: args.rhe_dispatch_cycles,
            ..acclmt_defaults()
        }
    };
    let controller = acclmt::ControllerConfig {
        engine: config,
        subtree_leaves: args.subtree_leaves,
        major_min_nodes: args.scratch_pad_nodes,
        level0_subtrees: args.level0_subtrees,
        level1_entries: args.level1_entries,
        merger: !args.no_merger,
        ..overheads
    };
    controller.validate()?;
    if !args.sweep.is_empty() {
        return run_acclmt_sweep(args, &controller);
    }
    if let Some(path) = &args.trace {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let records = read_jsonl(BufReader::new(file))?;
        validate(&records)?;
        return print_report(&acclmt::trace::replay(&records, &controller)?, args.json);
    }
    let shape = PoseidonShape {
        width: args.width,
        alpha: args.alpha,
        full_rounds: args.full_rounds,
        partial_rounds: args.partial_rounds,
    };
    if let (Some(leaves), true) = (args.leaves, args.cycle_exact) {
        let build = acclmt::RtlTreeBuild::new(&controller, shape, leaves, args.bytes_per_cycle)?;
        return print_report(&build, args.json);
    }
    if let Some(leaves) = args.leaves {
        return print_report(
            &acclmt::TreeBuild::new(controller, shape, leaves)?,
            args.json,
        );
    }
    if let Some(hashes) = args.hashes {
        return print_report(
            &acclmt::EngineStream::new(config, shape, hashes)?,
            args.json,
        );
    }
    print_report(&acclmt::AcclmtTables::new(controller)?, args.json)
}

/// `zkaccel model acclmt --sweep`.
fn run_acclmt_sweep(
    args: &AcclmtArgs,
    base: &zkaccel_hwmodel::acclmt::ControllerConfig,
) -> Result<(), Box<dyn std::error::Error>> {
    let leaves = args.leaves.unwrap_or(1 << 14);
    let sweeps = args
        .sweep
        .iter()
        .map(|p| -> Result<_, Box<dyn std::error::Error>> {
            let (knob, values) = parse_param(p)?;
            Ok(base.sweep(leaves, &knob, &values)?)
        })
        .collect::<Result<Vec<_>, _>>()?;
    distinct_knobs(sweeps.iter().map(|s| s.knob.as_str()))?;
    let (out, font) = args.files.open()?;
    for sweep in &sweeps {
        let files = zkaccel_plot::write_acclmt_sweep(sweep, out, &font)?;
        if args.json {
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

/// `zkaccel model ntt-fpga`.
fn run_ntt_fpga(args: &NttFpgaArgs) -> Result<(), Box<dyn std::error::Error>> {
    let kind = if args.pipezk {
        CoreKind::PipeZkReplica
    } else if args.pipelined {
        CoreKind::FullyPipelined
    } else {
        CoreKind::Overlapped
    };
    if let Some(path) = &args.trace {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let records = read_jsonl(BufReader::new(file))?;
        validate(&records)?;
        return print_report(
            &ntt_fpga::trace::replay(&records, kind, args.clock_mhz)?,
            args.json,
        );
    }
    if !args.sweep.is_empty() {
        return run_ntt_fpga_sweep(args, kind);
    }
    if args.pipezk && args.log_points.is_none() {
        return Err("--pipezk needs --log-points or --trace".into());
    }
    if args.pipelined && args.log_points.is_none() {
        return Err("--pipelined needs --log-points or --sweep".into());
    }
    if let Some(log_points) = args.log_points {
        let config = NttCoreConfig {
            width_bits: args.width,
            log_points,
            pipelines: args.pipelines,
            mul_latency: args.mul_latency,
            kind,
            clock_mhz: args.clock_mhz,
        };
        return print_report(&CoreRun::new(config, args.points)?, args.json);
    }
    print_report(
        &NttTables::new(args.mul_latency, args.clock_mhz)?,
        args.json,
    )
}

fn run_ntt_fpga_sweep(
    args: &NttFpgaArgs,
    kind: CoreKind,
) -> Result<(), Box<dyn std::error::Error>> {
    let base = NttCoreConfig {
        width_bits: args.width,
        log_points: args.log_points.unwrap_or(TABLE_III[0].log_points),
        pipelines: args.pipelines,
        mul_latency: args.mul_latency,
        kind,
        clock_mhz: args.clock_mhz,
    };
    let sweeps = args
        .sweep
        .iter()
        .map(|p| -> Result<_, Box<dyn std::error::Error>> {
            let (knob, values) = parse_param(p)?;
            Ok(base.sweep(args.points, &knob, &values)?)
        })
        .collect::<Result<Vec<_>, _>>()?;
    distinct_knobs(sweeps.iter().map(|s| s.knob.as_str()))?;
    let (out, font) = args.files.open()?;
    for sweep in &sweeps {
        let files = zkaccel_plot::write_ntt_sweep(sweep, out, &font)?;
        if args.json {
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

/// Reads a file of at most `limit` bytes.
fn read_bounded(path: &std::path::Path, limit: u64) -> Result<String, Box<dyn std::error::Error>> {
    use std::io::Read;
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    file.take(limit + 1).read_to_string(&mut text)?;
    if text.len() as u64 > limit {
        return Err(format!("{}: longer than {limit} bytes", path.display()).into());
    }
    Ok(text)
}

/// The configuration and the validated trace a replay or a sweep runs on.
fn unizk_inputs(
    args: &UnizkReplayArgs,
) -> Result<(UnizkConfig, Vec<KernelRecord>), Box<dyn std::error::Error>> {
    let mode: Mode = args.mode.parse()?;
    let mut config = UnizkConfig::preset(mode);
    for knob in &args.set {
        config.set(knob)?;
    }
    let records = if let Some(path) = &args.trace {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        read_jsonl(BufReader::new(file))?
    } else if let Some(path) = &args.shape {
        let text = read_bounded(path, 1 << 20)?;
        CircuitShape::from_json(&text)?.kernels()?
    } else if let Some(name) = &args.workload {
        zkaccel_hwmodel::unizk::workloads::kernels(name)?
    } else {
        return Err("one of --trace FILE, --shape FILE or --workload NAME is required".into());
    };
    validate(&records)?;
    Ok((config, records))
}

fn run_unizk(args: &UnizkReplayArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (config, records) = unizk_inputs(args)?;
    print_report(&config.replay(&records)?, args.json)
}

/// A command-line real number, finite and within `lo ..= hi` (an absurd value such as `1e308`,
/// `inf` or `nan` is refused, not carried into the model and printed back as 300 digits).
fn real_in(lo: f64, hi: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
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

/// Each sweep of a run names its files after its knob: a knob swept twice would overwrite the
/// first sweep's files, so it is refused before any file is written.
fn distinct_knobs<'a>(knobs: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for knob in knobs {
        if !seen.insert(knob) {
            return Err(format!(
                "--sweep {knob} is given twice: its files would overwrite each other; sweep \
                 all its values in one --sweep"
            ));
        }
    }
    Ok(())
}

fn run_unizk_sweep(args: &UnizkSweepArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (config, records) = unizk_inputs(&args.replay)?;
    let params = args
        .params
        .iter()
        .map(|p| parse_param(p))
        .collect::<Result<Vec<_>, _>>()?;
    let sweeps = params
        .iter()
        .map(|(knob, values)| config.sweep(&records, knob, values))
        .collect::<Result<Vec<_>, _>>()?;
    distinct_knobs(sweeps.iter().map(|s| s.knob.as_str()))?;
    let font = zkaccel_plot::load_font(args.font.as_deref())?;
    for sweep in &sweeps {
        let files = zkaccel_plot::write_unizk_sweep(sweep, &args.out, &font)?;
        if args.replay.json {
            println!("{}", serde_json::to_string(sweep)?);
        } else {
            print!("{sweep}");
            println!(
                "  wrote {}, {}, {}",
                files.csv.display(),
                files.svg.display(),
                files.png.display()
            );
        }
    }
    Ok(())
}
