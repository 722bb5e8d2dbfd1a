//! Cycle model of the AMAZE MiMC designs (AMAZE, ICCAD'24, §4-5, Table 1).
//!
//! The model is structural, not fitted: it composes the same pieces the RTL in `hw/amaze` is
//! built from.
//!
//! - **Modular multiplier latency** `L`: Barrett is three integer products in sequence; each
//!   takes the integer multiplier's stages plus, for the chunked multiplier, a transfer register
//!   (§4.3): `3·(3 + 1) = 12` (chunked) or `3·1 = 3` (plain `*`).
//! - **Exponentiation schedule**: the products of `x^d` (for `d = 7`: `x², x³ = x²·x,
//!   x⁴ = x²·x², x⁷ = x⁴·x³`) list-scheduled on `m` multipliers: 4 levels on one, 3 on two or
//!   more (Fig. 6).
//! - **Pipelined** designs interleave a batch of `S = L + 1` ciphers (one transfer register per
//!   level, Fig. 7); a round takes `levels·S + 1` cycles (the `+1` adds key and constant), a
//!   batch `rounds·(levels·S + 1)`.
//! - **Sequential** ("b" designs, AMZ-3) run one cipher under an FSM: per round ten control
//!   cycles and, per level, one issue cycle plus the sequential multiplier's start-to-done time
//!   (8 for the one-state-per-line Barrett FSM, `n + 1` for Russian peasant); per cipher two
//!   more (accept, final key addition).

use serde::{Deserialize, Serialize};

/// Whether independent ciphers share the datapath.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arch {
    /// A batch of `L + 1` interleaved ciphers.
    Pipelined,
    /// One cipher at a time under an FSM.
    Sequential,
}

/// How a modular multiplication is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reduction {
    /// Barrett with the three-stage chunked integer multiplier (§4.2).
    BarrettChunked,
    /// Barrett with plain `x*y` integer products.
    BarrettPlain,
    /// Russian peasant, one bit per cycle (§4.3.1).
    Peasant,
}

/// The seven designs of Table 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Design {
    /// Pipelined, chunked Barrett, one multiplier.
    #[serde(rename = "AMZ-1")]
    Amz1,
    /// Pipelined, plain Barrett, one multiplier.
    #[serde(rename = "AMZ-1a")]
    Amz1a,
    /// Sequential, plain Barrett, one multiplier.
    #[serde(rename = "AMZ-1b")]
    Amz1b,
    /// Pipelined, chunked Barrett, two multipliers.
    #[serde(rename = "AMZ-2")]
    Amz2,
    /// Pipelined, plain Barrett, two multipliers.
    #[serde(rename = "AMZ-2a")]
    Amz2a,
    /// Sequential, plain Barrett, two multipliers.
    #[serde(rename = "AMZ-2b")]
    Amz2b,
    /// Sequential, Russian peasant, two multipliers.
    #[serde(rename = "AMZ-3")]
    Amz3,
}

impl Design {
    /// Every design, in Table 1's order.
    pub const ALL: [Design; 7] = [
        Self::Amz1,
        Self::Amz1a,
        Self::Amz1b,
        Self::Amz2,
        Self::Amz2a,
        Self::Amz2b,
        Self::Amz3,
    ];

    /// The name used in the paper (`AMZ-1` …).
    pub fn name(self) -> &'static str {
        match self {
            Self::Amz1 => "AMZ-1",
            Self::Amz1a => "AMZ-1a",
            Self::Amz1b => "AMZ-1b",
            Self::Amz2 => "AMZ-2",
            Self::Amz2a => "AMZ-2a",
            Self::Amz2b => "AMZ-2b",
            Self::Amz3 => "AMZ-3",
        }
    }

    /// The paper's Table 1 row for this design (Stratix V GT, Quartus).
    pub fn paper(self) -> PaperRow {
        let (batch, cycles, clock_mhz, latency_us, throughput, alms, dsps) = match self {
            Self::Amz1 => (13, 4823, 128.27, 2.892, 345_781.0, 20_011, 226),
            Self::Amz1a => (4, 1547, 43.47, 8.896, 112_410.0, 21_898, 228),
            Self::Amz1b => (1, 4189, 44.89, 93.316, 10_716.0, 21_449, 228),
            Self::Amz2 => (13, 3640, 125.75, 2.226, 449_236.0, 59_765, 218),
            Self::Amz2a => (4, 1183, 39.97, 7.399, 135_153.0, 68_933, 224),
            Self::Amz2b => (1, 3370, 44.07, 76.469, 13_077.0, 68_236, 224),
            Self::Amz3 => (1, 72_028, 151.45, 475.589, 2_102.0, 4_514, 0),
        };
        PaperRow {
            batch,
            cycles,
            clock_mhz,
            amortised_latency_us: latency_us,
            amortised_throughput: throughput,
            alms,
            dsps,
        }
    }
}

impl std::str::FromStr for Design {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<Self, ModelError> {
        Self::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ModelError::Unknown {
                what: "AMAZE design",
                name: crate::error::shown(s, 40),
                known: crate::Names(&[
                    "AMZ-1", "AMZ-1a", "AMZ-1b", "AMZ-2", "AMZ-2a", "AMZ-2b", "AMZ-3",
                ]),
            })
    }
}

/// One row of the paper's Table 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PaperRow {
    /// Ciphers per batch.
    pub batch: u32,
    /// Cycles for a batch.
    pub cycles: u64,
    /// Clock frequency reached on Stratix V GT.
    pub clock_mhz: f64,
    /// Amortised latency per cipher, µs.
    pub amortised_latency_us: f64,
    /// Amortised ciphers per second.
    pub amortised_throughput: f64,
    /// Adaptive logic modules.
    pub alms: u32,
    /// DSP blocks.
    pub dsps: u32,
}

/// The model's errors ([`crate::ModelError`], re-exported under the name this module had for
/// them).
pub use crate::ModelError;

/// One AMAZE design point. Every field has the paper's value in the presets; any may be changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmazeConfig {
    /// A label for reports.
    pub name: String,
    /// Pipelined batch or sequential FSM.
    pub arch: Arch,
    /// The modular-multiplication algorithm.
    pub reduction: Reduction,
    /// Pipeline stages of the chunked integer multiplier (3 in the paper).
    pub int_mul_stages: u32,
    /// Number of modular multipliers (1 or 2 in the paper).
    pub multipliers: u32,
    /// The S-box exponent `d` (7 for MiMC7).
    pub exponent: u64,
    /// Rounds (91 for MiMC7 on BN254).
    pub rounds: u32,
    /// Ciphers per batch; `None` = as many as the pipeline holds (`L + 1`), 1 when sequential.
    pub batch: Option<u32>,
    /// Bits of the field modulus `n` (Russian-peasant iterations), 254 for BN254.
    pub field_bits: u32,
    /// Control cycles per round of the sequential FSM.
    pub sequential_round_overhead: u32,
    /// Clock frequency for the time figures (the paper's, by default).
    pub clock_mhz: f64,
}

impl Default for AmazeConfig {
    /// AMZ-1, the paper's featured design.
    fn default() -> Self {
        Self::preset(Design::Amz1)
    }
}

impl AmazeConfig {
    /// The configuration of a Table 1 design.
    pub fn preset(design: Design) -> Self {
        let (arch, reduction, multipliers) = match design {
            Design::Amz1 => (Arch::Pipelined, Reduction::BarrettChunked, 1),
            Design::Amz1a => (Arch::Pipelined, Reduction::BarrettPlain, 1),
            Design::Amz1b => (Arch::Sequential, Reduction::BarrettPlain, 1),
            Design::Amz2 => (Arch::Pipelined, Reduction::BarrettChunked, 2),
            Design::Amz2a => (Arch::Pipelined, Reduction::BarrettPlain, 2),
            Design::Amz2b => (Arch::Sequential, Reduction::BarrettPlain, 2),
            Design::Amz3 => (Arch::Sequential, Reduction::Peasant, 2),
        };
        Self {
            name: design.name().to_owned(),
            arch,
            reduction,
            int_mul_stages: 3,
            multipliers,
            exponent: 7,
            rounds: 91,
            batch: None,
            field_bits: 254,
            sequential_round_overhead: 10,
            clock_mhz: design.paper().clock_mhz,
        }
    }

    /// Reads a configuration from JSON (every field required; unknown fields rejected).
    ///
    /// # Errors
    /// [`ModelError::ConfigFile`] when the text is not a valid configuration.
    pub fn from_json(text: &str) -> Result<Self, ModelError> {
        serde_json::from_str(text).map_err(|e| ModelError::ConfigFile {
            message: e.to_string(),
        })
    }

    /// Latency of one modular multiplication in the pipelined datapath (inputs to registered
    /// output), or the sequential multiplier's start-to-done time.
    pub fn multiplier_latency(&self) -> u32 {
        match (self.arch, self.reduction) {
            (Arch::Pipelined, Reduction::BarrettChunked) => 3 * (self.int_mul_stages + 1),
            (Arch::Pipelined, _) => 3,
            // Load, one state per line of Algorithm 2 (six), done.
            (Arch::Sequential, Reduction::BarrettChunked | Reduction::BarrettPlain) => 8,
            // Load, then n iterations; done is seen the cycle after the last.
            (Arch::Sequential, Reduction::Peasant) => self.field_bits + 1,
        }
    }

    /// Levels of the `x^d` schedule on the configured number of multipliers.
    pub fn exponent_levels(&self) -> u32 {
        schedule_levels(self.exponent, self.multipliers)
    }

    fn validate(&self) -> Result<(), ModelError> {
        let ranges = [
            ("multipliers", self.multipliers as u64, 1.0, 8.0),
            ("exponent", self.exponent, 3.0, f64::INFINITY),
            ("rounds", self.rounds as u64, 1.0, f64::INFINITY),
            ("int_mul_stages", self.int_mul_stages as u64, 1.0, 8.0),
            ("field_bits", self.field_bits as u64, 2.0, 1024.0),
        ];
        for (name, value, min, max) in ranges {
            let value = value as f64;
            if !(min..=max).contains(&value) {
                return Err(ModelError::OutOfRange {
                    name: name.into(),
                    value,
                    range: crate::Range::new(min, max),
                });
            }
        }
        if self.arch == Arch::Pipelined && self.reduction == Reduction::Peasant {
            return Err(ModelError::PeasantPipelined);
        }
        if !(self.clock_mhz > 0.0 && self.clock_mhz.is_finite()) {
            return Err(ModelError::Invalid {
                name: "clock_mhz".into(),
                value: self.clock_mhz,
                reason: "must be positive and finite",
            });
        }
        Ok(())
    }

    /// The model's figures for this design.
    ///
    /// # Errors
    /// [`ModelError`] for an impossible configuration (a pipelined Russian peasant, a batch
    /// larger than the pipeline holds, parameters out of range).
    pub fn report(&self) -> Result<AmazeReport, ModelError> {
        self.validate()?;
        let l = self.multiplier_latency();
        let levels = self.exponent_levels();
        let (slots, cycles_per_round, overhead) = match self.arch {
            // Each level: L cycles in the multiplier, one in the transfer register.
            Arch::Pipelined => (l + 1, levels * (l + 1) + 1, 0),
            // Each level: one issue cycle, then L; per cipher: accept and the final addition.
            Arch::Sequential => (1, self.sequential_round_overhead + levels * (1 + l), 2),
        };
        let batch = self.batch.unwrap_or(slots);
        if batch == 0 || batch > slots {
            return Err(ModelError::OutOfRange {
                name: "batch (ciphers in flight: at most the multiplier latency + 1, 1 when sequential)".into(),
                value: batch as f64,
                range: crate::Range::new(1.0, slots as f64),
            });
        }
        let cycles = self.rounds as u64 * cycles_per_round as u64 + overhead;
        let f = self.clock_mhz * 1e6;
        let products = crate::amaze::products(self.exponent) as u64 * self.rounds as u64;
        Ok(AmazeReport {
            name: self.name.clone(),
            multiplier_latency: l,
            exponent_levels: levels,
            pipeline_slots: slots,
            batch,
            cycles_per_round,
            cycles,
            clock_mhz: self.clock_mhz,
            latency_us: cycles as f64 / f * 1e6,
            amortised_latency_us: cycles as f64 / batch as f64 / f * 1e6,
            amortised_throughput: batch as f64 * f / cycles as f64,
            modular_products_per_cipher: products,
            multiplier_utilisation: (products * batch as u64) as f64
                / (cycles as f64 * self.multipliers as f64),
        })
    }
}

/// What the model predicts for one design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AmazeReport {
    /// The configuration's label.
    pub name: String,
    /// Modular-multiplier latency (pipelined) or start-to-done time (sequential), cycles.
    pub multiplier_latency: u32,
    /// Levels of the exponentiation schedule.
    pub exponent_levels: u32,
    /// Ciphers the datapath can interleave.
    pub pipeline_slots: u32,
    /// Ciphers per batch.
    pub batch: u32,
    /// Cycles per round.
    pub cycles_per_round: u32,
    /// Cycles from a batch's first input to its first output (each input's latency).
    pub cycles: u64,
    /// Clock used for the time figures.
    pub clock_mhz: f64,
    /// Latency of one cipher, µs.
    pub latency_us: f64,
    /// Latency per cipher when batches are full, µs (Table 1's "amortised latency").
    pub amortised_latency_us: f64,
    /// Ciphers per second when batches are full (Table 1's "amortised throughput").
    pub amortised_throughput: f64,
    /// Modular multiplications per cipher.
    pub modular_products_per_cipher: u64,
    /// Fraction of multiplier-cycles doing useful products.
    pub multiplier_utilisation: f64,
}

/// Number of products in the `x^d` schedule (AMAZE's for `d = 3, 5, 7`, square-and-multiply
/// otherwise), matching `zkaccel_mimc::sbox_multiplications`.
pub fn products(d: u64) -> u32 {
    dag(d).len() as u32
}

/// The product graph of `x^d`: each product lists the products it depends on.
fn dag(d: u64) -> Vec<Vec<usize>> {
    match d {
        3 => vec![vec![], vec![0]],                      // x², x³ = x²·x
        5 => vec![vec![], vec![0], vec![1]],             // x², x⁴, x⁵ = x⁴·x
        7 => vec![vec![], vec![0], vec![0], vec![1, 2]], // x², x³, x⁴, x⁷ = x⁴·x³
        _ => {
            // Square-and-multiply from the top bit: a chain.
            let steps = (63 - d.leading_zeros()) + d.count_ones() - 1;
            (0..steps as usize)
                .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
                .collect()
        }
    }
}

/// List-schedules the product graph of `x^d` on `m` multipliers (each product one level) and
/// returns the number of levels.
pub fn schedule_levels(d: u64, m: u32) -> u32 {
    let g = dag(d);
    let mut level = vec![u32::MAX; g.len()];
    let mut done = 0;
    let mut t = 0;
    while done < g.len() {
        let mut issued = 0;
        for i in 0..g.len() {
            if level[i] == u32::MAX && issued < m && g[i].iter().all(|&j| level[j] < t) {
                level[i] = t;
                issued += 1;
                done += 1;
            }
        }
        t += 1;
    }
    t
}

/// One design's row of the model's Table 1: its configuration, the model's report and, for a
/// preset, the paper's row (the CLI's `zkaccel model amaze tables --json` and Python's
/// `zkaccel.models.amaze`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignReport {
    /// The configuration modelled.
    pub config: AmazeConfig,
    /// What the model predicts.
    pub model: AmazeReport,
    /// The paper's Table 1 row, for a preset.
    pub paper: Option<PaperRow>,
}

impl DesignReport {
    /// The model's report of `config`, beside `design`'s paper row when it is a preset.
    ///
    /// # Errors
    /// As [`AmazeConfig::report`].
    pub fn new(config: AmazeConfig, design: Option<Design>) -> Result<Self, ModelError> {
        Ok(Self {
            model: config.report()?,
            paper: design.map(Design::paper),
            config,
        })
    }
}

/// The AMAZE model's answer: one design (a preset or a user's configuration) or Table 1's
/// seven designs. As JSON the first is an object, the second a list of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AmazeTable {
    /// One design.
    One(Box<DesignReport>),
    /// Every preset, in Table 1's order.
    All(Vec<DesignReport>),
}

impl AmazeTable {
    /// Table 1: every preset beside the paper's row.
    ///
    /// # Errors
    /// None for the presets; the type is [`AmazeConfig::report`]'s.
    pub fn all() -> Result<Self, ModelError> {
        Design::ALL
            .into_iter()
            .map(|d| DesignReport::new(AmazeConfig::preset(d), Some(d)))
            .collect::<Result<_, _>>()
            .map(Self::All)
    }

    /// One preset beside the paper's row.
    ///
    /// # Errors
    /// As [`AmazeConfig::report`].
    pub fn design(design: Design) -> Result<Self, ModelError> {
        DesignReport::new(AmazeConfig::preset(design), Some(design)).map(|r| Self::One(Box::new(r)))
    }

    /// A user's configuration (no paper row).
    ///
    /// # Errors
    /// As [`AmazeConfig::report`].
    pub fn config(config: AmazeConfig) -> Result<Self, ModelError> {
        DesignReport::new(config, None).map(|r| Self::One(Box::new(r)))
    }

    /// The rows, one or seven.
    pub fn rows(&self) -> &[DesignReport] {
        match self {
            Self::One(row) => std::slice::from_ref(&**row),
            Self::All(rows) => rows,
        }
    }
}

impl std::fmt::Display for AmazeTable {
    /// Table 1's columns, the model beside the paper (`-` where there is no paper row).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
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
        )?;
        for row in self.rows() {
            let (r, p) = (&row.model, row.paper);
            writeln!(
                f,
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
            )?;
        }
        Ok(())
    }
}
