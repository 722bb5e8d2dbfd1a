//! The AIRs zkaccel ships (Fibonacci, Factorial) as statements a user names, and the proof file
//! that carries its statement: a versioned header (AIR, rows, configuration) before the
//! starky-compatible proof, so that a verifier needs nothing else. The CLI (`zkaccel prove` /
//! `verify`) and the Python package both read and write exactly this format.

use zkaccel_codec::{ByteReader, DecodeError};
use zkaccel_field::Field;
use zkaccel_fri::{FriConfig, FriReductionStrategy};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::KernelSink;

use zkaccel_stark::{
    prove, verify, Air, ConfigRequirement, FactorialAir, FibonacciAir, Rejection, StarkConfig,
    StarkError, StarkProof, VerifierPolicy, VerifyMode,
};

use crate::Plonky2Goldilocks;

/// The FRI scheme of every shipped proof: plonky2's Goldilocks, quadratic extension, Poseidon.
pub type ShippedScheme = Plonky2Goldilocks;

const MAGIC: &[u8; 8] = b"ZKSTARK\0";
const VERSION: u8 = 1;
/// The largest proof file a verifier reads, in bytes.
pub const MAX_PROOF_BYTES: u64 = 64 << 20;
/// The most rows a shipped statement has: 2^MAX_LOG_ROWS.
pub const MAX_LOG_ROWS: usize = 26;

/// An AIR zkaccel ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShippedAir {
    /// starky's Fibonacci: two columns, public inputs x0, x1 and the last value.
    Fibonacci,
    /// UniZK's Factorial: row k = [k + 2, (k + 1)!], the last value public.
    Factorial,
}

impl ShippedAir {
    /// Every shipped AIR.
    pub const ALL: [Self; 2] = [Self::Fibonacci, Self::Factorial];

    /// Its name on the command line, in Python and in proof headers.
    pub fn name(self) -> &'static str {
        match self {
            Self::Fibonacci => "fibonacci",
            Self::Factorial => "factorial",
        }
    }

    /// How many public inputs its proofs carry (Fibonacci: x0, x1 and the last value;
    /// Factorial: the last value).
    pub fn public_input_count(self) -> usize {
        match self {
            Self::Fibonacci => FibonacciAir.public_inputs(),
            Self::Factorial => FactorialAir.public_inputs(),
        }
    }

    /// The AIR of that name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The trace of `2^log_rows` rows and its public inputs; `inputs` are Fibonacci's seeds
    /// x0, x1 (default 0, 1); Factorial takes none.
    ///
    /// # Errors
    /// [`StarkError::OutOfRange`] for a size outside 1 ..= [`MAX_LOG_ROWS`];
    /// [`StarkError::PublicInputCount`] for the wrong number of inputs.
    pub fn trace(
        self,
        log_rows: usize,
        inputs: Option<&[Goldilocks]>,
    ) -> Result<(Vec<Vec<Goldilocks>>, Vec<Goldilocks>), StarkError> {
        check_log_rows(log_rows)?;
        let rows = 1usize << log_rows;
        match self {
            Self::Fibonacci => {
                let [x0, x1] = inputs.unwrap_or(&[Goldilocks::ZERO, Goldilocks::ONE])[..] else {
                    return Err(StarkError::PublicInputCount {
                        expected: 2,
                        got: inputs.map_or(0, <[Goldilocks]>::len),
                    });
                };
                FibonacciAir::trace(rows, x0, x1)
            }
            Self::Factorial => {
                if let Some(inputs) = inputs {
                    return Err(StarkError::PublicInputCount {
                        expected: 0,
                        got: inputs.len(),
                    });
                }
                FactorialAir::trace(rows)
            }
        }
    }

    /// Proves the statement of `2^log_rows` rows (see [`ShippedAir::trace`]) under `config`,
    /// its kernels going to `sink`; returns the proof and its public inputs.
    ///
    /// # Errors
    /// As [`ShippedAir::trace`] and [`zkaccel_stark::prove`].
    pub fn prove(
        self,
        log_rows: usize,
        inputs: Option<&[Goldilocks]>,
        config: &StarkConfig,
        sink: &mut impl KernelSink,
    ) -> Result<StarkProof<ShippedScheme>, StarkError> {
        let (trace, pis) = self.trace(log_rows, inputs)?;
        match self {
            Self::Fibonacci => prove(&FibonacciAir, config, trace, &pis, sink),
            Self::Factorial => prove(&FactorialAir, config, trace, &pis, sink),
        }
    }

    /// Decodes and verifies the starky-compatible proof `body` of this AIR over `2^log_rows`
    /// rows made under `config`; returns its public inputs. `policy` is checked first: a
    /// configuration below its minimum security, or other than it requires, is rejected
    /// before the proof is read. With `expected_inputs`, a proof of other inputs is rejected.
    ///
    /// # Errors
    /// [`StarkError::OutOfRange`] for a size outside 1 ..= [`MAX_LOG_ROWS`];
    /// [`StarkError::BelowPolicy`] / [`StarkError::ConfigMismatch`] from
    /// [`VerifierPolicy::check`]; every error of [`crate::decode_stark_proof`] and [`zkaccel_stark::verify`];
    /// [`Rejection::PublicInputs`] for other inputs.
    pub fn verify(
        self,
        config: &StarkConfig,
        log_rows: usize,
        body: &[u8],
        expected_inputs: Option<&[Goldilocks]>,
        mode: VerifyMode,
        policy: &VerifierPolicy,
    ) -> Result<Vec<Goldilocks>, StarkError> {
        check_log_rows(log_rows)?;
        config.check::<ShippedScheme>()?;
        policy.check::<ShippedScheme>(config)?;
        match self {
            Self::Fibonacci => {
                check_body(&FibonacciAir, config, log_rows, body, expected_inputs, mode)
            }
            Self::Factorial => {
                check_body(&FactorialAir, config, log_rows, body, expected_inputs, mode)
            }
        }
    }
}

fn check_log_rows(log_rows: usize) -> Result<(), StarkError> {
    if (1..=MAX_LOG_ROWS).contains(&log_rows) {
        Ok(())
    } else {
        Err(StarkError::OutOfRange {
            what: "log2 of the rows of a shipped statement",
            got: log_rows as u64,
            min: 1,
            max: MAX_LOG_ROWS as u64,
        })
    }
}

fn check_body<A: Air>(
    air: &A,
    config: &StarkConfig,
    log_rows: usize,
    body: &[u8],
    expected_inputs: Option<&[Goldilocks]>,
    mode: VerifyMode,
) -> Result<Vec<Goldilocks>, StarkError> {
    let proof: StarkProof<ShippedScheme> =
        crate::codec::decode_stark_proof(air, config, log_rows, body)?;
    if expected_inputs.is_some_and(|want| proof.public_inputs != want) {
        return Err(Rejection::PublicInputs.into());
    }
    verify(air, config, log_rows, &proof, mode)?;
    Ok(proof.public_inputs)
}

/// Overrides of a configuration preset's parameters, as `zkaccel prove` and Python's
/// `stark.prove` take them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigOverrides {
    /// The security target (bits): the prover refuses parameters that conjecture less. Left
    /// out, the preset's (100).
    pub security_bits: Option<usize>,
    /// `log2` of the FRI blowup.
    pub rate_bits: Option<usize>,
    /// The Merkle cap height.
    pub cap_height: Option<usize>,
    /// Proof-of-work bits.
    pub pow_bits: Option<u32>,
    /// FRI query rounds.
    pub queries: Option<usize>,
}

impl ConfigOverrides {
    /// `config` with these overrides applied (not checked).
    pub fn apply(&self, mut config: StarkConfig) -> StarkConfig {
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
        if let Some(v) = self.security_bits {
            config.security_bits = v;
        }
        config
    }

    /// The parameters named here, as a verifier's requirement.
    pub fn requirement(&self) -> ConfigRequirement {
        ConfigRequirement {
            security_bits: self.security_bits,
            rate_bits: self.rate_bits,
            cap_height: self.cap_height,
            pow_bits: self.pow_bits,
            queries: self.queries,
            ..ConfigRequirement::default()
        }
    }
}

/// The named configuration preset (`standard-fast`, `small-proofs`).
///
/// # Errors
/// [`StarkError::UnknownPreset`] for an unknown name.
pub fn preset(name: &str) -> Result<StarkConfig, StarkError> {
    StarkConfig::presets()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| c)
        .ok_or_else(|| StarkError::UnknownPreset {
            name: name.chars().take(40).collect(),
        })
}

/// A named configuration preset with overrides. The security target stays the preset's
/// (100 bits) unless `overrides.security_bits` lowers it: parameters that conjecture less than
/// the target are refused, never silently proved at a lower level.
///
/// # Errors
/// [`StarkError::UnknownPreset`] for an unknown name; [`StarkError::BelowPresetTarget`] for
/// overrides that conjecture less than the preset's target it does not lower; a configuration
/// [`StarkConfig::check`]
/// refuses (out of range, or below its security target).
pub fn config_with(name: &str, overrides: &ConfigOverrides) -> Result<StarkConfig, StarkError> {
    let config = overrides.apply(preset(name)?);
    config.check::<ShippedScheme>().map_err(|e| match e {
        StarkError::BelowTarget {
            conjectured_bits,
            target_bits,
        } if overrides.security_bits.is_none() => StarkError::BelowPresetTarget {
            conjectured_bits,
            target_bits,
        },
        other => other,
    })?;
    Ok(config)
}

/// What a proof file states: the AIR, its size and the configuration it was proved under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The AIR.
    pub air: ShippedAir,
    /// `log2` of the number of rows.
    pub log_rows: usize,
    /// The configuration.
    pub config: StarkConfig,
}

impl Statement {
    /// Checks this statement against what the verifier's user asked for: the AIR and size when
    /// named, then the configuration against `policy`.
    ///
    /// # Errors
    /// [`Rejection::OtherAir`] / [`Rejection::OtherRows`] for another AIR or size; the errors of
    /// [`VerifierPolicy::check`].
    pub fn check(
        &self,
        air: Option<ShippedAir>,
        log_rows: Option<usize>,
        policy: &VerifierPolicy,
    ) -> Result<(), StarkError> {
        if air.is_some_and(|a| a != self.air) {
            return Err(Rejection::OtherAir {
                proof: self.air.name(),
                expected: air.map_or("", ShippedAir::name),
            }
            .into());
        }
        if log_rows.is_some_and(|l| l != self.log_rows) {
            return Err(Rejection::OtherRows {
                proof: self.log_rows,
                expected: log_rows.unwrap_or_default(),
            }
            .into());
        }
        policy.check::<ShippedScheme>(&self.config)
    }

    /// The proof file: this statement's header, then the starky-compatible proof `body`.
    pub fn encode_file(&self, body: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(body.len() + 64);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(self.air.name().len() as u8);
        out.extend_from_slice(self.air.name().as_bytes());
        out.push(self.log_rows as u8);
        let c = &self.config;
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
        out.extend_from_slice(body);
        out
    }

    /// Reads a proof file's header: the statement and where the proof body starts.
    ///
    /// # Errors
    /// [`StarkError::Decode`] for a file that is not a zkaccel proof of a known version, ends
    /// inside its header, or names an unknown AIR or reduction strategy;
    /// [`StarkError::Header`] for a size outside 1 ..= [`MAX_LOG_ROWS`] or a configuration
    /// [`StarkConfig::check`] refuses.
    pub fn decode_header(bytes: &[u8]) -> Result<(Self, usize), StarkError> {
        let mut r = ByteReader::new(bytes);
        let magic = r.take(MAGIC.len(), "the magic number")?;
        if magic != MAGIC {
            return Err(DecodeError::unknown_name(
                "not a zkaccel STARK proof (no ZKSTARK header; --encoding plonky2?)",
                magic,
            )
            .into());
        }
        let version = r.u8("the header version")?;
        if version != VERSION {
            return Err(DecodeError::Unknown {
                what: "the header version (this build reads version 1)",
                got: u64::from(version),
            }
            .into());
        }
        const _: () = assert!(VERSION == 1);
        let len = usize::from(r.u8("the AIR name's length")?);
        let name = r.take(len, "the AIR name")?;
        let air = std::str::from_utf8(name)
            .ok()
            .and_then(ShippedAir::from_name)
            .ok_or_else(|| DecodeError::unknown_name("the header's AIR", name))?;
        let log_rows = usize::from(r.u8("log2 of the rows")?);
        let security_bits = usize::from(r.u16_le("the security target")?);
        let num_challenges = usize::from(r.u8("the number of challenges")?);
        let rate_bits = usize::from(r.u8("the rate bits")?);
        let cap_height = usize::from(r.u8("the cap height")?);
        let proof_of_work_bits = u32::from(r.u8("the proof-of-work bits")?);
        let reduction_strategy = match r.u8("the reduction strategy")? {
            0 => {
                let n = usize::from(r.u8("the number of fixed arities")?);
                let arities = r.take(n, "the fixed arities")?;
                FriReductionStrategy::Fixed(arities.iter().map(|&a| usize::from(a)).collect())
            }
            1 => {
                let a = r.u8("the arity bits")?;
                let b = r.u8("the final polynomial bits")?;
                FriReductionStrategy::ConstantArityBits(usize::from(a), usize::from(b))
            }
            2 => {
                let m = usize::from(r.u8("the minimum size")?);
                FriReductionStrategy::MinSize((m > 0).then_some(m))
            }
            t => {
                return Err(DecodeError::Unknown {
                    what: "the reduction strategy",
                    got: u64::from(t),
                }
                .into())
            }
        };
        let num_query_rounds = usize::from(r.u16_le("the query rounds")?);
        let at = r.position();
        let config = StarkConfig {
            security_bits,
            num_challenges,
            fri_config: FriConfig {
                rate_bits,
                cap_height,
                proof_of_work_bits,
                reduction_strategy,
                num_query_rounds,
            },
        };
        check_log_rows(log_rows)
            .and_then(|()| config.check::<ShippedScheme>())
            .map_err(|e| StarkError::Header(Box::new(e)))?;
        Ok((
            Self {
                air,
                log_rows,
                config,
            },
            at,
        ))
    }
}
