//! Validated MiMC parameters.

use zkaccel_field::PrimeField;
use zkaccel_symmetric::sbox::power_map_gcd;

use crate::error::MimcError;

/// The parameters of MiMC-p/p over `F`: the S-box exponent `d`, the number of rounds and one
/// constant per round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MimcParams<F> {
    exponent: u64,
    constants: Vec<F>,
}

impl<F: PrimeField> MimcParams<F> {
    /// Checks and stores the parameters.
    ///
    /// # Errors
    /// [`MimcError::ExponentTooSmall`] for `d < 3`, [`MimcError::ExponentNotPermutation`] when
    /// `gcd(d, p − 1) ≠ 1` (e.g. `d = 3` on BN254 or BLS12-381), [`MimcError::ZeroRounds`] for
    /// an empty constant table.
    pub fn new(exponent: u64, constants: Vec<F>) -> Result<Self, MimcError> {
        if exponent < 3 {
            return Err(MimcError::ExponentTooSmall(exponent));
        }
        let g = power_map_gcd::<F>(exponent);
        if g != 1 {
            return Err(MimcError::ExponentNotPermutation {
                exponent,
                field: F::NAME,
                gcd: g,
            });
        }
        if constants.is_empty() {
            return Err(MimcError::ZeroRounds);
        }
        Ok(Self {
            exponent,
            constants,
        })
    }

    /// As [`MimcParams::new`], also checking that there are `rounds` constants.
    ///
    /// # Errors
    /// As [`MimcParams::new`], and [`MimcError::ConstantCount`].
    pub fn with_rounds(exponent: u64, rounds: usize, constants: Vec<F>) -> Result<Self, MimcError> {
        if constants.len() != rounds {
            return Err(MimcError::ConstantCount {
                expected: rounds,
                actual: constants.len(),
            });
        }
        Self::new(exponent, constants)
    }

    /// The S-box exponent `d`.
    pub fn exponent(&self) -> u64 {
        self.exponent
    }

    /// The number of rounds.
    pub fn rounds(&self) -> usize {
        self.constants.len()
    }

    /// The round constants, `c_0 … c_{R−1}`.
    pub fn constants(&self) -> &[F] {
        &self.constants
    }
}

/// The round count of the MiMC paper for a field of `bits` bits: `⌈bits / log2 d⌉`, i.e.
/// `⌈log_d p⌉` (91 for x^7 and 110 for x^5 on BN254).
pub fn recommended_rounds(exponent: u64, modulus_log2: f64) -> usize {
    (modulus_log2 / (exponent as f64).log2()).ceil() as usize
}
