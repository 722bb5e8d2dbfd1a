//! `zkaccel model amaze`: the AMAZE cycle model's report beside the paper's Table 1.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use zkaccel_hwmodel::amaze::{AmazeConfig, Design};

#[derive(Subcommand)]
pub enum ModelCommand {
    /// AMAZE MiMC designs: cycles, amortised latency and throughput at the paper's clocks.
    Amaze(AmazeArgs),
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
    let ModelCommand::Amaze(args) = cmd;
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
