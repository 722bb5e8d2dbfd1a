//! Barrett modular multiplication (Barrett 1986) as AMAZE's Algorithm 2 states it:
//!
//! ```text
//! n = ⌈log2(p − 1)⌉,  z = ⌊2^{2n} / p⌋
//! w ← x1·x2
//! t ← (w ≫ (n − 1))·z
//! u ← (t ≫ (n + 1))·p
//! y ← (w mod 2^{n+1}) − (u mod 2^{n+1})
//! y ← y − p if y ≥ p        (twice)
//! ```
//!
//! The hardware keeps only the low `n + 1` bits of `w` and `u` (AMAZE's `w[254:0]` for BN254).
//! That is exact when the true remainder `w − u` is below `2^{n+1}`. The quotient estimate is
//! short by at most `(p−1)²/2^{2n} + 2^{n−1}/p + 1` multiples of `p`, so the remainder is below
//! `2^n·(ρ³ + ρ + 1/2)` with `ρ = p/2^n`: about `1.69·2^n` for BN254 Fr (so `n + 1` bits are
//! enough, as in AMAZE) but about `2.15·2^n` for BLS12-381 Fr, where [`Barrett256::new`] keeps
//! `n + 2` bits instead. The listing's two final subtractions test `y > p`; we test `y ≥ p`, so
//! that a product equal to `p` reduces to 0.

use super::{validate_modulus, ModularMultiplier, U256};
use crate::error::FieldError;
use crate::limbs;

/// Barrett constants for a modulus below `2^255`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Barrett256 {
    /// The modulus `p`.
    pub modulus: U256,
    /// `n = ⌈log2(p − 1)⌉`, the bit length of `p − 1`.
    pub n: u32,
    /// `z = ⌊2^{2n}/p⌋`, at most `n + 1` bits.
    pub z: [u64; 5],
    /// How many low bits of `w` and `u` the subtraction keeps: `n + 1` as in AMAZE when that is
    /// provably exact for this modulus, else `n + 2`.
    pub residue_bits: u32,
}

impl Barrett256 {
    /// Derives `n`, `z` and the residue width from the modulus.
    ///
    /// # Errors
    /// [`FieldError::InvalidModulus`] for an even modulus, one below 3 or one of `2^255` or more.
    pub fn new(modulus: U256) -> Result<Self, FieldError> {
        validate_modulus(&modulus)?;
        let mut p_minus_1 = modulus;
        limbs::sub_assign(&mut p_minus_1, &[1]);
        let n = limbs::bit_len(&p_minus_1);
        // 2^{2n} / p
        let mut pow = [0u64; 9];
        pow[(2 * n / 64) as usize] = 1 << (2 * n % 64);
        let (q, _) = limbs::div_rem(&pow, &modulus);
        let mut z = [0u64; 5];
        z.copy_from_slice(&q[..5]);
        debug_assert!(limbs::is_zero(&q[5..]));
        // Bound on the remainder before the final subtractions, in units of 2^n (see module doc).
        let rho = top_bits_as_f64(&modulus) / 2f64.powi(n as i32);
        let bound = rho * rho * rho + rho + 0.5;
        let residue_bits = if bound < 1.99 { n + 1 } else { n + 2 };
        Ok(Self {
            modulus,
            n,
            z,
            residue_bits,
        })
    }

    /// `x1 · x2 mod p` for canonical `x1, x2`, following Algorithm 2 step by step.
    pub fn mul(&self, x1: &U256, x2: &U256) -> U256 {
        let n = self.n;
        // 1: w ← x1 · x2 (512 bits)
        let mut w = [0u64; 8];
        limbs::mul_into(x1, x2, &mut w);
        // 2: t ← (w ≫ (n − 1)) · z
        let mut w_shifted = w;
        limbs::shr_assign(&mut w_shifted, n - 1);
        let mut t = [0u64; 13];
        limbs::mul_into(&w_shifted[..8], &self.z, &mut t);
        // 3: u ← (t ≫ (n + 1)) · p
        limbs::shr_assign(&mut t, n + 1);
        let mut u = [0u64; 17];
        limbs::mul_into(&t, &self.modulus, &mut u);
        // 4: y ← (w mod 2^{b}) − (u mod 2^{b}) mod 2^{b}, b = residue_bits
        let mut y = [0u64; 5];
        y.copy_from_slice(&w[..5]);
        limbs::sub_assign(&mut y, &u[..5]);
        limbs::truncate_bits(&mut y, self.residue_bits);
        // 5, 6: at most two conditional subtractions.
        for _ in 0..2 {
            if limbs::cmp_padded(&y, &self.modulus) != core::cmp::Ordering::Less {
                limbs::sub_assign(&mut y, &self.modulus);
            }
        }
        debug_assert!(limbs::cmp_padded(&y, &self.modulus) == core::cmp::Ordering::Less);
        [y[0], y[1], y[2], y[3]]
    }
}

impl ModularMultiplier for Barrett256 {
    fn modulus(&self) -> &U256 {
        &self.modulus
    }
    fn mul_mod(&self, a: &U256, b: &U256) -> U256 {
        self.mul(a, b)
    }
}

/// The value of the top 64 significant bits of `a`, as a float with the right exponent.
fn top_bits_as_f64(a: &U256) -> f64 {
    a.iter()
        .rev()
        .fold(0.0, |acc, &w| acc * 2f64.powi(64) + w as f64)
}
