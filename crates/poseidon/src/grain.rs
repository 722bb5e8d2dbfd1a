//! The Grain LFSR of the Poseidon reference (`generate_parameters_grain.sage`): the stream from
//! which Poseidon's round constants (and the reference's Cauchy MDS candidates) are drawn.
//!
//! The 80-bit initial state encodes the instance: field type (2 bits), S-box code (4), field
//! size `n` (12), width `t` (12), `R_F` (10), `R_P` (10), then 30 ones, each field MSB first.
//! A step outputs `b62 ⊕ b51 ⊕ b38 ⊕ b23 ⊕ b13 ⊕ b0` and shifts it in; the first 160 outputs
//! are discarded, and the rest go through self-shrinking (pairs `(x, y)`: output `y` when
//! `x = 1`, otherwise drop both).

use zkaccel_field::{limbs, PrimeField};

use crate::error::PoseidonError;

/// How the S-box is written into bits 2..6 of the initial state. The reference script and
/// Filecoin's neptune disagree, which changes every constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SboxEncoding {
    /// The reference script (and circomlib): 0 for `x^α`, 1 for `x^{-1}`.
    Reference,
    /// neptune (Filecoin) and the Ingonyama package: 0 for `x^3`, 1 for `x^5`, 2 for `x^{-1}`,
    /// 3 for any other exponent.
    Filecoin,
}

impl SboxEncoding {
    /// The 4-bit code of the power map `x^α`.
    pub fn code(self, alpha: u64) -> u8 {
        match self {
            Self::Reference => 0,
            Self::Filecoin => match alpha {
                3 => 0,
                5 => 1,
                _ => 3,
            },
        }
    }
}

/// The instance the generator is seeded with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrainSeed {
    /// Field type: 1 for GF(p) (0 would be GF(2^n)).
    pub field: u8,
    /// S-box code (see [`SboxEncoding`]).
    pub sbox: u8,
    /// Field size in bits: also the number of bits read per element.
    pub field_bits: u32,
    /// Width `t`.
    pub width: usize,
    /// Full rounds `R_F`.
    pub full_rounds: usize,
    /// Partial rounds `R_P`.
    pub partial_rounds: usize,
}

/// The self-shrinking Grain generator.
#[derive(Debug, Clone)]
pub struct GrainLfsr {
    /// `b0` is bit 0.
    state: u128,
    field_bits: u32,
}

impl GrainLfsr {
    /// Seeds the generator and discards its first 160 outputs.
    pub fn new(seed: GrainSeed) -> Self {
        let mut lfsr = Self {
            state: Self::initial_state(seed),
            field_bits: seed.field_bits,
        };
        for _ in 0..160 {
            lfsr.step();
        }
        lfsr
    }

    fn initial_state(seed: GrainSeed) -> u128 {
        let fields: [(u64, u32); 6] = [
            (seed.field as u64, 2),
            (seed.sbox as u64, 4),
            (seed.field_bits as u64, 12),
            (seed.width as u64, 12),
            (seed.full_rounds as u64, 10),
            (seed.partial_rounds as u64, 10),
        ];
        let mut state = 0u128;
        let mut pos = 0;
        for (value, width) in fields {
            for i in (0..width).rev() {
                state |= (((value >> i) & 1) as u128) << pos;
                pos += 1;
            }
        }
        for i in pos..80 {
            state |= 1 << i;
        }
        state
    }

    /// The 80 initial state bits for `seed`, `b0` first, as a `0`/`1` string (the form the
    /// reference prints).
    pub fn initial_state_bits(seed: GrainSeed) -> String {
        let state = Self::initial_state(seed);
        (0..80)
            .map(|i| if (state >> i) & 1 == 1 { '1' } else { '0' })
            .collect()
    }

    #[inline]
    fn step(&mut self) -> bool {
        let b = |i: u32| (self.state >> i) & 1;
        let new = b(62) ^ b(51) ^ b(38) ^ b(23) ^ b(13) ^ b(0);
        self.state = (self.state >> 1) | (new << 79);
        new == 1
    }

    /// The next self-shrunk output bit.
    pub fn next_bit(&mut self) -> bool {
        loop {
            let x = self.step();
            let y = self.step();
            if x {
                return y;
            }
        }
    }

    /// The next `n` bits as an integer, most significant first (little-endian limbs).
    fn next_integer(&mut self) -> Vec<u64> {
        let n = self.field_bits as usize;
        let mut out = vec![0u64; n.div_ceil(64).max(1)];
        for i in (0..n).rev() {
            if self.next_bit() {
                out[i / 64] |= 1 << (i % 64);
            }
        }
        out
    }

    /// The next field element by rejection: `n`-bit integers `≥ p` are skipped (how the
    /// reference draws round constants).
    pub fn next_field_element_rejecting<F: PrimeField>(&mut self) -> F {
        loop {
            let v = self.next_integer();
            if limbs::cmp_padded(&v, F::modulus().as_ref()) == core::cmp::Ordering::Less {
                return F::from_limbs_reduced(&v);
            }
        }
    }

    /// The next `n`-bit integer reduced modulo `p` (how the reference draws MDS candidates).
    pub fn next_field_element_reduced<F: PrimeField>(&mut self) -> F {
        F::from_limbs_reduced(&self.next_integer())
    }

    /// `(R_F + R_P)·t` round constants, round-major, by rejection sampling.
    ///
    /// # Errors
    /// [`PoseidonError::GrainFieldBits`] when the field has more bits than the seed reads (the
    /// stream could never produce its large elements) or far fewer; [`PoseidonError::Limit`]
    /// for a shape past [`crate::limits`] (the seed's fields would truncate).
    pub fn round_constants<F: PrimeField>(seed: GrainSeed) -> Result<Vec<F>, PoseidonError> {
        check_field_bits::<F>(seed.field_bits)?;
        crate::limits::check_shape(seed.width, seed.full_rounds, seed.partial_rounds)?;
        let mut lfsr = Self::new(seed);
        let count = (seed.full_rounds + seed.partial_rounds) * seed.width;
        Ok((0..count)
            .map(|_| lfsr.next_field_element_rejecting())
            .collect())
    }
}

/// Rejection sampling needs `2^n ≥ p` to terminate, and is only sensible when `2^n < 4p`.
pub(crate) fn check_field_bits<F: PrimeField>(field_bits: u32) -> Result<(), PoseidonError> {
    let p_bits = limbs::bit_len(F::modulus().as_ref());
    if field_bits < p_bits || field_bits > p_bits + 1 {
        return Err(PoseidonError::GrainFieldBits {
            field_bits,
            field: F::NAME,
            p_bits,
        });
    }
    Ok(())
}
