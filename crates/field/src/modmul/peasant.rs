//! Russian-peasant (shift-and-add) modular multiplication, AMAZE's Algorithm 1 — the method of
//! the DSP-free AMZ-3 design: one bit of the multiplier per step, additions and shifts only.
//!
//! ```text
//! y ← 0
//! loop n = ⌈log2(p − 1)⌉ times:
//!     t ← x1 if LSB(x2) = 1 else 0
//!     y ← y + t;       y ← y − p if y ≥ p
//!     u ← x1 ≪ 1;      x1 ← u − p if u ≥ p
//!     x2 ← x2 ≫ 1
//! ```
//!
//! (The listing compares with `> p`; `≥ p` keeps results canonical when a sum equals `p`.)

use super::{add, geq, sub, validate_modulus, ModularMultiplier, U256};
use crate::error::FieldError;
use crate::limbs;

/// Russian-peasant multiplier for a modulus below `2^255`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RussianPeasant256 {
    /// The modulus `p`.
    pub modulus: U256,
    /// `n = ⌈log2(p − 1)⌉`: the number of iterations (clock cycles in AMZ-3).
    pub n: u32,
}

impl RussianPeasant256 {
    /// # Errors
    /// [`FieldError::InvalidModulus`] for an even modulus, one below 3 or one of `2^255` or more.
    pub fn new(modulus: U256) -> Result<Self, FieldError> {
        validate_modulus(&modulus)?;
        let mut p_minus_1 = modulus;
        limbs::sub_assign(&mut p_minus_1, &[1]);
        Ok(Self {
            modulus,
            n: limbs::bit_len(&p_minus_1),
        })
    }

    /// `x1 · x2 mod p` for canonical inputs, one bit of `x2` per iteration.
    pub fn mul(&self, x1: &U256, x2: &U256) -> U256 {
        let p = &self.modulus;
        let (mut x1, mut x2) = (*x1, *x2);
        let mut y = [0u64; 4];
        for _ in 0..self.n {
            if x2[0] & 1 == 1 {
                // y + x1 < 2p < 2^256: no carry out.
                y = add(&y, &x1).0;
                if geq(&y, p) {
                    y = sub(&y, p).0;
                }
            }
            let u = add(&x1, &x1).0;
            x1 = if geq(&u, p) { sub(&u, p).0 } else { u };
            limbs::shr_assign(&mut x2, 1);
        }
        y
    }
}

impl ModularMultiplier for RussianPeasant256 {
    fn modulus(&self) -> &U256 {
        &self.modulus
    }
    fn mul_mod(&self, a: &U256, b: &U256) -> U256 {
        self.mul(a, b)
    }
}
