//! The one error type of every model in the crate.

use std::fmt;

/// Why a model refused its configuration, its input or a sweep. Every model (AMAZE, the FPGA
/// NTT, UniZK, AcclMT) reports through this type, each variant with its values as fields.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// A parameter outside the range the model takes.
    #[error("{name} = {}: expected {range}", Num(.value))]
    OutOfRange {
        /// The parameter (a knob's name).
        name: String,
        /// Its value.
        value: f64,
        /// The values the model takes.
        range: Range,
    },
    /// A value that does not parse as the parameter's kind.
    #[error("{name}: `{value}` is not {expected}")]
    NotANumber {
        /// The parameter.
        name: String,
        /// The text given, at most 40 characters of it.
        value: String,
        /// What it must be ("an integer", "a number", "on or off").
        expected: &'static str,
    },
    /// A name (a knob, a design, a workload, a mode, a core) the model does not know.
    #[error("unknown {what} `{name}`; known: {known}")]
    Unknown {
        /// What was named.
        what: &'static str,
        /// The name given, at most 40 characters of it.
        name: String,
        /// The names the model knows.
        known: Names,
    },
    /// Text that is not of the form the model reads (`key=value`, `knob=v1,v2,…`).
    #[error("`{text}`: expected {expected}")]
    Syntax {
        /// The text given, at most 80 characters of it.
        text: String,
        /// The form expected.
        expected: &'static str,
    },
    /// A sweep of no points or of more than the model runs.
    #[error("{knob}: 1 to {max} values, got {got}")]
    SweepPoints {
        /// The knob swept.
        knob: String,
        /// The values given.
        got: usize,
        /// The most the sweep runs.
        max: usize,
    },
    /// A trace with no kernel records.
    #[error("the trace holds no kernels")]
    EmptyTrace,
    /// A parameter whose value the model cannot take, for a reason other than its range.
    #[error("{name} = {}: {reason}", Num(.value))]
    Invalid {
        /// The parameter.
        name: String,
        /// Its value.
        value: f64,
        /// Why.
        reason: &'static str,
    },
    /// A transform that is not a positive whole number of sub-tasks, or too large to count.
    #[error(
        "{points} points: must be a positive multiple of the sub-task size {subtask} and below 2^40"
    )]
    Points {
        /// The task size asked for.
        points: u64,
        /// The sub-task size.
        subtask: u64,
    },
    /// Figures calibrated on the paper's cores only, asked of another.
    #[error(
        "the end-to-end model is calibrated on the paper's core and its PipeZK replica, not {core}"
    )]
    Uncalibrated {
        /// The core asked for.
        core: &'static str,
    },
    /// A UniZK chip without VSAs of at least 6×6 PEs, a clock or memory bandwidth.
    #[error("the chip needs VSAs of at least 6×6 PEs, a clock and memory bandwidth")]
    UnusableChip,
    /// A built-in workload's shape that the trace front end refused (the shipped ones are
    /// tested not to be).
    #[error("workload {workload}: {message}")]
    Shape {
        /// The workload.
        workload: String,
        /// What the front end said.
        message: String,
    },
    /// A sweep's row that the CSV writer refused (a model's row type that is not flat: a bug
    /// of the model, not of the input).
    #[error("sweep CSV: {message}")]
    Csv {
        /// What the writer said.
        message: String,
    },
    /// An AcclMT tree of a leaf count the model does not build: a power of the arity within
    /// the buffers' capacity and the simulation's bound.
    #[error("{leaves} leaves: the model builds a power of {arity} from {min} to {max}")]
    Leaves {
        /// The leaves asked for.
        leaves: u64,
        /// The tree's arity.
        arity: u64,
        /// The fewest leaves built.
        min: u64,
        /// The most.
        max: u64,
    },
    /// Parameters of the AcclMT batch model that the RTL controller does not have.
    #[error(
        "an initial load of {initial_load_ns} ns and an RHE dispatch of {rhe_dispatch_cycles} \
         cycles: the RTL has neither (the batch model prices them)"
    )]
    NotInRtl {
        /// The initial load.
        initial_load_ns: f64,
        /// The RHE dispatch overhead.
        rhe_dispatch_cycles: u64,
    },
    /// A Poseidon instance whose state width is not the controller's `arity + 1`.
    #[error("a state of width {width} on a controller of arity {arity}")]
    WidthForArity {
        /// The instance's width.
        width: u32,
        /// The controller's arity.
        arity: u32,
    },
    /// The AcclMT controller model stopped before the tree was built.
    #[error(
        "the controller model stopped at cycle {cycle} ({fed} of {elements} elements taken): \
         stalled, or past {max_cycles} cycles"
    )]
    Stalled {
        /// The cycle it stopped at.
        cycle: u64,
        /// Elements taken.
        fed: u64,
        /// Elements of the tree.
        elements: u64,
        /// The most cycles simulated.
        max_cycles: u64,
    },
    /// AMAZE's Russian-peasant multiplier is sequential and cannot be pipelined.
    #[error("a Russian-peasant multiplier cannot be pipelined: use arch = sequential")]
    PeasantPipelined,
    /// A configuration file that does not parse (the parser's message).
    #[error("configuration: {message}")]
    ConfigFile {
        /// What the parser said.
        message: String,
    },
}

/// The values a parameter takes, for messages: `min to max`, `at least min`, or `positive`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// The least value taken.
    pub min: f64,
    /// The largest value taken (`f64::INFINITY` for no bound).
    pub max: f64,
}

impl Range {
    /// `min ..= max`.
    pub fn new(min: f64, max: f64) -> Self {
        Self { min, max }
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.max.is_infinite() {
            write!(f, "at least {}", Num(&self.min))
        } else {
            write!(f, "{} to {}", Num(&self.min), Num(&self.max))
        }
    }
}

/// A value for messages, short whatever its size: whole numbers below 10^15 as integers, the
/// rest as Rust prints them, in scientific notation past 10^15 or below 10^-4 (so 1e308 is not
/// printed back as 309 digits).
pub struct Num<'a>(pub &'a f64);

impl fmt::Display for Num<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = *self.0;
        let a = v.abs();
        if v.is_finite() && a != 0.0 && !(1e-4..1e15).contains(&a) {
            write!(f, "{v:e}")
        } else {
            write!(f, "{v}")
        }
    }
}

/// A list of names, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names(pub &'static [&'static str]);

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(", "))
    }
}

/// [`ModelError::OutOfRange`] for `name = value`, taken from `min` to `max`.
pub(crate) fn out_of_range(name: &str, value: f64, min: f64, max: f64) -> ModelError {
    ModelError::OutOfRange {
        name: name.to_owned(),
        value,
        range: Range::new(min, max),
    }
}

/// [`ModelError::Invalid`] for `name = value`, for `reason`.
pub(crate) fn invalid(name: &str, value: f64, reason: &'static str) -> ModelError {
    ModelError::Invalid {
        name: name.to_owned(),
        value,
        reason,
    }
}

/// At most `n` characters of `text`.
pub(crate) fn shown(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}
