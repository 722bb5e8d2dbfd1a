//! `zkaccel prove` and `zkaccel verify`: STARK proofs of the shipped AIRs, starky-compatible.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use zkaccel_field::PrimeField;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::{write_jsonl, Tracer};
use zkaccel_plonky2::shipped::{
    config_with, preset, ConfigOverrides, ShippedScheme, MAX_LOG_ROWS, MAX_PROOF_BYTES,
};
use zkaccel_plonky2::Plonky2Encoding as _;
use zkaccel_plonky2::{ShippedAir, Statement};
use zkaccel_stark::{
    ConfigRequirement, StarkConfig, VerifierPolicy, VerifyMode, DEFAULT_MIN_SECURITY_BITS,
};

use crate::inputs::{parse_one, Origin};
use crate::InFile;
use zkaccel_plot::files::{check_distinct_outputs, read_limited, FileSet};

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
    /// `prove` defaults to standard-fast; `verify` requires the proof's configuration to be
    /// this one (with the overrides given) when it is named.
    #[arg(long, value_enum)]
    config: Option<ConfigName>,
    /// The security target in bits (default: the preset's 100). `prove` refuses parameters
    /// that conjecture less than the target: lower it here to prove a weaker proof on purpose.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=128))]
    security_bits: Option<u16>,
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

/// The named configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ConfigName {
    /// starky's `standard_fast_config`.
    StandardFast,
    /// plonky2's recursion FRI parameters: smaller proofs, a slower prover.
    SmallProofs,
}

impl ConfigName {
    fn name(self) -> &'static str {
        match self {
            Self::StandardFast => "standard-fast",
            Self::SmallProofs => "small-proofs",
        }
    }
}

impl ConfigArgs {
    fn overrides(&self) -> ConfigOverrides {
        ConfigOverrides {
            security_bits: self.security_bits.map(usize::from),
            rate_bits: self.rate_bits,
            cap_height: self.cap_height,
            pow_bits: self.pow_bits,
            queries: self.queries,
        }
    }

    /// The configuration to prove (or to read a bare proof) with.
    fn config(&self) -> Result<StarkConfig, Box<dyn std::error::Error>> {
        let name = self.config.unwrap_or(ConfigName::StandardFast).name();
        Ok(config_with(name, &self.overrides())?)
    }

    /// What the flags given require of a proof's configuration: all of a named preset's
    /// parameters (with the overrides), else the overrides alone.
    fn requirement(&self) -> ConfigRequirement {
        match self.config {
            Some(name) => ConfigRequirement::exactly(
                &self
                    .overrides()
                    .apply(preset(name.name()).expect("a known preset")),
            ),
            None => self.overrides().requirement(),
        }
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
    /// The configuration: with --encoding plonky2, the one the proof was made under; with a
    /// header, each flag given must equal the header's parameter or the proof is rejected.
    #[command(flatten)]
    config: ConfigArgs,
    /// The least conjectured security accepted, in bits (1 to 128): a proof whose
    /// configuration conjectures less is rejected whatever else it shows.
    #[arg(long, default_value_t = DEFAULT_MIN_SECURITY_BITS as u16,
          value_parser = clap::value_parser!(u16).range(1..=128))]
    min_security_bits: u16,
    /// The file format.
    #[arg(long, value_enum, default_value = "zkaccel")]
    encoding: Encoding,
    /// Check exactly what starky checks (not that ζ lies outside the trace subgroup).
    #[arg(long)]
    starky_compatible: bool,
}

fn parse_inputs(s: &str) -> Result<Vec<Goldilocks>, Box<dyn std::error::Error>> {
    if s.len() > 4096 {
        return Err(format!("--inputs: {} bytes; at most 4096", s.len()).into());
    }
    s.split(',')
        .enumerate()
        .map(|(i, v)| {
            parse_one::<Goldilocks>(v, Origin::Option("--inputs"))
                .map_err(|e| format!("value {} of {e}", i + 1).into())
        })
        .collect()
}

/// The conjectured security of `config`, for the success lines.
fn security_line(config: &StarkConfig) -> String {
    format!(
        "{} conjectured bits of security (target {})",
        config.conjectured_security_bits::<ShippedScheme>(),
        config.security_bits
    )
}

/// A trace (column-major) and its public inputs.
pub fn run_prove(a: &ProveArgs) -> Result<(), Box<dyn std::error::Error>> {
    check_distinct_outputs(&[
        ("--output", Some(&a.output)),
        ("--trace", a.trace.as_deref()),
    ])?;
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
    let body = proof.to_bytes()?;
    let out = match a.encoding {
        Encoding::Zkaccel => Statement {
            air,
            log_rows: a.log_rows,
            config: config.clone(),
        }
        .encode_file(&body),
        Encoding::Plonky2 => body.clone(),
    };
    // Both files are written whole, or neither.
    let mut files = FileSet::new();
    if let Some(path) = &a.trace {
        let mut jsonl = Vec::new();
        write_jsonl(tracer.records(), &mut jsonl)?;
        files.add(path, &jsonl)?;
    }
    files.add(&a.output, &out)?;
    files.commit()?;
    if let Some(path) = &a.trace {
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
    let shown: Vec<String> = proof
        .public_inputs
        .iter()
        .map(|p| p.to_decimal_string())
        .collect();
    println!(
        "proved {} over 2^{} rows in {:.3} s: public inputs [{}], {}, proof {} bytes ({} of \
         them the starky-compatible proof), written to {}",
        air.name(),
        a.log_rows,
        elapsed.as_secs_f64(),
        shown.join(", "),
        security_line(&config),
        out.len(),
        body.len(),
        a.output.display()
    );
    Ok(())
}

pub fn run_verify(a: &VerifyArgs) -> Result<(), Box<dyn std::error::Error>> {
    let bytes = read_limited(&a.proof, MAX_PROOF_BYTES, "a proof file")?;
    let policy = VerifierPolicy {
        min_security_bits: usize::from(a.min_security_bits),
        required: a.config.requirement(),
    };
    let (statement, start) = match a.encoding {
        Encoding::Zkaccel => Statement::decode_header(&bytes).map_err(|e| InFile {
            path: a.proof.clone(),
            source: Box::new(e),
        })?,
        Encoding::Plonky2 => {
            let air = a.air.ok_or("--encoding plonky2 needs --air")?;
            let log_rows = a.log_rows.ok_or("--encoding plonky2 needs --log-rows")?;
            let statement = Statement {
                air: air.into(),
                log_rows,
                config: a.config.config()?,
            };
            (statement, 0)
        }
    };
    let Statement {
        air,
        log_rows,
        ref config,
    } = statement;
    if !(1..=MAX_LOG_ROWS).contains(&log_rows) {
        return Err(format!("2^{log_rows} rows: supported 1 to {MAX_LOG_ROWS}").into());
    }
    let expected = a.inputs.as_deref().map(parse_inputs).transpose()?;
    if let Some(want) = &expected {
        let takes = air.public_input_count();
        if want.len() != takes {
            return Err(format!(
                "--inputs: {} values, but a {} proof has {takes} public inputs",
                want.len(),
                air.name()
            )
            .into());
        }
    }
    // Every error from here on carries its class: a proof that is not an encoding, is of
    // another statement or is false exits 1; arguments the verifier refuses exit 2.
    statement.check(a.air.map(ShippedAir::from), a.log_rows, &policy)?;
    let mode = if a.starky_compatible {
        VerifyMode::StarkyCompatible
    } else {
        VerifyMode::Strict
    };
    let pis = air.verify(
        config,
        log_rows,
        &bytes[start..],
        expected.as_deref(),
        mode,
        &policy,
    )?;
    let shown: Vec<String> = pis.iter().map(|p| p.to_decimal_string()).collect();
    println!(
        "valid: a {} trace of 2^{log_rows} rows with public inputs [{}], {}",
        air.name(),
        shown.join(", "),
        security_line(config)
    );
    Ok(())
}
