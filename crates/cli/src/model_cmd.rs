//! `zkaccel model amaze`: the AMAZE cycle model's report beside the paper's Table 1.
//! `zkaccel model unizk`: a kernel trace replayed on the UniZK accelerator model.
//! `zkaccel model ntt-fpga`: the FPGA NTT core's cycle model beside the paper's Table III.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use zkaccel_hwmodel::amaze::{AmazeConfig, Design};
use zkaccel_hwmodel::ntt_fpga;
use zkaccel_hwmodel::ntt_fpga::{
    end_to_end_ms, table_vii_points, table_vii_u50, CoreKind, EndToEndSeries, NttCoreConfig,
    PAPER_CLOCK_MHZ, PAPER_MUL_LATENCY, TABLE_III, TABLE_III_POINTS, TABLE_VII_CPU, TABLE_VII_U50,
    TABLE_V_MS, TABLE_V_SIZES,
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
    let configs: Vec<(AmazeConfig, Option<Design>)> = if let Some(path) = &args.config {
        vec![(AmazeConfig::from_json(&read_bounded(path, 1 << 20)?)?, None)]
    } else if let Some(name) = &args.design {
        let d: Design = name.parse()?;
        vec![(AmazeConfig::preset(d), Some(d))]
    } else {
        Design::ALL
            .into_iter()
            .map(|d| (AmazeConfig::preset(d), Some(d)))
            .collect()
    };
    let mut rows = Vec::new();
    for (config, design) in &configs {
        let report = config.report()?;
        rows.push(serde_json::json!({
            "config": config,
            "model": report,
            "paper": design.map(|d| d.paper()),
        }));
    }
    if args.json {
        let out = if rows.len() == 1 {
            rows.remove(0)
        } else {
            serde_json::Value::Array(rows)
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{:<8} {:>5} {:>10} {:>10} {:>9} {:>14} {:>14} {:>14} {:>14}",
        "design",
        "batch",
        "cycles",
        "paper",
        "MHz",
        "amort. µs",
        "paper µs",
        "ciphers/s",
        "paper /s"
    );
    for (config, design) in &configs {
        let r = config.report()?;
        let p = design.map(|d| d.paper());
        println!(
            "{:<8} {:>5} {:>10} {:>10} {:>9.2} {:>14.3} {:>14} {:>14.0} {:>14}",
            r.name,
            r.batch,
            r.cycles,
            p.map_or("-".into(), |p| p.cycles.to_string()),
            r.clock_mhz,
            r.amortised_latency_us,
            p.map_or("-".into(), |p| format!("{:.3}", p.amortised_latency_us)),
            r.amortised_throughput,
            p.map_or("-".into(), |p| format!("{:.0}", p.amortised_throughput)),
        );
    }
    Ok(())
}

/// `zkaccel model acclmt`.
/// A tree build's LHE and RHE utilisation: busy over their active windows and the whole
/// build, and occupied (busy or held back by the next stage) over the active windows.
fn print_tree_utilisation(active: [f64; 2], total: [f64; 2], occupied: [f64; 2]) {
    println!(
        "utilisation_active lhe={:.4} rhe={:.4}",
        active[0], active[1]
    );
    println!("utilisation_total lhe={:.4} rhe={:.4}", total[0], total[1]);
    println!(
        "utilisation_occupied lhe={:.4} rhe={:.4}",
        occupied[0], occupied[1]
    );
}

fn run_acclmt(args: &AcclmtArgs) -> Result<(), Box<dyn std::error::Error>> {
    use zkaccel_hwmodel::acclmt::{self, EngineConfig, PoseidonShape, PAPER_TIME_LOSS};
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
        let report = acclmt::trace::replay(&records, &controller)?;
        if args.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print!("{report}");
        }
        return Ok(());
    }
    let shape = PoseidonShape {
        width: args.width,
        alpha: args.alpha,
        full_rounds: args.full_rounds,
        partial_rounds: args.partial_rounds,
    };
    if let (Some(leaves), true) = (args.leaves, args.cycle_exact) {
        let arity = shape.width.saturating_sub(1);
        let run = controller.simulate_rtl(&shape, leaves, args.bytes_per_cycle)?;
        let rtl = controller.rtl(arity)?;
        let depth = leaves.ilog(u64::from(arity));
        if args.json {
            let out = serde_json::json!({
                "controller": rtl, "engine": config, "shape": shape, "depth": depth, "run": run
            });
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!(
                "arity={arity} subtree_depth={} major_nodes={} level0_depth={} level1_depth={} depth={depth}",
                rtl.subtree_depth, rtl.major_nodes, rtl.level0_depth, rtl.level1_depth
            );
            println!("cycles={}", run.cycles);
            println!(
                "milliseconds={:.4}",
                run.cycles as f64 / (args.clock_mhz * 1e3)
            );
            println!("hashes lhe={} rhe={}", run.hashes[0], run.hashes[1]);
            print_tree_utilisation(
                run.utilisation_active,
                run.utilisation_total,
                run.utilisation_occupied,
            );
        }
        return Ok(());
    }
    if let Some(leaves) = args.leaves {
        let run = controller.build(&shape, leaves)?;
        let geometry = controller.geometry(shape.width - 1)?;
        if args.json {
            let out = serde_json::json!({
                "controller": controller, "geometry": geometry, "shape": shape, "run": run
            });
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!(
                "arity={} subtree_leaves={} level0_subtrees={} level1_entries={}",
                geometry.arity,
                geometry.subtree_leaves,
                geometry.level0_subtrees,
                geometry.level1_entries
            );
            println!("cycles={}", run.cycles);
            println!("milliseconds={:.4}", run.milliseconds);
            print_tree_utilisation(
                run.utilisation_active,
                run.utilisation_total,
                run.utilisation_occupied,
            );
        }
        return Ok(());
    }
    if let Some(hashes) = args.hashes {
        let run = config.simulate(&shape, hashes)?;
        if args.json {
            let out = serde_json::json!({ "config": config, "shape": shape, "run": run });
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!("cycles={}", run.cycles);
            println!("cycles_per_hash={:.3}", run.cycles_per_hash);
        }
        return Ok(());
    }
    let rows = acclmt::table_i(&config)?;
    let (filecoin, long) = acclmt::paper_time_losses(&config)?;
    let trees = acclmt::table_ii(&controller)?;
    let mean = |pick: fn(&acclmt::TreeRun) -> [f64; 2], engine: usize| {
        trees.iter().map(|t| pick(&t.run)[engine]).sum::<f64>() / trees.len() as f64
    };
    let active = |r: &acclmt::TreeRun| r.utilisation_active;
    let total = |r: &acclmt::TreeRun| r.utilisation_total;
    let occupied = |r: &acclmt::TreeRun| r.utilisation_occupied;
    let (paper_means, paper_rhe_largest) = acclmt::PAPER_UTILISATION;
    if args.json {
        let out = serde_json::json!({
            "config": config,
            "controller": controller,
            "table_i": rows,
            "table_ii": trees,
            "utilisation_mean_active": [mean(active, 0), mean(active, 1)],
            "utilisation_mean_total": [mean(total, 0), mean(total, 1)],
            "utilisation_mean_occupied": [mean(occupied, 0), mean(occupied, 1)],
            "paper_utilisation_mean": paper_means,
            "paper_rhe_utilisation_largest": paper_rhe_largest,
            "time_loss_percent": { "filecoin": filecoin, "rf8_rp120": long },
            "paper_time_loss_percent": { "filecoin": PAPER_TIME_LOSS.0, "rf8_rp120": PAPER_TIME_LOSS.1 },
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "AcclMT Poseidon engine, Table I (FileCoin: BLS12-381 Fr, alpha 5, R_F 8; {} MHz):",
        config.clock_mhz
    );
    println!(
        "arity  t  R_P  cycles/hash  model hash/s  paper hash/s  error     source                    RTL cycles/hash  vs paper"
    );
    for row in &rows {
        let paper_cycles = config.clock_mhz * 1e6 / row.row.paper_hashes_per_second;
        println!(
            "{:>5} {:>2} {:>4} {:>12.3} {:>12.2}M {:>12.2}M {:>+7.2} %  {:<25} {:>15.3} {:>+8.2} %",
            row.row.arity,
            row.shape.width,
            row.shape.partial_rounds,
            row.cycles_per_hash,
            row.hashes_per_second / 1e6,
            row.row.paper_hashes_per_second / 1e6,
            row.error_percent,
            if row.calibrated {
                "calibrated chunk factor"
            } else {
                "schedule = RTL"
            },
            row.rtl_cycles_per_hash,
            100.0 * (row.rtl_cycles_per_hash / paper_cycles - 1.0),
        );
    }
    println!(
        "(RTL: hw/acclmt's engine, k² beats per full round and ⌈(t − 1)/2⌉ per partial round, k = ⌈t/3⌉; the paper gives no beat schedule for t > 3)"
    );
    println!(
        "time loss against two FR engines: FileCoin average {filecoin:.3} % (paper {:.2} %), R_F 8 R_P 120 {long:.3} % (paper {:.2} %)",
        PAPER_TIME_LOSS.0, PAPER_TIME_LOSS.1
    );
    println!();
    println!(
        "Merkle controller, Table II (arity 2, {}-leaf subtrees, loader {} GB/s, merger {}):",
        controller.subtree_leaves,
        controller.bandwidth_gb_per_s,
        if controller.merger { "on" } else { "off" }
    );
    println!(
        "leaves    model ms   paper ms   error     LHE act  RHE act  LHE tot  RHE tot  LHE occ"
    );
    for t in &trees {
        println!(
            "2^{:<5} {:>10.3} {:>10.2} {:>+7.2} %  {:>6.1} % {:>6.1} % {:>6.1} % {:>6.1} % {:>6.1} %",
            t.leaves.trailing_zeros(),
            t.run.milliseconds,
            t.paper_ms,
            t.error_percent,
            100.0 * t.run.utilisation_active[0],
            100.0 * t.run.utilisation_active[1],
            100.0 * t.run.utilisation_total[0],
            100.0 * t.run.utilisation_total[1],
            100.0 * t.run.utilisation_occupied[0],
        );
    }
    println!(
        "(act: busy over the engine's active window; tot: busy over the whole build; occ: busy or held back by the next stage, over the active window — the RHE's equals its act)"
    );
    println!(
        "mean utilisation, busy over the active windows: LHE {:.1} %, RHE {:.1} % (paper {:.1} %); occupied: LHE {:.1} % (paper {:.1} %); busy over the whole build: LHE {:.1} %, RHE {:.1} %; RHE at 2^23 {:.1} % (paper {:.1} %)",
        100.0 * mean(active, 0),
        100.0 * mean(active, 1),
        100.0 * paper_means[1],
        100.0 * mean(occupied, 0),
        100.0 * paper_means[0],
        100.0 * mean(total, 0),
        100.0 * mean(total, 1),
        100.0 * trees.last().map_or(0.0, |t| t.run.utilisation_active[1]),
        100.0 * paper_rhe_largest,
    );
    Ok(())
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
        println!("{} (base: {} leaves)", sweep.knob, sweep.base_leaves);
        for p in &sweep.points {
            println!(
                "  {:>9}: {:>11} cycles {:>10.3} ms  LHE {:>5.1} %  RHE {:>5.1} %  speedup {:.3}×",
                p.value,
                p.run.cycles,
                p.run.milliseconds,
                100.0 * p.run.utilisation_active[0],
                100.0 * p.run.utilisation_active[1],
                p.speedup
            );
        }
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
        let report = ntt_fpga::trace::replay(&records, kind, args.clock_mhz)?;
        if args.json {
            println!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            print!("{report}");
        }
        return Ok(());
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
        let cycles = config.core_cycles(args.points)?;
        if args.json {
            let out = serde_json::json!({
                "config": config,
                "points": args.points,
                "cycles": cycles,
                "ms": config.core_ms(args.points)?,
            });
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            println!("cycles={cycles}");
        }
        return Ok(());
    }
    let mut rows = Vec::new();
    for row in &TABLE_III {
        let ours = NttCoreConfig {
            mul_latency: args.mul_latency,
            clock_mhz: args.clock_mhz,
            ..NttCoreConfig::table_iii(row)
        };
        let pipezk = NttCoreConfig {
            kind: CoreKind::PipeZkReplica,
            ..ours
        };
        let cycles = ours.core_cycles(TABLE_III_POINTS)?;
        let pipezk_cycles = pipezk.core_cycles(TABLE_III_POINTS)?;
        rows.push((row, ours, cycles, pipezk_cycles));
    }
    if args.json {
        let out: Vec<_> = rows
            .iter()
            .map(|(row, config, cycles, pipezk)| {
                serde_json::json!({
                    "config": config,
                    "paper": row,
                    "cycles": cycles,
                    "pipezk_replica_cycles": pipezk,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "Table III (4096 points, 256-bit, L = {}: a butterfly every {} cycles, {} MHz)",
        args.mul_latency,
        3 * (u64::from(args.mul_latency) + 1) + 1,
        args.clock_mhz
    );
    println!(
        "{:<42} {:>8} {:>8} {:>8} {:>9} {:>8}",
        "configuration", "paper", "model", "error", "PipeZK", "ratio"
    );
    for (row, _, cycles, pipezk) in &rows {
        println!(
            "{:<42} {:>8} {:>8} {:>+7.1}% {:>9} {:>8.3}",
            format!(
                "{} rounds & {} sub-tasks & {} in parallel",
                row.log_points,
                TABLE_III_POINTS >> row.log_points,
                row.pipelines
            ),
            row.cycles,
            cycles,
            100.0 * (*cycles as f64 / row.cycles as f64 - 1.0),
            pipezk,
            *pipezk as f64 / *cycles as f64,
        );
    }
    print_end_to_end(args.clock_mhz)
}

/// Tables V and VII (U50 column) from the calibrated end-to-end model, beside the paper's.
fn print_end_to_end(clock_mhz: f64) -> Result<(), Box<dyn std::error::Error>> {
    println!();
    println!("Table V (ms, end to end; calibrated: n·(a + b·log2 n) cycles per series)");
    print!("{:>9}", "N");
    for series in EndToEndSeries::ALL {
        print!(" {:>26}", format!("{} (paper)", series.name()));
    }
    println!();
    for (i, &n) in TABLE_V_SIZES.iter().enumerate() {
        print!("{n:>9}");
        for (column, series) in EndToEndSeries::ALL.into_iter().enumerate() {
            let ms = end_to_end_ms(series, n, clock_mhz)?;
            print!(" {:>26}", format!("{ms:.3} ({:.3})", TABLE_V_MS[column][i]));
        }
        println!();
    }
    println!();
    println!("Table VII, U50 column (256-bit; 10^6 B/s over 2·next_pow2(input); 6.49 W)");
    println!(
        "{:>10} {:>9} {:>20} {:>20} {:>20}   paper's Ryzen 9 5900X ms: 1 core, 12 cores",
        "input", "points", "ms (paper)", "MB/s (paper)", "MB/(W·s) (paper)"
    );
    for ((input, ms, mb_s, eff), (_, cpu)) in TABLE_VII_U50.into_iter().zip(TABLE_VII_CPU) {
        let (m_ms, m_mb_s, m_eff) = table_vii_u50(input, clock_mhz)?;
        println!(
            "{input:>10} {:>9} {:>20} {:>20} {:>20}   {:>10} {:>10}",
            table_vii_points(input),
            format!("{m_ms:.3} ({ms})"),
            format!("{m_mb_s:.3} ({mb_s})"),
            format!("{m_eff:.3} ({eff})"),
            cpu[0].0,
            cpu[1].0
        );
    }
    Ok(())
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
        println!("{} (base: {} points)", sweep.knob, sweep.base_points);
        for p in &sweep.points {
            println!(
                "  {:>9}: {:>9} cycles {:>12.3} µs  {:>4} multipliers  speedup {:.2}×  multipliers×time {:.2}×",
                p.value, p.cycles, p.us, p.multipliers, p.speedup, p.relative_area_time
            );
        }
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
    let report = config.replay(&records)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{report}");
    }
    Ok(())
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
            println!("{}", sweep.knob);
            for p in &sweep.points {
                println!(
                    "  {:>8}: NTT {:.2}×, polynomial {:.2}×, hash {:.2}×, total {:.2}× ({:.3} ms)",
                    p.value, p.speedup[0], p.speedup[1], p.speedup[2], p.speedup[4], p.ms[4]
                );
            }
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
