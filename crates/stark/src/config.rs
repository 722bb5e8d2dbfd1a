//! STARK configurations (starky's `StarkConfig`).

use zkaccel_fri::{FriConfig, FriError, FriScheme};

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
    /// [`StarkError::Config`] naming what is out of range.
    pub fn check<S: FriScheme>(&self) -> Result<(), StarkError> {
        self.fri_config.check().map_err(|e| match e {
            FriError::Config(m) => StarkError::Config(m),
            other => StarkError::Fri(other),
        })?;
        if !(1..=MAX_CHALLENGES).contains(&self.num_challenges) {
            return Err(StarkError::Config(format!(
                "{} challenges; supported: 1 to {MAX_CHALLENGES}",
                self.num_challenges
            )));
        }
        let bits = self
            .fri_config
            .conjectured_security_bits(S::extension_bits());
        if bits < self.security_bits {
            return Err(StarkError::Config(format!(
                "the FRI parameters give {bits} conjectured bits, below the {} asked for",
                self.security_bits
            )));
        }
        Ok(())
    }
}
