//! `GF(p²) = GF(p)[X] / (X² − 7)`, the quadratic extension of Goldilocks that Plonky2 uses for
//! its challenges (`QuadraticExtension<GoldilocksField>`, `W = 7`), with the same multiplicative
//! generator and two-adic generators as Plonky2 and Plonky3.

use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use zkaccel_field::{
    limbs, split_two_adic, tonelli_shanks, Algebra, ExtensionField, Field, FieldError, TwoAdicField,
};

use crate::field::{assign_ops, ORDER};
use crate::Goldilocks;

/// `W` in `X² = W`: 7, a quadratic non-residue modulo `p`.
const W: Goldilocks = Goldilocks(7);

/// An element `c0 + c1·X` of `GF(p²)`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Goldilocks2(pub [Goldilocks; 2]);

impl Goldilocks2 {
    /// `c0 + c1·X`.
    pub const fn new(c0: Goldilocks, c1: Goldilocks) -> Self {
        Self([c0, c1])
    }

    /// The conjugate `c0 − c1·X` (the Frobenius map `x ↦ x^p`).
    pub fn conjugate(&self) -> Self {
        Self([self.0[0], -self.0[1]])
    }

    /// The norm `c0² − 7·c1²` in the base field.
    pub fn norm(&self) -> Goldilocks {
        self.0[0].square() - W * self.0[1].square()
    }
}

impl Add for Goldilocks2 {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        Self([self.0[0] + rhs.0[0], self.0[1] + rhs.0[1]])
    }
}
impl Sub for Goldilocks2 {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Self([self.0[0] - rhs.0[0], self.0[1] - rhs.0[1]])
    }
}
/// `2^128 mod p = (2^32 − 1)^2`: what a carry out of a 128-bit sum is worth.
const TWO_128_MOD_P: u128 = 0xFFFF_FFFE_0000_0001;

/// `x + y` for 128-bit integers, folding a carry out of 128 bits back in (the result is
/// congruent modulo `p`; it cannot carry again, see `mul`).
#[inline(always)]
fn add_u128_fold(x: u128, y: u128) -> u128 {
    // Branch-free: for random inputs a carry happens about half the time.
    let (s, carry) = x.overflowing_add(y);
    s + (TWO_128_MOD_P & 0u128.wrapping_sub(carry as u128))
}

impl Mul for Goldilocks2 {
    type Output = Self;
    /// `(a0 + a1·X)(b0 + b1·X) = (a0·b0 + 7·a1·b1) + (a0·b1 + a1·b0)·X`, each coordinate
    /// accumulated in 128 bits and reduced once. Even for non-canonical words a wrapped sum is below
    /// `2^128 − 2^64`, so adding `2^128 mod p < 2^64` back cannot carry again.
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        let [a0, a1] = self.0.map(|x| x.0 as u128);
        let [b0, b1] = rhs.0.map(|x| x.0 as u128);
        // 7·b1 first: it does not depend on a, so in a chain x ← x·y it leaves the critical path.
        let w_b1 = crate::field::reduce128(W.0 as u128 * b1) as u128;
        let c0 = add_u128_fold(a0 * b0, a1 * w_b1);
        let c1 = add_u128_fold(a0 * b1, a1 * b0);
        Self([
            Goldilocks(crate::field::reduce128(c0)),
            Goldilocks(crate::field::reduce128(c1)),
        ])
    }
}
impl Neg for Goldilocks2 {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self([-self.0[0], -self.0[1]])
    }
}
impl Add<Goldilocks> for Goldilocks2 {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Goldilocks) -> Self {
        Self([self.0[0] + rhs, self.0[1]])
    }
}
impl Mul<Goldilocks> for Goldilocks2 {
    type Output = Self;
    #[inline]
    fn mul(self, rhs: Goldilocks) -> Self {
        Self([self.0[0] * rhs, self.0[1] * rhs])
    }
}
assign_ops!(Goldilocks2);

impl fmt::Debug for Goldilocks2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.0[0], self.0[1])
    }
}
impl fmt::Display for Goldilocks2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.0[0], self.0[1])
    }
}

/// `|GF(p²)*| = p² − 1` as little-endian limbs.
fn group_order() -> Vec<u64> {
    let p = ORDER as u128;
    let o = p * p - 1; // p² < 2^128
    vec![o as u64, (o >> 64) as u64]
}

impl zkaccel_field::Algebra for Goldilocks2 {}

impl Field for Goldilocks2 {
    const ZERO: Self = Self([Goldilocks(0), Goldilocks(0)]);
    const ONE: Self = Self([Goldilocks(1), Goldilocks(0)]);
    const TWO: Self = Self([Goldilocks(2), Goldilocks(0)]);
    const NEG_ONE: Self = Self([Goldilocks(ORDER - 1), Goldilocks(0)]);
    /// Plonky2's `EXT_MULTIPLICATIVE_GROUP_GENERATOR` (Plonky3's `EXT_GENERATOR`): a convention,
    /// checked to generate the whole group by the generic field tests.
    const GENERATOR: Self = Self([
        Goldilocks(18081566051660590251),
        Goldilocks(16121475356294670766),
    ]);

    fn from_u64_reduced(v: u64) -> Self {
        Self([Goldilocks(v), Goldilocks(0)])
    }

    fn try_inverse(&self) -> Option<Self> {
        // x^{-1} = conj(x) / N(x), and N(x) = 0 only for x = 0 since 7 is a non-residue.
        let n_inv = self.norm().try_inverse()?;
        Some(self.conjugate() * n_inv)
    }

    fn sqrt(&self) -> Option<Self> {
        let (s, q) = split_two_adic(&group_order());
        tonelli_shanks(self, s, &q, ext_two_adic_root())
    }

    fn multiplicative_group_order() -> Vec<u64> {
        group_order()
    }
}

/// The generator of the order-`2^33` subgroup: `GENERATOR^((p²−1)/2^33)`.
fn ext_two_adic_root() -> Goldilocks2 {
    let mut e = group_order();
    limbs::shr_assign(&mut e, Goldilocks2::TWO_ADICITY as u32);
    Goldilocks2::GENERATOR.exp_limbs(&e)
}

impl TwoAdicField for Goldilocks2 {
    /// `p² − 1 = (p − 1)(p + 1)` with `2^32 ‖ p − 1` and `2 ‖ p + 1`.
    const TWO_ADICITY: usize = 33;

    /// For `bits ≤ 32` the base field's generator (as Plonky2 and Plonky3 do), for 33 a square
    /// root of it that lies outside the base field.
    fn two_adic_generator(bits: usize) -> Result<Self, FieldError> {
        match bits {
            0..=32 => Ok(Self::from_base(Goldilocks::two_adic_generator(bits)?)),
            33 => Ok(ext_two_adic_root()),
            _ => Err(FieldError::TwoAdicityExceeded {
                field: "Goldilocks2",
                requested: bits,
                max: Self::TWO_ADICITY,
            }),
        }
    }
}

/// The portable butterflies: the transforms over the extension (FRI's, the quotient's) are
/// few and short.
impl zkaccel_ntt::NttField for Goldilocks2 {}

/// MiMC's chains on the portable defaults.
impl zkaccel_mimc::MimcField for Goldilocks2 {}

/// The linear layers' sums of products on the portable defaults.
impl zkaccel_poseidon::PoseidonField for Goldilocks2 {}

impl ExtensionField<Goldilocks> for Goldilocks2 {
    const DEGREE: usize = 2;

    fn from_base(b: Goldilocks) -> Self {
        Self([b, Goldilocks(0)])
    }

    fn as_base_slice(&self) -> &[Goldilocks] {
        &self.0
    }

    fn from_base_slice(coeffs: &[Goldilocks]) -> Result<Self, FieldError> {
        match coeffs {
            [c0, c1] => Ok(Self([*c0, *c1])),
            _ => Err(FieldError::WrongLength {
                field: "Goldilocks2",
                expected: 2,
                actual: coeffs.len(),
                unit: "coefficients",
            }),
        }
    }
}
