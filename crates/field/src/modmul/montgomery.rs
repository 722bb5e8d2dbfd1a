//! Montgomery multiplication (Montgomery 1985), as the NTT paper's Algorithm 1 states it and in
//! the word-serial CIOS form (Koç, Acar, Kaliski 1996) that software and the RTL use.
//!
//! With `R = 2^256` and `P' = -P^{-1} mod R`, Algorithm 1 computes `C = A·B·R^{-1} mod P`:
//!
//! ```text
//! T ← A·B;  M ← T·P' mod R;  C ← (M·P + T)/R;  if C ≥ P then C ← C − P
//! ```
//!
//! CIOS interleaves the same computation one 64-bit word at a time, so that only
//! `−P^{-1} mod 2^64` is needed.

use super::{geq, mul_wide, sub, validate_modulus, ModularMultiplier, U256};
use crate::error::FieldError;
use crate::limbs::{adc, mac};

/// The constants of Montgomery arithmetic modulo an odd 256-bit `p`, all derived from `p`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Montgomery256 {
    /// The modulus `p`.
    pub modulus: U256,
    /// `−p^{-1} mod 2^64`, the per-word CIOS constant.
    pub inv: u64,
    /// `−p^{-1} mod 2^256`, the `P'` of Algorithm 1.
    pub inv_full: U256,
    /// `R mod p = 2^256 mod p`, the Montgomery form of 1.
    pub r: U256,
    /// `R^2 mod p`, used to enter Montgomery form.
    pub r2: U256,
}

impl Montgomery256 {
    /// Derives every constant from the modulus at compile time.
    ///
    /// # Panics
    /// In a `const` context, compilation fails for an even modulus; use
    /// [`Montgomery256::try_new`] for moduli that come from users.
    pub const fn new(modulus: U256) -> Self {
        assert!(
            modulus[0] & 1 == 1,
            "Montgomery arithmetic needs an odd modulus"
        );
        // Newton iteration for p^{-1} mod 2^64: each step doubles the correct low bits.
        let mut inv = 1u64;
        let mut i = 0;
        while i < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(modulus[0].wrapping_mul(inv)));
            i += 1;
        }
        let inv = inv.wrapping_neg();
        // The same over 256 bits: x ← x(2 − p x) mod 2^256, eight steps from 1 correct bit.
        let mut x: U256 = [1, 0, 0, 0];
        let two: U256 = [2, 0, 0, 0];
        let mut i = 0;
        while i < 9 {
            let px = low_half(&mul_wide(&modulus, &x));
            let t = sub(&two, &px).0;
            x = low_half(&mul_wide(&x, &t));
            i += 1;
        }
        let inv_full = sub(&[0, 0, 0, 0], &x).0;
        // R mod p and R^2 mod p by doubling 1 modulo p.
        let mut acc: U256 = [1, 0, 0, 0];
        let mut r = [0u64; 4];
        let mut i = 0;
        while i < 512 {
            acc = double_mod(&acc, &modulus);
            i += 1;
            if i == 256 {
                r = acc;
            }
        }
        Self {
            modulus,
            inv,
            inv_full,
            r,
            r2: acc,
        }
    }

    /// As [`Montgomery256::new`], for a run-time modulus.
    ///
    /// # Errors
    /// [`FieldError::InvalidModulus`] for an even modulus, one below 3 or one of 2^255 or more.
    pub fn try_new(modulus: U256) -> Result<Self, FieldError> {
        validate_modulus(&modulus)?;
        Ok(Self::new(modulus))
    }

    /// CIOS Montgomery product `a·b·R^{-1} mod p` of Montgomery-form `a, b < p`.
    pub const fn mul(&self, a: &U256, b: &U256) -> U256 {
        let p = &self.modulus;
        // t has 4 + 2 words: the running sum never exceeds 2p < 2^257.
        let mut t = [0u64; 6];
        let mut i = 0;
        while i < 4 {
            // t += a * b[i]
            let mut carry = 0;
            let mut j = 0;
            while j < 4 {
                let (lo, hi) = mac(t[j], a[j], b[i], carry);
                t[j] = lo;
                carry = hi;
                j += 1;
            }
            let (s, c) = adc(t[4], carry, 0);
            t[4] = s;
            t[5] = c;
            // m = t[0] * (−p^{-1}) mod 2^64; t = (t + m p) / 2^64
            let m = t[0].wrapping_mul(self.inv);
            let (_, mut carry) = mac(t[0], m, p[0], 0);
            let mut j = 1;
            while j < 4 {
                let (lo, hi) = mac(t[j], m, p[j], carry);
                t[j - 1] = lo;
                carry = hi;
                j += 1;
            }
            let (s, c) = adc(t[4], carry, 0);
            t[3] = s;
            t[4] = t[5] + c;
            i += 1;
        }
        let r = [t[0], t[1], t[2], t[3]];
        if t[4] != 0 || geq(&r, p) {
            sub(&r, p).0
        } else {
            r
        }
    }

    /// The NTT paper's Algorithm 1, literally, with full-width `T` and `P' = −p^{-1} mod 2^256`.
    pub const fn mul_three_products(&self, a: &U256, b: &U256) -> U256 {
        let p = &self.modulus;
        let t = mul_wide(a, b); // T ← A·B
        let m = low_half(&mul_wide(&low_half(&t), &self.inv_full)); // M ← T·P' mod R
        let mp = mul_wide(&m, p);
        // C ← (M·P + T) / R; the low half of the sum is zero by construction.
        let mut sum = [0u64; 8];
        let mut carry = 0;
        let mut i = 0;
        while i < 8 {
            let (s, c) = adc(mp[i], t[i], carry);
            sum[i] = s;
            carry = c;
            i += 1;
        }
        let c = [sum[4], sum[5], sum[6], sum[7]];
        if carry != 0 || geq(&c, p) {
            sub(&c, p).0
        } else {
            c
        }
    }

    /// Enters Montgomery form: `a·R mod p`.
    pub const fn to_montgomery(&self, a: &U256) -> U256 {
        self.mul(a, &self.r2)
    }

    /// Leaves Montgomery form: `a·R^{-1} mod p`.
    pub const fn from_montgomery(&self, a: &U256) -> U256 {
        self.mul(a, &[1, 0, 0, 0])
    }
}

impl ModularMultiplier for Montgomery256 {
    fn modulus(&self) -> &U256 {
        &self.modulus
    }
    fn mul_mod(&self, a: &U256, b: &U256) -> U256 {
        // (aR)(b)R^{-1} = ab: one conversion suffices.
        self.mul(&self.to_montgomery(a), b)
    }
}

const fn low_half(w: &[u64; 8]) -> U256 {
    [w[0], w[1], w[2], w[3]]
}

/// `2a mod p` for `a < p < 2^256`.
const fn double_mod(a: &U256, p: &U256) -> U256 {
    let top = a[3] >> 63;
    let d = [
        a[0] << 1,
        (a[1] << 1) | (a[0] >> 63),
        (a[2] << 1) | (a[1] >> 63),
        (a[3] << 1) | (a[2] >> 63),
    ];
    if top != 0 || geq(&d, p) {
        sub(&d, p).0
    } else {
        d
    }
}
