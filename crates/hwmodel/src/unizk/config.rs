//! The accelerator's configuration: the paper's design point, the public simulator's, and every
//! knob a sweep needs. Everything the model charges per block is derived from these fields.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::ModelError;

/// Poseidon's state width (plonky2's Goldilocks preset).
pub const POSEIDON_WIDTH: u32 = 12;
/// Multiplications in the x^7 S-box's addition chain (x², x³ = x²·x, x⁴ = x²·x², x⁷ = x⁴·x³):
/// the row of PEs one full-round S-box occupies (§5.2).
pub const SBOX_MULS: u32 = 4;
/// Goldilocks products in one product in the quadratic extension: a0·b0, a1·b1, a0·b1, a1·b0
/// and W·(a1·b1).
pub const EXT2_MUL_PRODUCTS: u32 = 5;
/// Goldilocks products in one inversion by Fermat (p − 2 by its addition chain: 63 squarings
/// and 9 multiplications).
pub const INVERSE_PRODUCTS: u32 = 72;
/// Bytes of one Goldilocks element.
pub const ELEMENT_BYTES: u64 = 8;
/// Elements in one Poseidon digest.
pub const DIGEST_ELEMENTS: u64 = 4;
/// Elements absorbed per permutation (the sponge's rate).
pub const SPONGE_RATE: u64 = 8;

/// Which hardware the model describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// The hardware as the paper describes it: compute is a resource one block occupies at a
    /// time, requests interleave over every HBM channel, proof of work tries what the trace
    /// says, leaves of at most a digest's width are not hashed (plonky2's `hash_or_noop`).
    Paper,
    /// The public simulator's known artefacts (`docs/notes/unizk-simulator.md` §1.6): two
    /// blocks' compute overlap, 64-byte requests reach a quarter of the channels, one record is
    /// admitted per cycle, proof of work is 200,000 hashes, every leaf is hashed, and the
    /// quotient is evaluated in batches of 256 points whose rows are gathered one by one.
    UnizkSim,
}

impl Mode {
    /// Both modes, paper first.
    pub const ALL: [Mode; 2] = [Mode::Paper, Mode::UnizkSim];

    /// Blocks whose compute runs at once (the simulator's compute is a delay, not a resource).
    pub fn compute_overlap(self) -> f64 {
        match self {
            Mode::Paper => 1.0,
            Mode::UnizkSim => 2.0,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Paper => "paper",
            Mode::UnizkSim => "unizk-sim",
        })
    }
}

impl FromStr for Mode {
    type Err = ModelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "paper" => Ok(Mode::Paper),
            "unizk-sim" => Ok(Mode::UnizkSim),
            other => Err(ModelError::Unknown {
                what: "mode",
                name: crate::error::shown(other, 40),
                known: crate::Names(&["paper", "unizk-sim"]),
            }),
        }
    }
}

/// One UniZK chip and its memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnizkConfig {
    /// Paper hardware or the public simulator's behaviour.
    pub mode: Mode,
    /// Vector-systolic arrays.
    pub vsas: u32,
    /// PEs per side of one VSA (12: one Poseidon state per row).
    pub array: u32,
    /// Clock, GHz.
    pub clock_ghz: f64,
    /// On-chip scratchpad, MiB: half reads, half writes, each double-buffered.
    pub spm_mib: f64,
    /// Side of the global transpose buffer (b × b elements, §5.1).
    pub transpose_b: u32,
    /// Pipeline depth of the 64-bit modular multiplier, cycles.
    pub mul_latency: u32,
    /// Poseidon full rounds.
    pub full_rounds: u32,
    /// Poseidon partial rounds.
    pub partial_rounds: u32,
    /// Latency of one pass of four partial rounds through a VSA (145 in the paper's §5.2; the
    /// simulator charges 130).
    pub partial_pass_latency: u32,
    /// HBM channels.
    pub channels: u32,
    /// Bytes one channel moves per cycle.
    pub channel_bytes_per_cycle: f64,
    /// Bytes of consecutive address mapped to one channel before the next.
    pub interleave_bytes: u32,
    /// Bytes of one memory request.
    pub request_bytes: u32,
    /// Cycles from a read's issue to its data (queueing excluded).
    pub dram_latency: u32,
    /// Runs of consecutive addresses (DMA descriptors, the simulator's trace records) the
    /// memory front end accepts per cycle.
    pub runs_per_cycle: f64,
    /// Records the memory front end holds before it stops admitting more (RamSim's
    /// `maxPendEntry`, 16), in `unizk-sim` mode: records wait there for their dependencies, so
    /// a block that stores in more records than this holds back the next block's loads until
    /// its own stores go, and its blocks run one after another.
    pub record_window: u32,
    /// Points per quotient-evaluation batch when rows are gathered (the simulator's 256);
    /// 0: tiles sized from the scratchpad.
    pub vector_batch: u64,
}

impl Default for UnizkConfig {
    fn default() -> Self {
        Self::paper()
    }
}

impl UnizkConfig {
    /// The paper's design point (§6): 32 VSAs of 12×12 PEs at 1 GHz, an 8 MB double-buffered
    /// scratchpad, b = 16, two HBM2e PHYs at about 1 TB/s.
    pub fn paper() -> Self {
        Self {
            mode: Mode::Paper,
            vsas: 32,
            array: 12,
            clock_ghz: 1.0,
            spm_mib: 8.0,
            transpose_b: 16,
            mul_latency: 2,
            full_rounds: 8,
            partial_rounds: 22,
            partial_pass_latency: 145,
            // 2 PHYs × 16 pseudo-channels, 32 B per cycle each: 1.02 TB/s at 1 GHz.
            channels: 32,
            channel_bytes_per_cycle: 32.0,
            interleave_bytes: 64,
            request_bytes: 64,
            dram_latency: 80,
            runs_per_cycle: 1.0,
            record_window: 16,
            vector_batch: 0,
        }
    }

    /// The public simulator's configuration (`-r 8 -t 32`, `configs/*.yaml`): 128 HBM2 channels
    /// interleaved every 16 bytes, fed 64-byte requests.
    pub fn unizk_sim() -> Self {
        Self {
            mode: Mode::UnizkSim,
            partial_pass_latency: 130,
            channels: 128,
            interleave_bytes: 16,
            vector_batch: 256,
            ..Self::paper()
        }
    }

    /// The preset for `mode`.
    pub fn preset(mode: Mode) -> Self {
        match mode {
            Mode::Paper => Self::paper(),
            Mode::UnizkSim => Self::unizk_sim(),
        }
    }

    /// Processing elements on the chip.
    pub fn pes(&self) -> u64 {
        u64::from(self.vsas) * u64::from(self.array) * u64::from(self.array)
    }

    /// Bytes of the scratchpad one block may fill: the read half, double-buffered.
    pub fn active_bytes(&self) -> u64 {
        ((self.spm_mib * (1u64 << 20) as f64) / 4.0) as u64
    }

    /// Elements the public simulator's vector chains keep in their scratchpad LRU: both halves
    /// of the active buffer (its `ARCH_CONFIG.num_elems() * 2`), before preloaded operands.
    pub fn sim_lru_elements(&self) -> u64 {
        2 * self.active_bytes() / ELEMENT_BYTES
    }

    /// log2 of an NTT plane's side: a VSA row splits into two MDC pipelines of `array/2` PEs,
    /// `log L` butterfly stages plus one twiddle stage (§5.1).
    pub fn plane_log(&self) -> u32 {
        self.array / 2 - 1
    }

    /// Cycles one VSA spends per Poseidon permutation in steady state: each full round folds
    /// its `SBOX_MULS + 12` columns onto the array, the pre-partial round fills it once, and
    /// `array / 3` partial rounds share one pass (§5.2: 16 + 1 + 6 = 23 on 12×12).
    pub fn permutation_interval(&self) -> u64 {
        let full = u64::from(self.full_rounds)
            * u64::from((SBOX_MULS + POSEIDON_WIDTH).div_ceil(self.array));
        let pre = u64::from(POSEIDON_WIDTH.div_ceil(self.array));
        full + pre + self.partial_passes()
    }

    /// Passes of partial rounds through a VSA (`array / 3` per pass).
    pub fn partial_passes(&self) -> u64 {
        u64::from(self.partial_rounds.div_ceil((self.array / 3).max(1)))
    }

    /// Cycles from a state entering a VSA to its permutation leaving: a full round crosses the
    /// array twice, the pre-partial round once plus its two adders, each partial pass
    /// `partial_pass_latency` (986 with the simulator's constants, 1,076 with the paper's).
    pub fn permutation_latency(&self) -> u64 {
        u64::from(self.full_rounds) * 2 * u64::from(self.array)
            + u64::from(self.array)
            + 2
            + self.partial_passes() * u64::from(self.partial_pass_latency)
    }

    /// Depth of one product in the quadratic extension: two products, W times one, an add.
    pub fn ext_mul_latency(&self) -> u32 {
        2 * self.mul_latency + 1
    }

    /// Channels that requests reach: a request spanning several interleave units lands only on
    /// every `request/interleave`-th channel when requests are request-aligned.
    pub fn reachable_channels(&self) -> f64 {
        let ratio = (f64::from(self.request_bytes) / f64::from(self.interleave_bytes)).max(1.0);
        f64::from(self.channels) / ratio
    }

    /// Bytes per cycle the chip can move.
    pub fn bytes_per_cycle(&self) -> f64 {
        self.reachable_channels() * self.channel_bytes_per_cycle
    }

    /// Reachable bandwidth, TB/s.
    pub fn bandwidth_tbps(&self) -> f64 {
        self.bytes_per_cycle() * self.clock_ghz / 1000.0
    }

    /// Sets one knob from `key=value` text (`vsas=64`, `spm_mb=16`, `bw_tbps=0.5`, …).
    ///
    /// # Errors
    /// [`ModelError::Syntax`] without `=`; [`ModelError::Unknown`] for an unknown key;
    /// [`ModelError::NotANumber`] for a value that does not parse; [`ModelError::OutOfRange`] or
    /// [`ModelError::Invalid`] for one the model is not meaningful for.
    pub fn set(&mut self, assignment: &str) -> Result<(), ModelError> {
        let (key, value) = assignment
            .split_once('=')
            .ok_or_else(|| ModelError::Syntax {
                text: crate::error::shown(assignment, 80),
                expected: "key=value",
            })?;
        let key = key.trim();
        let value = value.trim();
        let int = |lo: u64, hi: u64| -> Result<u64, ModelError> {
            let v: u64 = value.parse().map_err(|_| ModelError::NotANumber {
                name: key.to_owned(),
                value: crate::error::shown(value, 40),
                expected: "an integer",
            })?;
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(ModelError::OutOfRange {
                    name: key.to_owned(),
                    value: v as f64,
                    range: crate::Range::new(lo as f64, hi as f64),
                })
            }
        };
        let real = |lo: f64, hi: f64| -> Result<f64, ModelError> {
            let v: f64 = value.parse().map_err(|_| ModelError::NotANumber {
                name: key.to_owned(),
                value: crate::error::shown(value, 40),
                expected: "a number",
            })?;
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(ModelError::OutOfRange {
                    name: key.to_owned(),
                    value: v,
                    range: crate::Range::new(lo, hi),
                })
            }
        };
        match key {
            "mode" => self.mode = value.parse()?,
            "vsas" => self.vsas = int(1, 4096)? as u32,
            "array" => {
                let v = int(6, 64)?;
                if v % 2 != 0 {
                    return Err(ModelError::Invalid {
                        name: "array".into(),
                        value: v as f64,
                        reason: "must be even",
                    });
                }
                self.array = v as u32;
            }
            "clock_ghz" => self.clock_ghz = real(0.01, 100.0)?,
            "spm_mb" | "spm_mib" => self.spm_mib = real(0.0625, 65536.0)?,
            "transpose_b" => self.transpose_b = int(1, 1024)? as u32,
            "mul_latency" => self.mul_latency = int(1, 64)? as u32,
            "full_rounds" => self.full_rounds = int(0, 64)? as u32,
            "partial_rounds" => self.partial_rounds = int(0, 256)? as u32,
            "partial_pass_latency" => self.partial_pass_latency = int(1, 10_000)? as u32,
            "channels" => self.channels = int(1, 4096)? as u32,
            "channel_bytes" => self.channel_bytes_per_cycle = real(0.125, 4096.0)?,
            "bw_tbps" => {
                let want = real(0.001, 1000.0)?;
                let per_channel =
                    self.bytes_per_cycle() / f64::from(self.channels) * self.clock_ghz / 1000.0;
                self.channels = ((want / per_channel).round() as u32).clamp(1, 1 << 20);
            }
            "interleave_bytes" => self.interleave_bytes = int(1, 1 << 20)? as u32,
            "request_bytes" => self.request_bytes = int(8, 1 << 20)? as u32,
            "dram_latency" => self.dram_latency = int(0, 100_000)? as u32,
            "runs_per_cycle" => self.runs_per_cycle = real(0.001, 1_000_000.0)?,
            "record_window" => self.record_window = int(1, 1 << 30)? as u32,
            "batch" | "vector_batch" => self.vector_batch = int(0, 1 << 30)?,
            other => {
                return Err(ModelError::Unknown {
                    what: "knob",
                    name: crate::error::shown(other, 40),
                    known: crate::Names(&UNIZK_KNOBS),
                })
            }
        }
        Ok(())
    }
}

/// The knobs [`UnizkConfig::set`] takes (`spm_mib` and `vector_batch` are accepted as aliases
/// of `spm_mb` and `batch`).
pub const UNIZK_KNOBS: [&str; 19] = [
    "mode",
    "vsas",
    "array",
    "clock_ghz",
    "spm_mb",
    "transpose_b",
    "mul_latency",
    "full_rounds",
    "partial_rounds",
    "partial_pass_latency",
    "channels",
    "channel_bytes",
    "bw_tbps",
    "interleave_bytes",
    "request_bytes",
    "dram_latency",
    "runs_per_cycle",
    "record_window",
    "batch",
];
