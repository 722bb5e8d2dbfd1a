//! STARK configurations (starky's `StarkConfig`).

use zkaccel_fri::{FriConfig, FriScheme};

use crate::StarkError;

/// The parameters a proof is made and checked with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StarkConfig {
    /// The security level the configuration is meant to reach (observed by the transcript,
    /// checked by [`StarkConfig::check`]).
    pub security_bits: usize,
    /// Independent constraint combinations (each with its own `α`): the soundness of the
    /// combination is `num_challenges·64` bits for Goldilocks.
    pub num_challenges: usize,
    /// The FRI parameters.
    pub fri_config: FriConfig,
}

/// The most challenges a configuration may ask for.
pub const MAX_CHALLENGES: usize = 16;

impl StarkConfig {
    /// starky's `standard_fast_config` (the configuration UniZK's Starky proofs use): 100
    /// bits, 2 challenges, FRI at rate 1/2 with cap height 4, 16 grinding bits, arity 16 down
    /// to 32 coefficients, 84 queries (84·1 + 16 = 100 conjectured bits).
    pub fn standard_fast() -> Self {
        Self {
            security_bits: 100,
            num_challenges: 2,
            fri_config: FriConfig::standard_fast(),
        }
    }

    /// About 100 conjectured bits with smaller proofs: 2 challenges, FRI at rate 1/8 with cap
    /// height 4, 16 grinding bits, arity 16, 28 queries (28·3 + 16 = 100), plonky2's
    /// `standard_recursion_config` FRI; a prover about four times slower than
    /// [`StarkConfig::standard_fast`], proofs about a third of the size.
    pub fn small_proofs() -> Self {
        Self {
            security_bits: 100,
            num_challenges: 2,
            fri_config: FriConfig::standard_recursion(),
        }
    }

    /// The named presets, for the command line.
    pub fn presets() -> [(&'static str, Self); 2] {
        [
            ("standard-fast", Self::standard_fast()),
            ("small-proofs", Self::small_proofs()),
        ]
    }

    /// Checks the configuration: its FRI parameters are in range, the number of challenges is
    /// 1 to [`MAX_CHALLENGES`], and the conjectured security reaches `security_bits`
    /// (starky's `check_config`).
    ///
    /// # Errors
    /// [`StarkError::OutOfRange`] naming what is out of range, [`StarkError::BelowTarget`],
    /// and FRI's [`zkaccel_fri::FriError::Config`].
    pub fn check<S: FriScheme>(&self) -> Result<(), StarkError> {
        self.fri_config.check()?;
        if !(1..=MAX_CHALLENGES).contains(&self.num_challenges) {
            return Err(StarkError::OutOfRange {
                what: "the number of challenges",
                got: self.num_challenges as u64,
                min: 1,
                max: MAX_CHALLENGES as u64,
            });
        }
        let bits = self
            .fri_config
            .conjectured_security_bits(S::extension_bits());
        if bits < self.security_bits {
            return Err(StarkError::BelowTarget {
                conjectured_bits: bits,
                target_bits: self.security_bits,
            });
        }
        Ok(())
    }
}

impl StarkConfig {
    /// The conjectured security of proofs under this configuration, in bits: starky's and
    /// plonky2's rule ([`zkaccel_fri::FriConfig::conjectured_security_bits`]), computed from the
    /// FRI parameters, never taken from [`StarkConfig::security_bits`] (which only states the
    /// target the prover was given).
    pub fn conjectured_security_bits<S: FriScheme>(&self) -> usize {
        self.fri_config
            .conjectured_security_bits(S::extension_bits())
    }
}

/// The least conjectured security a verifier accepts by default: the project's standard
/// configurations ([`StarkConfig::standard_fast`], [`StarkConfig::small_proofs`]) reach it.
pub const DEFAULT_MIN_SECURITY_BITS: usize = 100;

/// Configuration parameters a caller names; each one given must equal the proof's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigRequirement {
    /// The security target the proof states (observed by its transcript).
    pub security_bits: Option<usize>,
    /// The number of constraint challenges.
    pub num_challenges: Option<usize>,
    /// `log2` of the FRI blowup.
    pub rate_bits: Option<usize>,
    /// The Merkle cap height.
    pub cap_height: Option<usize>,
    /// Proof-of-work bits.
    pub pow_bits: Option<u32>,
    /// FRI query rounds.
    pub queries: Option<usize>,
    /// The FRI reduction strategy.
    pub reduction_strategy: Option<zkaccel_fri::FriReductionStrategy>,
}

impl ConfigRequirement {
    /// Every parameter of `config`: only a proof made under exactly `config` meets it.
    pub fn exactly(config: &StarkConfig) -> Self {
        let f = &config.fri_config;
        Self {
            security_bits: Some(config.security_bits),
            num_challenges: Some(config.num_challenges),
            rate_bits: Some(f.rate_bits),
            cap_height: Some(f.cap_height),
            pow_bits: Some(f.proof_of_work_bits),
            queries: Some(f.num_query_rounds),
            reduction_strategy: Some(f.reduction_strategy.clone()),
        }
    }

    /// Checks `config` against every parameter named.
    ///
    /// # Errors
    /// [`StarkError::ConfigMismatch`] naming the first parameter that differs.
    pub fn check(&self, config: &StarkConfig) -> Result<(), StarkError> {
        fn same<T: PartialEq + std::fmt::Debug>(
            parameter: &'static str,
            want: Option<&T>,
            got: &T,
        ) -> Result<(), StarkError> {
            match want {
                Some(w) if w != got => Err(StarkError::ConfigMismatch {
                    parameter,
                    expected: format!("{w:?}"),
                    got: format!("{got:?}"),
                }),
                _ => Ok(()),
            }
        }
        let f = &config.fri_config;
        same(
            "security target (bits)",
            self.security_bits.as_ref(),
            &config.security_bits,
        )?;
        same(
            "challenges",
            self.num_challenges.as_ref(),
            &config.num_challenges,
        )?;
        same("rate bits", self.rate_bits.as_ref(), &f.rate_bits)?;
        same("cap height", self.cap_height.as_ref(), &f.cap_height)?;
        same(
            "proof-of-work bits",
            self.pow_bits.as_ref(),
            &f.proof_of_work_bits,
        )?;
        same("query rounds", self.queries.as_ref(), &f.num_query_rounds)?;
        same(
            "FRI reduction strategy",
            self.reduction_strategy.as_ref(),
            &f.reduction_strategy,
        )
    }
}

/// What a verifier demands of a proof's configuration before it looks at the proof: at least
/// [`VerifierPolicy::min_security_bits`] of conjectured security (by default
/// [`DEFAULT_MIN_SECURITY_BITS`]), and every parameter [`VerifierPolicy::required`] names.
/// A proof chooses its own parameters; the policy is how the verifier's user refuses weak or
/// unexpected ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierPolicy {
    /// The least conjectured security accepted, in bits
    /// ([`StarkConfig::conjectured_security_bits`]).
    pub min_security_bits: usize,
    /// Parameters the proof's configuration must have.
    pub required: ConfigRequirement,
}

impl Default for VerifierPolicy {
    fn default() -> Self {
        Self {
            min_security_bits: DEFAULT_MIN_SECURITY_BITS,
            required: ConfigRequirement::default(),
        }
    }
}

impl VerifierPolicy {
    /// The default policy with another minimum security (an explicit choice of the caller's).
    pub fn with_min_security_bits(min_security_bits: usize) -> Self {
        Self {
            min_security_bits,
            ..Self::default()
        }
    }

    /// Checks a proof's configuration against the policy.
    ///
    /// # Errors
    /// [`StarkError::BelowPolicy`] when its conjectured security is below the minimum;
    /// [`StarkError::ConfigMismatch`] when it differs from a required parameter. Both are
    /// rejections ([`StarkError::is_rejection`]).
    pub fn check<S: FriScheme>(&self, config: &StarkConfig) -> Result<(), StarkError> {
        self.required.check(config)?;
        let conjectured = config.conjectured_security_bits::<S>();
        if conjectured < self.min_security_bits {
            return Err(StarkError::BelowPolicy {
                conjectured_bits: conjectured,
                min_bits: self.min_security_bits,
            });
        }
        Ok(())
    }
}
