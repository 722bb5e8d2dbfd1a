//! `zkaccel model amaze`: the AMAZE cycle model's report beside the paper's Table 1.
//! `zkaccel model unizk`: a kernel trace replayed on the UniZK accelerator model.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use zkaccel_hwmodel::amaze::{AmazeConfig, Design};
use zkaccel_hwmodel::unizk::{Mode, UnizkConfig};
use zkaccel_kernel_trace::{read_jsonl, validate};

#[derive(Subcommand)]
pub enum ModelCommand {
    /// AMAZE MiMC designs: cycles, amortised latency and throughput at the paper's clocks.
    Amaze(AmazeArgs),
    /// UniZK: replay a kernel trace (`zkaccel prove --trace FILE`) on the unified systolic
    /// accelerator; per class time, bytes, memory and VSA utilisation beside the CPU's time.
    Unizk(UnizkArgs),
}

#[derive(Args)]
pub struct UnizkArgs {
    /// A kernel trace (JSON Lines) written by `zkaccel prove --trace`.
    #[arg(long)]
    trace: PathBuf,
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
        ModelCommand::Unizk(args) => return run_unizk(args),
    };
    let configs: Vec<(AmazeConfig, Option<Design>)> = if let Some(path) = &args.config {
        vec![(
            AmazeConfig::from_json(&std::fs::read_to_string(path)?)?,
            None,
        )]
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

fn run_unizk(args: &UnizkArgs) -> Result<(), Box<dyn std::error::Error>> {
    let mode: Mode = args.mode.parse()?;
    let mut config = UnizkConfig::preset(mode);
    for knob in &args.set {
        config.set(knob)?;
    }
    let file = File::open(&args.trace).map_err(|e| format!("{}: {e}", args.trace.display()))?;
    let records = read_jsonl(BufReader::new(file))?;
    validate(&records)?;
    let report = config.replay(&records)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{report}");
    }
    Ok(())
}
