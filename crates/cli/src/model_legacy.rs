//! The `zkaccel model` spellings before the actions (`tables`, `run`, `replay`, `sweep`):
//! `zkaccel model acclmt --leaves N`, `zkaccel model ntt-fpga --sweep k=v --out DIR`, … They
//! keep working for one release: each is turned into its action and a note on stderr names
//! the new spelling. Their flags are hidden from `--help`.

use std::collections::HashSet;
use std::path::PathBuf;

use clap::{Arg, Args, Command, FromArgMatches};
use zkaccel_hwmodel::ntt_fpga::{PAPER_CLOCK_MHZ, PAPER_MUL_LATENCY, TABLE_III_POINTS};

use crate::model_cmd::{
    real_in, AcclmtAction, AcclmtRunArgs, AmazeAction, ControllerArgs, Format, NttCore,
    NttCoreArgs, NttFpgaAction, ReplayCore, ShapeArgs, SweepOutput,
};

/// A group of flags added to a command hidden from its help (the old spellings).
#[derive(Clone, Debug, PartialEq)]
pub struct Hidden<T>(pub T);

fn hide_new(cmd: Command, add: impl FnOnce(Command) -> Command) -> Command {
    let before: HashSet<clap::Id> = cmd.get_arguments().map(|a| a.get_id().clone()).collect();
    add(cmd).mut_args(|a: Arg| {
        if before.contains(a.get_id()) {
            a
        } else {
            a.hide(true)
        }
    })
}

impl<T: Args> Args for Hidden<T> {
    fn augment_args(cmd: Command) -> Command {
        hide_new(cmd, T::augment_args)
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        hide_new(cmd, T::augment_args_for_update)
    }
}

impl<T: FromArgMatches> FromArgMatches for Hidden<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Hidden)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

/// Whether any old flag was given: the arguments differ from those of an empty command line.
fn given<T: Args + FromArgMatches + PartialEq>(args: &T) -> bool {
    let cmd = T::augment_args(Command::new("legacy"));
    let empty = cmd
        .try_get_matches_from(["legacy"])
        .ok()
        .and_then(|m| T::from_arg_matches(&m).ok());
    empty.as_ref() != Some(args)
}

/// The note for an old spelling.
fn note(paper: &str, action: &str) {
    eprintln!(
        "note: `zkaccel model {paper}` without an action is deprecated and goes in the next \
         release; use `zkaccel model {paper} {action} …` (see `zkaccel model {paper} --help`)"
    );
}

/// Notes an old spelling when any of its flags was given.
pub fn note_if_given<T: Args + FromArgMatches + PartialEq>(args: &T, paper: &str, action: &str) {
    if given(args) {
        note(paper, action);
    }
}

#[derive(Args, Clone, Debug, PartialEq)]
#[command(group(clap::ArgGroup::new("workload").args(["hashes", "leaves"])))]
pub struct AcclmtArgs {
    /// Stream this many hashes through the engine (the RTL bench's run) and print its cycles,
    /// instead of Table I.
    #[arg(long)]
    pub hashes: Option<u64>,
    /// State width t of the streamed instance or the tree's hash (3 … 12): a tree's arity is
    /// t − 1, each leaf t − 1 elements (arity 4, 8, 11 are beyond the paper's binary trees).
    #[arg(long, default_value_t = 3, requires = "workload")]
    pub width: u32,
    /// S-box exponent of the streamed instance or the tree's hash (3, 5 or 7).
    #[arg(long, default_value_t = 5, requires = "workload")]
    pub alpha: u32,
    /// Full rounds of the streamed instance or the tree's hash.
    #[arg(long, default_value_t = 8, requires = "workload")]
    pub full_rounds: u32,
    /// Partial rounds of the streamed instance or the tree's hash (FileCoin's 56 by default;
    /// neptune's arity-2 instance has 55, circomlib's 57).
    #[arg(long, default_value_t = 56, requires = "workload")]
    pub partial_rounds: u32,
    /// The two-FR-engine baseline instead of the two-batch schedule (with --hashes).
    #[arg(long, requires = "hashes")]
    pub baseline: bool,

    /// The controller and its engines (the actions' flags).
    #[command(flatten)]
    pub controller: ControllerArgs,
    /// Build one tree of this many leaves on the Merkle controller (a power of the arity,
    /// binary unless --width says otherwise) and print its time and utilisation, instead of
    /// Tables I and II.
    #[arg(long, conflicts_with = "hashes")]
    pub leaves: Option<u64>,
    /// With --leaves: run the RTL controller's cycle-exact model (every register of
    /// hw/acclmt/rtl/acclmt_tree.sv and its two engines, cycle by cycle, fed as the Verilator
    /// bench feeds it) instead of the batch-level one; its cycles are the RTL's.
    #[arg(long, requires = "leaves", conflicts_with_all = ["hashes", "trace", "sweep", "no_merger", "initial_load_ns", "rhe_dispatch_cycles", "paper_overheads"])]
    pub cycle_exact: bool,
    /// With --cycle-exact: the bench's pace in bytes per cycle (element n is offered once
    /// (n + 1)·32 bytes have arrived), instead of --bandwidth-gbps at --clock-mhz.
    #[arg(long, requires = "cycle_exact")]
    pub bytes_per_cycle: Option<f64>,
    /// Replay a kernel trace (JSON Lines): its `merkle` records over 256-bit fields
    /// (`poseidon-bls12-381-3`, `poseidon-bn254-3`; neptune's arity 4 and 8,
    /// `poseidon-bls12-381-5` / `-9`) on the Merkle controller.
    #[arg(long, conflicts_with_all = ["hashes", "leaves"])]
    pub trace: Option<PathBuf>,
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
    pub sweep: Vec<String>,
    #[command(flatten)]
    pub files: SweepFiles,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Where a model's sweeps go: the directory and the plots' font.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct SweepFiles {
    /// The directory the sweeps' CSV and plots are written to (created if missing).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A TrueType font for the plots' text (default: a system sans-serif font).
    #[arg(long)]
    pub font: Option<PathBuf>,
}

#[derive(Args, Clone, Debug, PartialEq)]
pub struct NttFpgaArgs {
    /// One configuration instead of Table III: m, log2 of the sub-task size (2 to 16).
    #[arg(long)]
    pub log_points: Option<u32>,
    /// Pipelines (with --log-points).
    #[arg(long, default_value_t = 1, requires = "log_points")]
    pub pipelines: u32,
    /// Latency of the wide multiplier in cycles (the butterfly interval is 3·(L + 1) + 1).
    #[arg(long, default_value_t = PAPER_MUL_LATENCY)]
    pub mul_latency: u32,
    /// Element width in bits (with --log-points).
    #[arg(long, default_value_t = 256, requires = "log_points")]
    pub width: u32,
    /// Task size in points (with --log-points): a multiple of 2^m.
    #[arg(long, default_value_t = TABLE_III_POINTS, requires = "log_points")]
    pub points: u64,
    /// The PipeZK replica (no sub-task overlap) instead of the paper's core (with
    /// --log-points or --trace).
    #[arg(long)]
    pub pipezk: bool,
    /// The fully pipelined core (hw/ntt/rtl/ntt_core_pipe.sv: one butterfly per cycle per
    /// round unit) instead of the paper's (with --log-points or --sweep).
    #[arg(long, conflicts_with_all = ["pipezk", "trace"])]
    pub pipelined: bool,
    /// Replay the `ntt` records of a kernel trace (JSON Lines, `zkaccel ntt --trace` or any
    /// producer) over 256- and 384-bit fields on the end-to-end model; other records are
    /// listed as not modelled.
    #[arg(long, conflicts_with = "log_points")]
    pub trace: Option<PathBuf>,
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
    pub sweep: Vec<String>,
    #[command(flatten)]
    pub files: SweepFiles,
    /// Clock in MHz (0.001 to 100000).
    #[arg(long, default_value_t = PAPER_CLOCK_MHZ, value_parser = real_in(1e-3, 1e5))]
    pub clock_mhz: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Clone, Debug, PartialEq)]
pub struct AmazeArgs {
    /// One design of Table 1 (AMZ-1 … AMZ-3); default: all of them.
    #[arg(long, conflicts_with = "config")]
    pub design: Option<String>,
    /// A JSON configuration (every field of the model's AmazeConfig).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The action an old `zkaccel model amaze` line meant.
pub fn amaze(args: &AmazeArgs) -> AmazeAction {
    let format = Format { json: args.json };
    let action = match &args.config {
        Some(config) => AmazeAction::Run {
            config: config.clone(),
            format,
        },
        None => AmazeAction::Tables {
            design: args.design.clone(),
            format,
        },
    };
    if given(args) {
        note(
            "amaze",
            if args.config.is_some() {
                "run"
            } else {
                "tables"
            },
        );
    }
    action
}

fn sweep_output(
    params: &[String],
    files: &SweepFiles,
    json: bool,
) -> Result<SweepOutput, Box<dyn std::error::Error>> {
    Ok(SweepOutput {
        params: params.to_vec(),
        output: files.out.clone().ok_or("--sweep needs --out DIR")?,
        font: files.font.clone(),
        json,
    })
}

/// The action an old `zkaccel model ntt-fpga` line meant.
///
/// # Errors
/// The old line's own refusals (`--pipezk` or `--pipelined` without a configuration).
pub fn ntt_fpga(args: &NttFpgaArgs) -> Result<NttFpgaAction, Box<dyn std::error::Error>> {
    let format = Format { json: args.json };
    let core = if args.pipezk {
        NttCore::Pipezk
    } else if args.pipelined {
        NttCore::Pipelined
    } else {
        NttCore::Ours
    };
    let base = NttCoreArgs {
        log_points: args.log_points.unwrap_or(8),
        pipelines: args.pipelines,
        mul_latency: args.mul_latency,
        width: args.width,
        points: args.points,
        core,
        clock_mhz: args.clock_mhz,
    };
    let (action, name) = if let Some(trace) = &args.trace {
        let core = if args.pipezk {
            ReplayCore::Pipezk
        } else {
            ReplayCore::Ours
        };
        let action = NttFpgaAction::Replay {
            trace: trace.clone(),
            core,
            clock_mhz: args.clock_mhz,
            format,
        };
        (action, "replay")
    } else if !args.sweep.is_empty() {
        let output = sweep_output(&args.sweep, &args.files, args.json)?;
        (NttFpgaAction::Sweep { core: base, output }, "sweep")
    } else if args.log_points.is_some() {
        (NttFpgaAction::Run { core: base, format }, "run")
    } else if args.pipezk {
        return Err("--pipezk needs --log-points or --trace".into());
    } else if args.pipelined {
        return Err("--pipelined needs --log-points or --sweep".into());
    } else {
        let action = NttFpgaAction::Tables {
            mul_latency: args.mul_latency,
            clock_mhz: args.clock_mhz,
            format,
        };
        (action, "tables")
    };
    if given(args) {
        note("ntt-fpga", name);
    }
    Ok(action)
}

/// The action an old `zkaccel model acclmt` line meant.
///
/// # Errors
/// None beyond the old line's (`--sweep` without `--out`).
pub fn acclmt(args: &AcclmtArgs) -> Result<AcclmtAction, Box<dyn std::error::Error>> {
    let format = Format { json: args.json };
    let controller = args.controller.clone();
    let (action, name) = if !args.sweep.is_empty() {
        let action = AcclmtAction::Sweep {
            leaves: args.leaves.unwrap_or(1 << 14),
            controller,
            output: sweep_output(&args.sweep, &args.files, args.json)?,
        };
        (action, "sweep")
    } else if let Some(trace) = &args.trace {
        let action = AcclmtAction::Replay {
            trace: trace.clone(),
            controller,
            format,
        };
        (action, "replay")
    } else if args.leaves.is_some() || args.hashes.is_some() {
        let run = AcclmtRunArgs {
            hashes: args.hashes,
            leaves: args.leaves,
            baseline: args.baseline,
            cycle_exact: args.cycle_exact,
            bytes_per_cycle: args.bytes_per_cycle,
            shape: ShapeArgs {
                width: args.width,
                alpha: args.alpha,
                full_rounds: args.full_rounds,
                partial_rounds: args.partial_rounds,
            },
            controller,
            format,
        };
        (AcclmtAction::Run(Box::new(run)), "run")
    } else {
        (AcclmtAction::Tables { controller, format }, "tables")
    };
    if given(args) {
        note("acclmt", name);
    }
    Ok(action)
}
