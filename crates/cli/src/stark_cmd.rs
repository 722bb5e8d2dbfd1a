//! `zkaccel prove` and `zkaccel verify`: STARK proofs of the shipped AIRs, starky-compatible.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use zkaccel_field::PrimeField;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::{write_jsonl, Tracer};
use zkaccel_stark::shipped::{config_with, MAX_LOG_ROWS, MAX_PROOF_BYTES};
use zkaccel_stark::{ShippedAir, StarkConfig, Statement, VerifyMode};

use crate::Rejected;
use zkaccel_plot::write_atomically;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AirName {
    /// starky's Fibonacci: two columns, public inputs x0, x1 and the last row's x1.
    Fibonacci,
    /// UniZK's Factorial: two columns, row k = [k+2, (k+1)!], public input n!.
    Factorial,
}

impl From<AirName> for ShippedAir {
    fn from(a: AirName) -> Self {
        match a {
            AirName::Fibonacci => Self::Fibonacci,
            AirName::Factorial => Self::Factorial,
        }
    }
}

/// Proof file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Encoding {
    /// A versioned header (AIR, rows, configuration) and the proof: `verify` needs nothing
    /// else.
    Zkaccel,
    /// The proof alone, byte for byte what starky 1.1.0's proof encodes to (plonky2's
    /// `Write` layout); `verify` then needs `--air`, `--log-rows` and the configuration.
    Plonky2,
}

/// The configuration options shared by `prove` and `verify`.
#[derive(Args, Debug, Clone)]
pub struct ConfigArgs {
    /// A named configuration: standard-fast (starky's default: rate 1/2, 84 queries, 16
    /// grinding bits, 100 conjectured bits) or small-proofs (rate 1/8, 28 queries, 100 bits).
    #[arg(long, default_value = "standard-fast")]
    config: String,
    /// Override: log2 of the blowup (1 to 8).
    #[arg(long)]
    rate_bits: Option<usize>,
    /// Override: Merkle cap height (0 to 16).
    #[arg(long)]
    cap_height: Option<usize>,
    /// Override: proof-of-work bits (0 to 32).
    #[arg(long)]
    pow_bits: Option<u32>,
    /// Override: FRI query rounds (1 to 1024).
    #[arg(long)]
    queries: Option<usize>,
}

impl ConfigArgs {
    fn config(&self) -> Result<StarkConfig, Box<dyn std::error::Error>> {
        Ok(config_with(
            &self.config,
            self.rate_bits,
            self.cap_height,
            self.pow_bits,
            self.queries,
        )?)
    }
}

/// `zkaccel prove`.
#[derive(Args, Debug)]
pub struct ProveArgs {
    /// The AIR.
    #[arg(long, value_enum)]
    air: AirName,
    /// log2 of the number of trace rows (1 to 26).
    #[arg(long)]
    log_rows: usize,
    /// Fibonacci's seeds x0,x1 (decimal or 0x-hex, below p); default 0,1.
    #[arg(long)]
    inputs: Option<String>,
    #[command(flatten)]
    config: ConfigArgs,
    /// The file format.
    #[arg(long, value_enum, default_value = "zkaccel")]
    encoding: Encoding,
    /// Where to write the proof (atomically).
    #[arg(long)]
    output: PathBuf,
    /// Also write the proof's kernel trace here (JSON Lines, atomically): every kernel with
    /// its exact shape, dependencies and time, as the accelerator models read it.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Print the proving time by kernel class (UniZK's Table 1) and by phase.
    #[arg(long)]
    breakdown: bool,
}

/// `zkaccel verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The proof file.
    proof: PathBuf,
    /// The AIR the proof must be of (required with --encoding plonky2).
    #[arg(long, value_enum)]
    air: Option<AirName>,
    /// The number of rows (log2) the proof must be of (required with --encoding plonky2).
    #[arg(long)]
    log_rows: Option<usize>,
    /// The public inputs the proof must carry, comma-separated.
    #[arg(long)]
    inputs: Option<String>,
    /// The configuration (for --encoding plonky2; with a header, it must match if given).
    #[command(flatten)]
    config: ConfigArgs,
    /// The file format.
    #[arg(long, value_enum, default_value = "zkaccel")]
    encoding: Encoding,
    /// Check exactly what starky checks (not that ζ lies outside the trace subgroup).
    #[arg(long)]
    starky_compatible: bool,
}

fn parse_inputs(s: &str) -> Result<Vec<Goldilocks>, Box<dyn std::error::Error>> {
    s.split(',')
        .map(|v| {
            let v = v.trim();
            if v.len() > 80 {
                return Err(format!("input {:?}… is too long", &v[..16]).into());
            }
            Goldilocks::from_str_canonical(v).map_err(|e| format!("input {v:?}: {e}").into())
        })
        .collect()
}

/// A trace (column-major) and its public inputs.
pub fn run_prove(a: &ProveArgs) -> Result<(), Box<dyn std::error::Error>> {
    let config = a.config.config()?;
    let air = ShippedAir::from(a.air);
    let inputs = a.inputs.as_deref().map(parse_inputs).transpose()?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!("proving {} over 2^{} rows", air.name(), a.log_rows));
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let mut tracer = if a.trace.is_some() || a.breakdown {
        Tracer::recording()
    } else {
        Tracer::off()
    };
    let start = Instant::now();
    let proof = air.prove(a.log_rows, inputs.as_deref(), &config, &mut tracer)?;
    let elapsed = start.elapsed();
    bar.finish_and_clear();
    if let Some(path) = &a.trace {
        let mut jsonl = Vec::new();
        write_jsonl(tracer.records(), &mut jsonl)?;
        write_atomically(path, &jsonl)?;
        println!(
            "kernel trace: {} records written to {}",
            tracer.records().len(),
            path.display()
        );
    }
    if a.breakdown {
        let total = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        println!("{}", tracer.breakdown(total));
    }
    let body = proof.to_bytes()?;
    let out = match a.encoding {
        Encoding::Zkaccel => Statement {
            air,
            log_rows: a.log_rows,
            config,
        }
        .encode_file(&body),
        Encoding::Plonky2 => body.clone(),
    };
    write_atomically(&a.output, &out)?;
    let shown: Vec<String> = proof
        .public_inputs
        .iter()
        .map(|p| p.to_decimal_string())
        .collect();
    println!(
        "proved {} over 2^{} rows in {:.3} s: public inputs [{}], proof {} bytes ({} of them \
         the starky-compatible proof), written to {}",
        air.name(),
        a.log_rows,
        elapsed.as_secs_f64(),
        shown.join(", "),
        out.len(),
        body.len(),
        a.output.display()
    );
    Ok(())
}

pub fn run_verify(a: &VerifyArgs) -> Result<(), Box<dyn std::error::Error>> {
    let size = std::fs::metadata(&a.proof)?.len();
    if size > MAX_PROOF_BYTES {
        return Err(format!("{size} bytes: a proof file is at most {MAX_PROOF_BYTES}").into());
    }
    let bytes = std::fs::read(&a.proof)?;
    let (air, log_rows, config, start) = match a.encoding {
        Encoding::Zkaccel => {
            let (statement, start) = Statement::decode_header(&bytes)?;
            let mismatch = |what: &str| -> Box<dyn std::error::Error> {
                Box::new(Rejected(format!(
                    "the proof is of another {what} than expected"
                )))
            };
            if a.air.is_some_and(|x| ShippedAir::from(x) != statement.air) {
                return Err(mismatch("AIR"));
            }
            if a.log_rows.is_some_and(|x| x != statement.log_rows) {
                return Err(mismatch("number of rows"));
            }
            (statement.air, statement.log_rows, statement.config, start)
        }
        Encoding::Plonky2 => {
            let air = a.air.ok_or("--encoding plonky2 needs --air")?;
            let log_rows = a.log_rows.ok_or("--encoding plonky2 needs --log-rows")?;
            (air.into(), log_rows, a.config.config()?, 0)
        }
    };
    if !(1..=MAX_LOG_ROWS).contains(&log_rows) {
        return Err(format!("2^{log_rows} rows: supported 1 to {MAX_LOG_ROWS}").into());
    }
    let expected = a.inputs.as_deref().map(parse_inputs).transpose()?;
    let mode = if a.starky_compatible {
        VerifyMode::StarkyCompatible
    } else {
        VerifyMode::Strict
    };
    let pis = air
        .verify(
            &config,
            log_rows,
            &bytes[start..],
            expected.as_deref(),
            mode,
        )
        .map_err(|e| Rejected(e.to_string()))?;
    let shown: Vec<String> = pis.iter().map(|p| p.to_decimal_string()).collect();
    println!(
        "valid: a {} trace of 2^{log_rows} rows with public inputs [{}]",
        air.name(),
        shown.join(", ")
    );
    Ok(())
}
