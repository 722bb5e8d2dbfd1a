//! FRI parameters: the configuration a user picks (rate, cap, grinding, reduction strategy,
//! query rounds), the parameters it fixes for a given degree, and their conjectured security.

use zkaccel_challenger::DuplexChallenger;
use zkaccel_field::PrimeField;
use zkaccel_symmetric::Permutation;

use crate::{ConfigError, FriError};

/// The largest supported `rate_bits` (a blowup of 2^8).
pub const MAX_RATE_BITS: usize = 8;
/// The largest supported cap height.
pub const MAX_CAP_HEIGHT: usize = 16;
/// The most proof-of-work bits a configuration may ask for.
pub const MAX_POW_BITS: u32 = 32;
/// The most query rounds.
pub const MAX_QUERY_ROUNDS: usize = 1 << 10;
/// The largest reduction arity, in bits (a fold of 2^8 values).
pub const MAX_ARITY_BITS: usize = 8;
/// The most reduction steps.
pub const MAX_REDUCTIONS: usize = 32;

/// How the degree is reduced from one FRI layer to the next (plonky2's
/// `FriReductionStrategy`); each layer folds `2^arity_bits` values into one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FriReductionStrategy {
    /// These arities, in order.
    Fixed(Vec<usize>),
    /// `ConstantArityBits(a, f)`: arity `2^a` while the degree exceeds `2^f` and the next
    /// layer's tree is still at least as tall as the cap.
    ConstantArityBits(usize, usize),
    /// The arities (each at most the given bits, 4 when `None`, never growing) that minimise
    /// plonky2's estimate of the proof size.
    MinSize(Option<usize>),
}

impl FriReductionStrategy {
    /// The arities, in bits, for a polynomial of `2^degree_bits` coefficients (plonky2's
    /// `reduction_arity_bits`, the same choice in every case).
    ///
    /// # Errors
    /// [`FriError::Config`] for an arity outside `1..=MAX_ARITY_BITS` or more than
    /// [`MAX_REDUCTIONS`] steps.
    pub fn reduction_arity_bits(
        &self,
        degree_bits: usize,
        rate_bits: usize,
        cap_height: usize,
        num_queries: usize,
    ) -> Result<Vec<usize>, FriError> {
        let arities = match self {
            Self::Fixed(arities) => {
                if arities.len() > MAX_REDUCTIONS {
                    return Err(ConfigError::OutOfRange {
                        what: "reduction steps",
                        got: arities.len(),
                        min: 0,
                        max: MAX_REDUCTIONS,
                    }
                    .into());
                }
                arities.clone()
            }
            &Self::ConstantArityBits(arity_bits, final_poly_bits) => {
                check_arity(arity_bits)?;
                let mut d = degree_bits;
                let mut arities = Vec::new();
                while d > final_poly_bits && d + rate_bits >= cap_height + arity_bits {
                    if d < arity_bits {
                        // plonky2 asserts here; a configuration that gets here is refused.
                        return Err(ConfigError::ArityBeyondDegree {
                            arity_bits,
                            remaining_bits: d,
                        }
                        .into());
                    }
                    arities.push(arity_bits);
                    d -= arity_bits;
                }
                arities
            }
            &Self::MinSize(max) => {
                let max = max.unwrap_or(4);
                check_arity(max)?;
                min_size_arity_bits(degree_bits, rate_bits, num_queries, max, &mut Vec::new()).0
            }
        };
        arities.iter().try_for_each(|&a| check_arity(a))?;
        Ok(arities)
    }

    /// The strategy as plonky2's transcript observes it: `Fixed(v)` → `[0, v…]`,
    /// `ConstantArityBits(a, f)` → `[1, a, f]`, `MinSize(m)` → `[2, m or 0]`.
    pub fn serialize(&self) -> Vec<u64> {
        match self {
            Self::Fixed(arities) => std::iter::once(0)
                .chain(arities.iter().map(|&a| a as u64))
                .collect(),
            &Self::ConstantArityBits(a, f) => vec![1, a as u64, f as u64],
            &Self::MinSize(m) => vec![2, m.unwrap_or(0) as u64],
        }
    }
}

fn check_arity(bits: usize) -> Result<(), FriError> {
    if (1..=MAX_ARITY_BITS).contains(&bits) {
        Ok(())
    } else {
        Err(ConfigError::OutOfRange {
            what: "reduction arity bits",
            got: bits,
            min: 1,
            max: MAX_ARITY_BITS,
        }
        .into())
    }
}

/// plonky2's search: extend `prefix` by every arity up to the previous one (and up to what the
/// layer has above the rate), keep the smallest estimated size; ties keep the shorter.
fn min_size_arity_bits(
    degree_bits: usize,
    rate_bits: usize,
    num_queries: usize,
    max_arity_bits: usize,
    prefix: &mut Vec<usize>,
) -> (Vec<usize>, usize) {
    let layer_bits = degree_bits + rate_bits - prefix.iter().sum::<usize>();
    let mut best = (
        prefix.clone(),
        relative_proof_size(degree_bits, rate_bits, num_queries, prefix),
    );
    let max = prefix
        .last()
        .copied()
        .unwrap_or(max_arity_bits)
        .min(layer_bits - rate_bits);
    for next in 1..=max {
        prefix.push(next);
        let candidate = min_size_arity_bits(degree_bits, rate_bits, num_queries, max, prefix);
        prefix.pop();
        if candidate.1 < best.1 {
            best = candidate;
        }
    }
    best
}

/// plonky2's estimate of a FRI proof's size in field elements for these arities.
fn relative_proof_size(
    degree_bits: usize,
    rate_bits: usize,
    num_queries: usize,
    arity_bits: &[usize],
) -> usize {
    const D: usize = 4;
    let mut layer_bits = degree_bits + rate_bits;
    let mut total = 0;
    for &a in arity_bits {
        total += ((1 << a) - 1) * D * num_queries;
        total += layer_bits * 4 * num_queries;
        layer_bits -= a;
    }
    total + D * (1 << (layer_bits - rate_bits))
}

/// What a user configures (plonky2's `FriConfig`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FriConfig {
    /// `log2` of the blowup: the codewords are `2^rate_bits` times longer than the degree.
    pub rate_bits: usize,
    /// The Merkle trees are committed by their `2^cap_height` digests at this height.
    pub cap_height: usize,
    /// Leading zero bits the grinding challenge must have.
    pub proof_of_work_bits: u32,
    /// How the degree is reduced between layers.
    pub reduction_strategy: FriReductionStrategy,
    /// Query rounds.
    pub num_query_rounds: usize,
}

impl FriConfig {
    /// starky's `standard_fast_config` FRI: rate 1/2 (`rate_bits` 1), cap height 4, 16
    /// proof-of-work bits, `ConstantArityBits(4, 5)`, 84 queries — 84·1 + 16 = 100
    /// conjectured bits.
    pub fn standard_fast() -> Self {
        Self {
            rate_bits: 1,
            cap_height: 4,
            proof_of_work_bits: 16,
            reduction_strategy: FriReductionStrategy::ConstantArityBits(4, 5),
            num_query_rounds: 84,
        }
    }

    /// plonky2's `standard_recursion_config` FRI: rate 1/8 (`rate_bits` 3), cap height 4, 16
    /// proof-of-work bits, `ConstantArityBits(4, 5)`, 28 queries — 28·3 + 16 = 100
    /// conjectured bits, with proofs about three times smaller than [`FriConfig::standard_fast`]
    /// for a prover four times slower.
    pub fn standard_recursion() -> Self {
        Self {
            rate_bits: 3,
            num_query_rounds: 28,
            ..Self::standard_fast()
        }
    }

    /// Checks the configuration against this crate's limits.
    ///
    /// # Errors
    /// [`FriError::Config`] naming the first parameter out of range.
    pub fn check(&self) -> Result<(), FriError> {
        let ranges = [
            ("rate bits", self.rate_bits, 1, MAX_RATE_BITS),
            ("cap height", self.cap_height, 0, MAX_CAP_HEIGHT),
            (
                "proof-of-work bits",
                self.proof_of_work_bits as usize,
                0,
                MAX_POW_BITS as usize,
            ),
            ("query rounds", self.num_query_rounds, 1, MAX_QUERY_ROUNDS),
        ];
        match ranges
            .into_iter()
            .find(|&(_, got, min, max)| !(min..=max).contains(&got))
        {
            Some((what, got, min, max)) => Err(ConfigError::OutOfRange {
                what,
                got,
                min,
                max,
            }
            .into()),
            None => Ok(()),
        }
    }

    /// The conjectured security in bits (plonky2's and starky's rule): each query round
    /// contributes `rate_bits`, grinding its bits, and no more than the challenge field holds
    /// (`extension_bits`, 128 for Goldilocks' quadratic extension).
    pub fn conjectured_security_bits(&self, extension_bits: usize) -> usize {
        self.rate_bits
            .saturating_mul(self.num_query_rounds)
            .saturating_add(self.proof_of_work_bits as usize)
            .min(extension_bits)
    }

    /// The parameters for polynomials of `2^degree_bits` coefficients.
    ///
    /// # Errors
    /// [`FriError::Config`] for a configuration out of range ([`FriConfig::check`]), arities
    /// that fold more than the degree or leave a layer's tree below the cap, or a codeword
    /// longer than `2^max_lde_bits` (the field's two-adicity).
    pub fn params(&self, degree_bits: usize, max_lde_bits: usize) -> Result<FriParams, FriError> {
        self.check()?;
        let lde_bits = degree_bits
            .checked_add(self.rate_bits)
            .filter(|&b| b <= max_lde_bits)
            .ok_or(ConfigError::BeyondDomain {
                degree_bits,
                rate_bits: self.rate_bits,
                max_lde_bits,
            })?;
        if self.cap_height > lde_bits {
            return Err(ConfigError::CapBeyondCodeword {
                cap_height: self.cap_height,
                lde_bits,
            }
            .into());
        }
        let reduction_arity_bits = self.reduction_strategy.reduction_arity_bits(
            degree_bits,
            self.rate_bits,
            self.cap_height,
            self.num_query_rounds,
        )?;
        let total: usize = reduction_arity_bits.iter().sum();
        if total > degree_bits || lde_bits - total < self.cap_height {
            return Err(ConfigError::ReductionsBeyondDegree {
                total_bits: total,
                degree_bits,
                cap_height: self.cap_height,
                max_bits: degree_bits.min(lde_bits - self.cap_height),
            }
            .into());
        }
        Ok(FriParams {
            config: self.clone(),
            degree_bits,
            reduction_arity_bits,
        })
    }

    /// Absorbs the configuration as starky 1.1.0 does (`FriConfig::observe`): rate bits, cap
    /// height, proof-of-work bits, the serialized strategy, query rounds.
    pub fn observe<F: PrimeField, P: Permutation<F>>(
        &self,
        challenger: &mut DuplexChallenger<F, P>,
    ) {
        let mut words = vec![
            self.rate_bits as u64,
            self.cap_height as u64,
            u64::from(self.proof_of_work_bits),
        ];
        words.extend(self.reduction_strategy.serialize());
        words.push(self.num_query_rounds as u64);
        for w in words {
            challenger.observe_element(F::from_u64_reduced(w));
        }
    }
}

/// The parameters of one FRI proof: the configuration and what it fixes for a degree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FriParams {
    /// The configuration.
    pub config: FriConfig,
    /// `log2` of the committed polynomials' length.
    pub degree_bits: usize,
    /// The arities of the reduction steps, in bits.
    pub reduction_arity_bits: Vec<usize>,
}

impl FriParams {
    /// `log2` of the codeword length.
    pub fn lde_bits(&self) -> usize {
        self.degree_bits + self.config.rate_bits
    }

    /// The codeword length.
    pub fn lde_size(&self) -> usize {
        1 << self.lde_bits()
    }

    /// `log2` of the final polynomial's length.
    pub fn final_poly_bits(&self) -> usize {
        self.degree_bits - self.reduction_arity_bits.iter().sum::<usize>()
    }

    /// The final polynomial's length.
    pub fn final_poly_len(&self) -> usize {
        1 << self.final_poly_bits()
    }
}
