//! The modular-multiplication algorithms of the papers, on 256-bit integers (4 × 64-bit limbs).
//!
//! Each algorithm is a faithful, documented implementation of its paper listing; they are the
//! reference behaviour the fast field code, the RTL and the cycle models are checked against,
//! and they are cross-checked against each other on random inputs.
//!
//! | algorithm | source | module |
//! |---|---|---|
//! | Montgomery (CIOS, and the three-multiplication form) | NTT paper, Algorithm 1 | [`montgomery`] |
//! | Barrett with `z = ⌊2^{2n}/p⌋` | AMAZE, Algorithm 2 | [`barrett`] |
//! | Russian peasant shift-and-add | AMAZE, Algorithm 1 | [`peasant`] |

pub mod barrett;
pub mod montgomery;
pub mod peasant;
pub mod words;

pub use barrett::Barrett256;
pub use montgomery::Montgomery256;
pub use peasant::RussianPeasant256;
pub use words::MontgomeryWords;

use crate::error::FieldError;

/// A 256-bit unsigned integer, four little-endian 64-bit limbs.
pub type U256 = [u64; 4];

/// Which modular-multiplication algorithm to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MulAlgorithm {
    /// Montgomery multiplication (CIOS), the default representation of the 256-bit fields.
    #[default]
    Montgomery,
    /// Barrett reduction, AMAZE Algorithm 2.
    Barrett,
    /// Russian-peasant shift-and-add, AMAZE Algorithm 1 (no multiplier at all).
    RussianPeasant,
}

impl MulAlgorithm {
    /// All algorithms, for tests and benches.
    pub const ALL: [MulAlgorithm; 3] = [Self::Montgomery, Self::Barrett, Self::RussianPeasant];

    /// A short, stable name (`montgomery`, `barrett`, `peasant`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Montgomery => "montgomery",
            Self::Barrett => "barrett",
            Self::RussianPeasant => "peasant",
        }
    }
}

impl core::str::FromStr for MulAlgorithm {
    type Err = FieldError;
    fn from_str(s: &str) -> Result<Self, FieldError> {
        match s {
            "montgomery" => Ok(Self::Montgomery),
            "barrett" => Ok(Self::Barrett),
            "peasant" | "russian-peasant" => Ok(Self::RussianPeasant),
            _ => Err(FieldError::Malformed {
                input: crate::error::excerpt(s),
                reason: "unknown algorithm: expected montgomery, barrett or peasant",
            }),
        }
    }
}

/// Modular multiplication of canonical residues, whatever the algorithm's internal form.
pub trait ModularMultiplier: Send + Sync {
    /// The modulus.
    fn modulus(&self) -> &U256;
    /// `a * b mod p` for canonical `a, b < p`; the result is canonical.
    fn mul_mod(&self, a: &U256, b: &U256) -> U256;
}

/// Checks that a modulus is usable by every algorithm here: odd, greater than 2, and below
/// `2^255` (so that doubling a residue cannot overflow 256 bits).
pub(crate) fn validate_modulus(p: &U256) -> Result<(), FieldError> {
    if p[0] & 1 == 0 {
        return Err(FieldError::InvalidModulus {
            reason: "modulus must be odd",
        });
    }
    if p[3] >> 63 != 0 {
        return Err(FieldError::InvalidModulus {
            reason: "modulus must be below 2^255",
        });
    }
    if p[1] == 0 && p[2] == 0 && p[3] == 0 && p[0] < 3 {
        return Err(FieldError::InvalidModulus {
            reason: "modulus must be greater than 2",
        });
    }
    Ok(())
}

// ---- const-friendly 256-bit helpers -------------------------------------------------------

/// `a >= b`.
#[inline(always)]
pub(crate) const fn geq(a: &U256, b: &U256) -> bool {
    let mut i = 4;
    while i > 0 {
        i -= 1;
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

/// `a - b mod 2^256` and the borrow.
#[inline(always)]
pub(crate) const fn sub(a: &U256, b: &U256) -> (U256, u64) {
    let mut out = [0u64; 4];
    let mut borrow = 0;
    let mut i = 0;
    while i < 4 {
        let (d, br) = crate::limbs::sbb(a[i], b[i], borrow);
        out[i] = d;
        borrow = br;
        i += 1;
    }
    (out, borrow)
}

/// `a + b mod 2^256` and the carry.
#[inline(always)]
pub(crate) const fn add(a: &U256, b: &U256) -> (U256, u64) {
    let mut out = [0u64; 4];
    let mut carry = 0;
    let mut i = 0;
    while i < 4 {
        let (s, c) = crate::limbs::adc(a[i], b[i], carry);
        out[i] = s;
        carry = c;
        i += 1;
    }
    (out, carry)
}

/// The full 512-bit product.
#[inline(always)]
pub(crate) const fn mul_wide(a: &U256, b: &U256) -> [u64; 8] {
    let mut out = [0u64; 8];
    let mut i = 0;
    while i < 4 {
        let mut carry = 0;
        let mut j = 0;
        while j < 4 {
            let (lo, hi) = crate::limbs::mac(out[i + j], a[i], b[j], carry);
            out[i + j] = lo;
            carry = hi;
            j += 1;
        }
        out[i + 4] = carry;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests;
