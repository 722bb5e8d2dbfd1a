//! `zkaccel ntt`: one transform of a file or of random values, timed.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::json;
use zkaccel_field::PrimeField;
use zkaccel_kernel_trace::{
    write_jsonl, Kernel, KernelSink, NttLayout, NttOrder, Phase, TraceField, Tracer,
};
use zkaccel_ntt::{Algorithm, NttField, NttPlan, Order, DEFAULT_CORE_LOG};

use crate::field_arg::{FieldArg, SCALAR_FIELDS};
use crate::inputs::{alloc_within, generate_rows, parse_size, read_values_as, ValueMode};
use zkaccel_plot::files::{check_distinct_outputs, AtomicFile, FileSet};
use zkaccel_registry::{FieldId, FieldVisitor, RegisteredField};

type Boxed = Box<dyn std::error::Error>;

/// Input and output orders.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OrderName {
    /// Natural in, natural out.
    Nn,
    /// Natural in, bit-reversed out.
    Nr,
    /// Bit-reversed in, natural out.
    Rn,
    /// Bit-reversed in, bit-reversed out.
    Rr,
}

impl From<OrderName> for Order {
    fn from(o: OrderName) -> Self {
        match o {
            OrderName::Nn => Order::NN,
            OrderName::Nr => Order::NR,
            OrderName::Rn => Order::RN,
            OrderName::Rr => Order::RR,
        }
    }
}

#[derive(Args)]
pub struct NttArgs {
    /// The field.
    #[arg(long, value_parser = FieldArg(SCALAR_FIELDS))]
    field: FieldId,
    /// Coefficients from evaluations instead of evaluations from coefficients.
    #[arg(long)]
    inverse: bool,
    /// On the coset shifted by the field's multiplicative generator.
    #[arg(long)]
    coset: bool,
    /// Input and output orders.
    #[arg(long, value_enum, default_value = "nn")]
    order: OrderName,
    /// Values, one per line (decimal or 0x hex); the count must be a power of two.
    #[arg(long, conflicts_with = "random", required_unless_present = "random")]
    input: Option<PathBuf>,
    /// Transform 2^LOG_N random values instead (ChaCha8, --seed).
    #[arg(long, value_name = "LOG_N")]
    random: Option<usize>,
    /// Seed of the random values.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the result here, one value per line in decimal (atomically).
    #[arg(long)]
    output: Option<PathBuf>,
    /// `log2` of the four-step core (sub-transforms of at most 2^K points).
    #[arg(long, default_value_t = DEFAULT_CORE_LOG)]
    core_log: usize,
    /// Plain radix-2 over the whole size instead of the four-step decomposition.
    #[arg(long)]
    radix2: bool,
    /// Print a JSON object instead of the one-line summary.
    #[arg(long)]
    json: bool,
    /// The most memory the values may take (bytes; K, M, G suffixes).
    #[arg(long, default_value = "4G")]
    memory_budget: String,
    /// Write a kernel trace of the transform here (one `ntt` record with its time, JSON
    /// Lines, atomically), e.g. for `zkaccel model ntt-fpga replay --trace`.
    #[arg(long)]
    trace: Option<PathBuf>,
}

impl From<OrderName> for NttOrder {
    fn from(o: OrderName) -> Self {
        match o {
            OrderName::Nn => NttOrder::Nn,
            OrderName::Nr => NttOrder::Nr,
            OrderName::Rn => NttOrder::Rn,
            OrderName::Rr => NttOrder::Rr,
        }
    }
}

fn transform<F: PrimeField + NttField>(a: &NttArgs, field: TraceField) -> Result<(), Boxed> {
    check_distinct_outputs(&[
        ("--output", a.output.as_deref()),
        ("--trace", a.trace.as_deref()),
    ])?;
    let budget = parse_size(&a.memory_budget)?;
    if a.radix2 && a.core_log != DEFAULT_CORE_LOG {
        return Err("--core-log applies to the four-step transform, not with --radix2".into());
    }
    if !(1..=F::TWO_ADICITY).contains(&a.core_log) {
        return Err(format!(
            "--core-log {}: {} supports cores of 2^1 to 2^{}",
            a.core_log,
            F::NAME,
            F::TWO_ADICITY
        )
        .into());
    }
    let values: Vec<F> = match (&a.input, a.random) {
        (Some(path), _) => {
            // As many values as the budget holds, and no more than the largest transform.
            let fit = budget / core::mem::size_of::<F>() as u64;
            let max = fit
                .min(1 << F::TWO_ADICITY)
                .try_into()
                .unwrap_or(usize::MAX);
            read_values_as(
                &[],
                Some(path),
                ValueMode::Canonical,
                max,
                &format!(
                    "a {} transform within --memory-budget (at most 2^{})",
                    F::NAME,
                    F::TWO_ADICITY
                ),
            )?
        }
        (None, Some(log_n)) => {
            if log_n > F::TWO_ADICITY {
                return Err(format!(
                    "--random {log_n}: {} supports transforms up to 2^{}",
                    F::NAME,
                    F::TWO_ADICITY
                )
                .into());
            }
            let mut v = alloc_within(
                1u64 << log_n,
                F::ZERO,
                &format!("a transform of 2^{log_n} {} elements", F::NAME),
                budget,
                "--memory-budget",
            )?;
            generate_rows(&mut v, 1, 0, Some(a.seed));
            v
        }
        (None, None) => return Err("give --input FILE or --random LOG_N".into()),
    };
    let len = values.len();
    if !len.is_power_of_two() {
        return Err(zkaccel_ntt::NttError::NotPowerOfTwo { len }.into());
    }
    let log_n = len.trailing_zeros() as usize;
    let algorithm = if a.radix2 {
        Algorithm::Radix2
    } else {
        Algorithm::FourStep {
            core_log: a.core_log,
        }
    };
    let plan = NttPlan::<F>::with_algorithm(log_n, algorithm)?;
    let order = Order::from(a.order);
    let mut data = values;
    let start = Instant::now();
    match (a.inverse, a.coset) {
        (false, false) => plan.forward(&mut data, order)?,
        (true, false) => plan.inverse(&mut data, order)?,
        (false, true) => plan.coset_forward(&mut data, F::GENERATOR, order)?,
        (true, true) => plan.coset_inverse(&mut data, F::GENERATOR, order)?,
    }
    let elapsed = start.elapsed();
    let seconds = elapsed.as_secs_f64();
    let mut files = FileSet::new();
    let mut output = None;
    if let Some(path) = &a.trace {
        let mut tracer = Tracer::recording();
        tracer.record_elapsed(Phase::STANDALONE, &[], elapsed, || Kernel::Ntt {
            field,
            log_n: log_n as u32,
            batch: 1,
            inverse: a.inverse,
            coset: a.coset,
            order: a.order.into(),
            layout: NttLayout::PolyMajor,
            zero_log: 0,
        });
        let mut jsonl = Vec::new();
        write_jsonl(tracer.records(), &mut jsonl)?;
        files.add(path, &jsonl)?;
    }
    if let Some(path) = &a.output {
        // Streamed to the file (a 2^28-point transform's text would not fit beside it).
        let mut out = AtomicFile::create(path)?;
        let mut line = String::new();
        for v in &data {
            line.clear();
            let _ = writeln!(line, "{}", v.to_decimal_string());
            out.write_all(line.as_bytes())
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        output = Some(out);
    }
    // The trace and the values appear together, or neither does.
    files.commit()?;
    if let Some(out) = output {
        out.commit()?;
    }
    let kind = format!(
        "{}{}",
        if a.coset { "coset " } else { "" },
        if a.inverse { "inverse" } else { "forward" }
    );
    if a.json {
        println!(
            "{}",
            json!({
                "field": F::NAME, "log_n": log_n, "transform": kind,
                "order": format!("{:?}", order), "algorithm": format!("{algorithm:?}"),
                "threads": rayon::current_num_threads(), "seconds": seconds,
                "output": a.output.as_ref().map(|p| p.display().to_string()),
            })
        );
    } else {
        println!(
            "{} NTT ({kind}, {:?}) of 2^{log_n} {} elements: {:.3} ms on {} threads",
            F::NAME,
            order,
            F::NAME,
            seconds * 1e3,
            rayon::current_num_threads()
        );
    }
    Ok(())
}

/// Runs `zkaccel ntt`.
pub fn run(a: &NttArgs) -> Result<(), Boxed> {
    /// [`transform`] on the field `--field` names.
    struct Transform<'a>(&'a NttArgs);
    impl FieldVisitor for Transform<'_> {
        type Output = Result<(), Boxed>;
        fn visit<F: RegisteredField>(self) -> Self::Output {
            transform::<F>(self.0, F::ID.trace_field())
        }
    }
    a.field.visit(Transform(a))
}
