#![doc = include_str!("../README.md")]

use rayon::prelude::*;
use zkaccel_field::{ExtensionField, PrimeField};
use zkaccel_symmetric::Permutation;

/// Why a challenger refused a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChallengerError {
    /// The rate is zero or not below the permutation's width.
    #[error("a duplex sponge of width {width} cannot have rate {rate}")]
    Rate {
        /// The permutation's width.
        width: usize,
        /// The rate asked for.
        rate: usize,
    },
    /// The permutation refused a batch of its own width's states while grinding (a bug in
    /// the permutation).
    #[error("the permutation refused {states} states of its width {width}")]
    Permutation {
        /// The permutation's width.
        width: usize,
        /// The states in the batch.
        states: usize,
    },
    /// Sampling integers and grinding read a challenge as one 64-bit word, which needs a field
    /// of at most 64 bits.
    #[error("{field} has {bits} bits; index sampling and grinding need a field of at most 64")]
    FieldTooWide {
        /// The field's name.
        field: &'static str,
        /// Its bit length.
        bits: u32,
    },
    /// A proof-of-work target of more bits than a challenge has.
    #[error("{bits} proof-of-work bits asked for; a challenge has {max}")]
    PowBits {
        /// The bits asked for.
        bits: u32,
        /// The most a challenge can have.
        max: u32,
    },
    /// No nonce below the field's order meets the target (never for sensible targets).
    #[error("no proof-of-work witness below the field's order has {bits} leading zero bits")]
    NoWitness {
        /// The target.
        bits: u32,
    },
}

/// A Fiat–Shamir challenger: a duplex sponge in overwrite mode over a permutation of `width`
/// elements whose first `rate` are the rate, exactly as plonky2's `Challenger` runs it.
///
/// - Observed elements are buffered; when `rate` are buffered, they overwrite the first
///   `rate` state elements and the state is permuted (*duplexing*). Observing clears the
///   output buffer.
/// - A challenge is taken from the output buffer (the first `rate` state elements after the
///   last duplexing) **from its end**: `state[rate − 1]` first. A duplexing runs first when
///   input is pending or the output buffer is empty.
///
/// The state starts at zero. plonky2's (Poseidon over Goldilocks, width 12, rate 8) is
/// `zkaccel_plonky2::challenger()`.
#[derive(Debug, Clone)]
pub struct DuplexChallenger<F, P> {
    permutation: P,
    rate: usize,
    state: Vec<F>,
    input: Vec<F>,
    output: Vec<F>,
    counts: SpongeCounts,
}

/// What a challenger has done so far, for kernel traces: elements absorbed and squeezed,
/// permutations of its own duplexing, and permutations tried by proof-of-work searches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SpongeCounts {
    /// Elements observed (grinding witnesses included).
    pub absorbed: u64,
    /// Challenges drawn (base-field elements).
    pub squeezed: u64,
    /// Duplexings.
    pub permutations: u64,
    /// Permutations computed while searching for proof-of-work witnesses.
    pub grind_permutations: u64,
}

impl<F: PrimeField, P: Permutation<F>> DuplexChallenger<F, P> {
    /// A challenger over `permutation` with the given rate, its state zero.
    ///
    /// # Errors
    /// [`ChallengerError::Rate`] unless `0 < rate < permutation.width()`.
    pub fn new(permutation: P, rate: usize) -> Result<Self, ChallengerError> {
        let width = permutation.width();
        if rate == 0 || rate >= width {
            return Err(ChallengerError::Rate { width, rate });
        }
        Ok(Self {
            permutation,
            rate,
            state: vec![F::ZERO; width],
            input: Vec::with_capacity(rate),
            output: Vec::with_capacity(rate),
            counts: SpongeCounts::default(),
        })
    }

    /// The rate.
    pub fn rate(&self) -> usize {
        self.rate
    }

    /// What this challenger has done so far.
    pub fn counts(&self) -> SpongeCounts {
        self.counts
    }

    /// The permutation the sponge runs.
    pub fn permutation(&self) -> &P {
        &self.permutation
    }

    /// Absorbs one element.
    pub fn observe_element(&mut self, element: F) {
        self.counts.absorbed += 1;
        self.output.clear();
        self.input.push(element);
        if self.input.len() == self.rate {
            self.duplex();
        }
    }

    /// Absorbs elements in order.
    pub fn observe_elements(&mut self, elements: &[F]) {
        for &e in elements {
            self.observe_element(e);
        }
    }

    /// Absorbs an extension-field element as its coordinates, lowest first.
    pub fn observe_extension_element<E: ExtensionField<F>>(&mut self, element: &E) {
        self.observe_elements(element.as_base_slice());
    }

    /// Absorbs extension-field elements in order.
    pub fn observe_extension_elements<E: ExtensionField<F>>(&mut self, elements: &[E]) {
        for e in elements {
            self.observe_extension_element(e);
        }
    }

    /// One challenge.
    pub fn challenge(&mut self) -> F {
        if !self.input.is_empty() || self.output.is_empty() {
            self.duplex();
        }
        self.counts.squeezed += 1;
        self.output
            .pop()
            .expect("a duplexing fills the output buffer")
    }

    /// `n` challenges.
    pub fn challenges(&mut self, n: usize) -> Vec<F> {
        (0..n).map(|_| self.challenge()).collect()
    }

    /// One extension-field challenge: [`ExtensionField::DEGREE`] challenges as its coordinates,
    /// lowest first.
    pub fn extension_challenge<E: ExtensionField<F>>(&mut self) -> E {
        let coordinates = self.challenges(E::DEGREE);
        E::from_base_slice(&coordinates).expect("DEGREE coordinates")
    }

    /// `n` extension-field challenges.
    pub fn extension_challenges<E: ExtensionField<F>>(&mut self, n: usize) -> Vec<E> {
        (0..n).map(|_| self.extension_challenge()).collect()
    }

    /// A challenge read as an index below `bound`: its canonical value modulo `bound`
    /// (plonky2's FRI query indices).
    ///
    /// # Errors
    /// [`ChallengerError::FieldTooWide`] for a field of more than 64 bits.
    pub fn index_challenge(&mut self, bound: usize) -> Result<usize, ChallengerError> {
        check_narrow::<F>()?;
        let c = self.challenge();
        Ok((canonical_u64(&c) % bound.max(1) as u64) as usize)
    }

    /// Proof-of-work grinding as plonky2's FRI prover runs it: the **smallest** nonce `w`
    /// (counting from 0) such that absorbing `w` and taking a challenge gives a value whose
    /// canonical 64-bit form has at least `bits + (64 − F::BITS)` leading zeros; then absorbs
    /// `w`, takes that challenge, and returns `w`.
    ///
    /// Candidates are tried in blocks of 1024, all of a block's permutations in one batch, in
    /// rounds of 1, 2, 4 … up to 64 blocks run on all threads; the first block with a hit
    /// decides, so the witness is the smallest whatever the number of threads (plonky2 with
    /// its `parallel` feature returns whichever thread finds one first).
    ///
    /// # Errors
    /// [`ChallengerError::FieldTooWide`], [`ChallengerError::PowBits`] for more bits than a
    /// challenge has, [`ChallengerError::NoWitness`] when no nonce meets the target.
    pub fn grind(&mut self, bits: u32) -> Result<F, ChallengerError> {
        check_narrow::<F>()?;
        let target = pow_target::<F>(bits)?;
        // The state the nonce is absorbed into: the pending input written over the rate.
        let mut start = self.state.clone();
        start[..self.input.len()].copy_from_slice(&self.input);
        let position = self.input.len();
        let (witness, tried) = self.find_witness(&start, position, target)?;
        self.counts.grind_permutations += tried;
        self.observe_element(witness);
        let response = self.challenge();
        debug_assert!(canonical_u64(&response).leading_zeros() >= target);
        Ok(witness)
    }

    fn find_witness(
        &self,
        start: &[F],
        position: usize,
        target: u32,
    ) -> Result<(F, u64), ChallengerError> {
        const BLOCK: u64 = 1 << 10;
        const BLOCKS_PER_ROUND: u64 = 64;
        let width = self.state.len();
        let order = canonical_u64(&F::NEG_ONE); // the largest nonce
                                                // Each block answers its witness, if any, and the permutations it computed.
        let try_block = |block: u64| -> Result<(Option<u64>, u64), ChallengerError> {
            let first = block * BLOCK;
            if first > order {
                return Ok((None, 0));
            }
            let count = (order - first).min(BLOCK - 1) + 1;
            let mut states = Vec::with_capacity(count as usize * width);
            for i in 0..count {
                states.extend_from_slice(start);
                let at = states.len() - width + position;
                states[at] = F::from_u64_reduced(first + i);
            }
            self.permutation.permute_many(&mut states).map_err(|_| {
                ChallengerError::Permutation {
                    width,
                    states: count as usize,
                }
            })?;
            let hit = (0..count)
                .find(|&i| {
                    let response = &states[i as usize * width + self.rate - 1];
                    canonical_u64(response).leading_zeros() >= target
                })
                .map(|i| first + i);
            Ok((hit, count))
        };
        // Rounds of 1, 2, 4 … 64 blocks, so an easy target costs one block, not 64.
        let mut first_block = 0u64;
        let mut round_blocks = 1u64;
        let mut tried = 0u64;
        while first_block * BLOCK <= order {
            let blocks = first_block..first_block + round_blocks;
            first_block += round_blocks;
            round_blocks = (round_blocks * 2).min(BLOCKS_PER_ROUND);
            let found: Vec<(Option<u64>, u64)> = blocks
                .into_par_iter()
                .map(try_block)
                .collect::<Result<_, _>>()?;
            tried += found.iter().map(|(_, count)| count).sum::<u64>();
            if let Some(w) = found.into_iter().find_map(|(hit, _)| hit) {
                return Ok((F::from_u64_reduced(w), tried));
            }
        }
        Err(ChallengerError::NoWitness { bits: target })
    }

    /// Absorbs `witness` and checks that the challenge it yields meets the proof-of-work
    /// target of [`DuplexChallenger::grind`]; the verifier's side of grinding.
    ///
    /// # Errors
    /// As [`DuplexChallenger::grind`]; `Ok(false)` for a witness that misses the target.
    pub fn check_witness(&mut self, bits: u32, witness: F) -> Result<bool, ChallengerError> {
        check_narrow::<F>()?;
        pow_target::<F>(bits)?;
        self.observe_element(witness);
        let response = self.challenge();
        meets_pow_target(response, bits)
    }

    fn duplex(&mut self) {
        debug_assert!(self.input.len() <= self.rate);
        let pending = self.input.len();
        self.state[..pending].copy_from_slice(&self.input);
        self.input.clear();
        self.counts.permutations += 1;
        self.permutation
            .permute_mut(&mut self.state)
            .expect("the state has the permutation's own width");
        self.output.clear();
        self.output.extend_from_slice(&self.state[..self.rate]);
    }
}

/// Whether `response`, the challenge drawn after a proof-of-work witness, meets the target of
/// [`DuplexChallenger::grind`]: at least `bits + (64 − F::BITS)` leading zeros in its canonical
/// 64-bit form.
///
/// # Errors
/// [`ChallengerError::FieldTooWide`], [`ChallengerError::PowBits`] as for grinding.
pub fn meets_pow_target<F: PrimeField>(response: F, bits: u32) -> Result<bool, ChallengerError> {
    check_narrow::<F>()?;
    let target = pow_target::<F>(bits)?;
    Ok(canonical_u64(&response).leading_zeros() >= target)
}

fn check_narrow<F: PrimeField>() -> Result<(), ChallengerError> {
    if F::BITS > 64 {
        return Err(ChallengerError::FieldTooWide {
            field: F::NAME,
            bits: F::BITS,
        });
    }
    Ok(())
}

fn pow_target<F: PrimeField>(bits: u32) -> Result<u32, ChallengerError> {
    let max = F::BITS;
    if bits > max {
        return Err(ChallengerError::PowBits { bits, max });
    }
    Ok(bits + (64 - F::BITS))
}

/// The canonical value of an element of a field of at most 64 bits.
fn canonical_u64<F: PrimeField>(x: &F) -> u64 {
    x.to_canonical_limbs().as_ref()[0]
}
