//! `zkaccel prove` and `zkaccel verify`: STARK proofs of the shipped AIRs, starky-compatible.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use zkaccel_field::{Field, PrimeField};
use zkaccel_fri::{FriReductionStrategy, FriScheme, Plonky2Goldilocks};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::{write_jsonl, Tracer};
use zkaccel_stark::{
    decode, prove_traced, verify, Air, FactorialAir, FibonacciAir, StarkConfig, StarkError,
    StarkProof, VerifyMode,
};

use crate::hw_cmd::write_atomically;
use crate::Rejected;

type S = Plonky2Goldilocks;

/// The header's first bytes.
const MAGIC: &[u8; 8] = b"ZKSTARK\0";
/// The header's version.
const VERSION: u8 = 1;
/// The largest proof file `verify` reads (a 2^20-row proof is about 260 KB).
const MAX_PROOF_BYTES: u64 = 64 << 20;
/// The most rows `prove` takes: 2^MAX_LOG_ROWS.
const MAX_LOG_ROWS: usize = 26;

/// The AIRs the command line proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AirName {
    /// starky's Fibonacci: two columns, public inputs x0, x1 and the last row's x1.
    Fibonacci,
    /// UniZK's Factorial: two columns, row k = [k+2, (k+1)!], public input n!.
    Factorial,
}

impl AirName {
    fn name(self) -> &'static str {
        match self {
            Self::Fibonacci => "fibonacci",
            Self::Factorial => "factorial",
        }
    }
    fn from_name(name: &[u8]) -> Option<Self> {
        match name {
            b"fibonacci" => Some(Self::Fibonacci),
            b"factorial" => Some(Self::Factorial),
            _ => None,
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
        let mut config = StarkConfig::presets()
            .into_iter()
            .find(|(name, _)| *name == self.config)
            .map(|(_, c)| c)
            .ok_or_else(|| {
                format!(
                    "unknown configuration {:?}; known: standard-fast, small-proofs",
                    self.config
                )
            })?;
        let f = &mut config.fri_config;
        if let Some(v) = self.rate_bits {
            f.rate_bits = v;
        }
        if let Some(v) = self.cap_height {
            f.cap_height = v;
        }
        if let Some(v) = self.pow_bits {
            f.proof_of_work_bits = v;
        }
        if let Some(v) = self.queries {
            f.num_query_rounds = v;
        }
        // The security target follows the overrides: what they conjecture, at most 100.
        config.security_bits = config
            .fri_config
            .conjectured_security_bits(S::extension_bits())
            .min(config.security_bits);
        config.check::<S>()?;
        Ok(config)
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
type TraceAndInputs = (Vec<Vec<Goldilocks>>, Vec<Goldilocks>);

fn trace(
    air: AirName,
    log_rows: usize,
    inputs: Option<&str>,
) -> Result<TraceAndInputs, Box<dyn std::error::Error>> {
    if !(1..=MAX_LOG_ROWS).contains(&log_rows) {
        return Err(format!("--log-rows {log_rows}: supported 1 to {MAX_LOG_ROWS}").into());
    }
    let rows = 1usize << log_rows;
    Ok(match air {
        AirName::Fibonacci => {
            let seeds = match inputs {
                Some(s) => parse_inputs(s)?,
                None => vec![Goldilocks::ZERO, Goldilocks::ONE],
            };
            let [x0, x1] = seeds[..] else {
                return Err("Fibonacci takes two inputs, x0,x1".into());
            };
            FibonacciAir::trace(rows, x0, x1)?
        }
        AirName::Factorial => {
            if inputs.is_some() {
                return Err("Factorial takes no inputs".into());
            }
            FactorialAir::trace(rows)?
        }
    })
}

fn write_header(out: &mut Vec<u8>, air: AirName, log_rows: usize, c: &StarkConfig) {
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.push(air.name().len() as u8);
    out.extend_from_slice(air.name().as_bytes());
    out.push(log_rows as u8);
    out.extend_from_slice(&(c.security_bits as u16).to_le_bytes());
    out.push(c.num_challenges as u8);
    let f = &c.fri_config;
    out.push(f.rate_bits as u8);
    out.push(f.cap_height as u8);
    out.push(f.proof_of_work_bits as u8);
    match &f.reduction_strategy {
        FriReductionStrategy::Fixed(v) => {
            out.push(0);
            out.push(v.len() as u8);
            out.extend(v.iter().map(|&a| a as u8));
        }
        &FriReductionStrategy::ConstantArityBits(a, b) => {
            out.extend_from_slice(&[1, a as u8, b as u8])
        }
        &FriReductionStrategy::MinSize(m) => out.extend_from_slice(&[2, m.unwrap_or(0) as u8]),
    }
    out.extend_from_slice(&(f.num_query_rounds as u16).to_le_bytes());
}

/// A header's statement: the AIR, the rows, the configuration; and where the proof starts.
fn read_header(bytes: &[u8]) -> Result<(AirName, usize, StarkConfig, usize), String> {
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], String> {
        let s = bytes
            .get(at..at + n)
            .ok_or("the file ends inside its header")?;
        at += n;
        Ok(s)
    };
    if take(8)? != MAGIC {
        return Err("not a zkaccel STARK proof (no ZKSTARK header; --encoding plonky2?)".into());
    }
    let version = take(1)?[0];
    if version != VERSION {
        return Err(format!(
            "header version {version}; this build reads {VERSION}"
        ));
    }
    let len = take(1)?[0] as usize;
    let air = AirName::from_name(take(len)?).ok_or("the header names an unknown AIR")?;
    let log_rows = take(1)?[0] as usize;
    let security_bits = u16::from_le_bytes(take(2)?.try_into().expect("2")) as usize;
    let num_challenges = take(1)?[0] as usize;
    let rate_bits = take(1)?[0] as usize;
    let cap_height = take(1)?[0] as usize;
    let proof_of_work_bits = u32::from(take(1)?[0]);
    let reduction_strategy = match take(1)?[0] {
        0 => {
            let n = take(1)?[0] as usize;
            FriReductionStrategy::Fixed(take(n)?.iter().map(|&a| a as usize).collect())
        }
        1 => {
            let ab = take(2)?;
            FriReductionStrategy::ConstantArityBits(ab[0] as usize, ab[1] as usize)
        }
        2 => {
            let m = take(1)?[0] as usize;
            FriReductionStrategy::MinSize((m > 0).then_some(m))
        }
        t => return Err(format!("unknown reduction strategy tag {t}")),
    };
    let num_query_rounds = u16::from_le_bytes(take(2)?.try_into().expect("2")) as usize;
    let config = StarkConfig {
        security_bits,
        num_challenges,
        fri_config: zkaccel_fri::FriConfig {
            rate_bits,
            cap_height,
            proof_of_work_bits,
            reduction_strategy,
            num_query_rounds,
        },
    };
    config.check::<S>().map_err(|e| e.to_string())?;
    Ok((air, log_rows, config, at))
}

/// Runs `zkaccel prove`.
pub fn run_prove(a: &ProveArgs) -> Result<(), Box<dyn std::error::Error>> {
    let config = a.config.config()?;
    let (trace, pis) = trace(a.air, a.log_rows, a.inputs.as_deref())?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!(
        "proving {} over 2^{} rows",
        a.air.name(),
        a.log_rows
    ));
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let mut tracer = if a.trace.is_some() || a.breakdown {
        Tracer::recording()
    } else {
        Tracer::off()
    };
    let start = Instant::now();
    let proof = match a.air {
        AirName::Fibonacci => {
            prove_traced::<_, S>(&FibonacciAir, &config, trace, &pis, &mut tracer)
        }
        AirName::Factorial => {
            prove_traced::<_, S>(&FactorialAir, &config, trace, &pis, &mut tracer)
        }
    }?;
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
    let mut out = Vec::with_capacity(body.len() + 64);
    if a.encoding == Encoding::Zkaccel {
        write_header(&mut out, a.air, a.log_rows, &config);
    }
    out.extend_from_slice(&body);
    write_atomically(&a.output, &out)?;
    let shown: Vec<String> = pis.iter().map(|p| p.to_decimal_string()).collect();
    println!(
        "proved {} over 2^{} rows in {:.3} s: public inputs [{}], proof {} bytes ({} of them \
         the starky-compatible proof), written to {}",
        a.air.name(),
        a.log_rows,
        elapsed.as_secs_f64(),
        shown.join(", "),
        out.len(),
        body.len(),
        a.output.display()
    );
    Ok(())
}

fn check<A: Air>(
    air: &A,
    config: &StarkConfig,
    log_rows: usize,
    body: &[u8],
    expected_inputs: Option<&[Goldilocks]>,
    mode: VerifyMode,
) -> Result<Vec<Goldilocks>, Box<dyn std::error::Error>> {
    let verdict =
        |e: StarkError| -> Box<dyn std::error::Error> { Box::new(Rejected(e.to_string())) };
    let proof: StarkProof<S> = decode(air, config, log_rows, body).map_err(verdict)?;
    if let Some(want) = expected_inputs {
        if proof.public_inputs != want {
            return Err(Box::new(Rejected(
                "the proof's public inputs are not the ones expected".into(),
            )));
        }
    }
    verify(air, config, log_rows, &proof, mode).map_err(verdict)?;
    Ok(proof.public_inputs)
}

/// Runs `zkaccel verify`.
pub fn run_verify(a: &VerifyArgs) -> Result<(), Box<dyn std::error::Error>> {
    let size = std::fs::metadata(&a.proof)?.len();
    if size > MAX_PROOF_BYTES {
        return Err(format!("{size} bytes: a proof file is at most {MAX_PROOF_BYTES}").into());
    }
    let bytes = std::fs::read(&a.proof)?;
    let (air, log_rows, config, start) = match a.encoding {
        Encoding::Zkaccel => {
            let (air, log_rows, config, start) = read_header(&bytes)?;
            let mismatch = |what: &str| -> Box<dyn std::error::Error> {
                Box::new(Rejected(format!(
                    "the proof is of another {what} than expected"
                )))
            };
            if a.air.is_some_and(|x| x != air) {
                return Err(mismatch("AIR"));
            }
            if a.log_rows.is_some_and(|x| x != log_rows) {
                return Err(mismatch("number of rows"));
            }
            (air, log_rows, config, start)
        }
        Encoding::Plonky2 => {
            let air = a.air.ok_or("--encoding plonky2 needs --air")?;
            let log_rows = a.log_rows.ok_or("--encoding plonky2 needs --log-rows")?;
            (air, log_rows, a.config.config()?, 0)
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
    let body = &bytes[start..];
    let pis = match air {
        AirName::Fibonacci => check(
            &FibonacciAir,
            &config,
            log_rows,
            body,
            expected.as_deref(),
            mode,
        )?,
        AirName::Factorial => check(
            &FactorialAir,
            &config,
            log_rows,
            body,
            expected.as_deref(),
            mode,
        )?,
    };
    let shown: Vec<String> = pis.iter().map(|p| p.to_decimal_string()).collect();
    println!(
        "valid: a {} trace of 2^{log_rows} rows with public inputs [{}]",
        air.name(),
        shown.join(", ")
    );
    Ok(())
}
