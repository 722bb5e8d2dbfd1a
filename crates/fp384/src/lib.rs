#![doc = include_str!("../README.md")]

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::{Product, Sum};
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use core::str::FromStr;

use zkaccel_field::modmul::MontgomeryWords;
use zkaccel_field::{limbs, tonelli_shanks, Field, FieldError, PrimeField, TwoAdicField};

/// Six little-endian 64-bit words.
pub type U384 = [u64; 6];

/// The facts that define a prime field of up to 384 bits; everything else is derived.
pub trait Fp384Config:
    'static + Send + Sync + Sized + Copy + fmt::Debug + Default + Eq + Hash
{
    /// The field's name, for error messages.
    const NAME: &'static str;
    /// The odd prime modulus, little-endian words (any size up to `2^384`).
    const MODULUS: U384;
    /// A small integer that generates the multiplicative group (arkworks' `GENERATOR`).
    const GENERATOR: u64;

    /// Montgomery constants derived from [`Fp384Config::MODULUS`].
    const MONT: MontgomeryWords<6> = MontgomeryWords::new(Self::MODULUS);
    /// The 2-adic valuation of `p − 1`.
    const TWO_ADICITY: usize = {
        let mut s = 0;
        let mut i = 0;
        // p is odd, so p − 1 only clears bit 0.
        while i < 6 {
            let word = if i == 0 {
                Self::MODULUS[0] - 1
            } else {
                Self::MODULUS[i]
            };
            if word != 0 {
                s += word.trailing_zeros() as usize;
                break;
            }
            s += 64;
            i += 1;
        }
        s
    };
}

/// An element of the prime field described by `C`, stored in Montgomery form (always below
/// `p`, so the representation is unique).
#[repr(transparent)]
pub struct Fp384<C>(U384, PhantomData<C>);

impl<C: Fp384Config> Fp384<C> {
    const fn from_mont(v: U384) -> Self {
        Self(v, PhantomData)
    }

    /// The element with canonical value `v < p` (callers check).
    const fn from_canonical_const(v: U384) -> Self {
        Self::from_mont(C::MONT.to_montgomery(&v))
    }

    /// The canonical value in `[0, p)` as little-endian words.
    pub const fn to_canonical_u384(&self) -> U384 {
        C::MONT.from_montgomery(&self.0)
    }
}

impl<C> Clone for Fp384<C> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for Fp384<C> {}
impl<C: Fp384Config> Default for Fp384<C> {
    fn default() -> Self {
        Self::ZERO
    }
}
impl<C> PartialEq for Fp384<C> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<C> Eq for Fp384<C> {}
impl<C> Hash for Fp384<C> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}
impl<C: Fp384Config> PartialOrd for Fp384<C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<C: Fp384Config> Ord for Fp384<C> {
    fn cmp(&self, other: &Self) -> Ordering {
        limbs::cmp(&self.to_canonical_u384(), &other.to_canonical_u384())
    }
}
impl<C: Fp384Config> fmt::Debug for Fp384<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal_string())
    }
}
impl<C: Fp384Config> fmt::Display for Fp384<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal_string())
    }
}
impl<C: Fp384Config> FromStr for Fp384<C> {
    type Err = FieldError;
    fn from_str(s: &str) -> Result<Self, FieldError> {
        Self::from_str_canonical(s)
    }
}

impl<C: Fp384Config> Add for Fp384<C> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::from_mont(C::MONT.add(&self.0, &rhs.0))
    }
}
impl<C: Fp384Config> Sub for Fp384<C> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::from_mont(C::MONT.sub(&self.0, &rhs.0))
    }
}
impl<C: Fp384Config> Mul for Fp384<C> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_mont(C::MONT.mul(&self.0, &rhs.0))
    }
}
impl<C: Fp384Config> Neg for Fp384<C> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::from_mont(C::MONT.neg(&self.0))
    }
}
impl<C: Fp384Config> AddAssign for Fp384<C> {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}
impl<C: Fp384Config> SubAssign for Fp384<C> {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}
impl<C: Fp384Config> MulAssign for Fp384<C> {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}
impl<C: Fp384Config> Sum for Fp384<C> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, |a, b| a + b)
    }
}
impl<C: Fp384Config> Product for Fp384<C> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ONE, |a, b| a * b)
    }
}

impl<C: Fp384Config> zkaccel_field::Algebra for Fp384<C> {}

impl<C: Fp384Config> Field for Fp384<C> {
    const ZERO: Self = Self::from_mont([0; 6]);
    const ONE: Self = Self::from_mont(C::MONT.r);
    const TWO: Self = Self::from_mont(C::MONT.add(&C::MONT.r, &C::MONT.r));
    const NEG_ONE: Self = Self::from_mont(C::MONT.neg(&C::MONT.r));
    const GENERATOR: Self = Self::from_u64_const(C::GENERATOR);

    fn from_u64_reduced(v: u64) -> Self {
        Self::from_u64_const(v)
    }

    fn try_inverse(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        let mut e = C::MODULUS;
        limbs::sub_assign(&mut e, &[2]);
        Some(self.exp_limbs(&e))
    }

    fn sqrt(&self) -> Option<Self> {
        let mut q = Self::multiplicative_group_order();
        limbs::shr_assign(&mut q, C::TWO_ADICITY as u32);
        tonelli_shanks(self, C::TWO_ADICITY, &q, two_adic_root::<C>(C::TWO_ADICITY))
    }

    fn multiplicative_group_order() -> Vec<u64> {
        let mut o = C::MODULUS.to_vec();
        limbs::sub_assign(&mut o, &[1]);
        o
    }
}

impl<C: Fp384Config> Fp384<C> {
    /// `v mod p` in `const` context, for any modulus (one below `2^64` too): Horner's rule on
    /// the bits of `v` in Montgomery form, doubling and adding one.
    const fn from_u64_const(v: u64) -> Self {
        let mut acc = [0u64; 6];
        let one = C::MONT.r;
        let mut i = 64;
        while i > 0 {
            i -= 1;
            acc = C::MONT.add(&acc, &acc);
            if (v >> i) & 1 == 1 {
                acc = C::MONT.add(&acc, &one);
            }
        }
        Self::from_mont(acc)
    }
}

impl<C: Fp384Config> PrimeField for Fp384<C> {
    const NAME: &'static str = C::NAME;
    const NUM_BYTES: usize = 48;
    const BITS: u32 = {
        let mut i = 6;
        let mut bits = 0;
        while i > 0 {
            i -= 1;
            if C::MODULUS[i] != 0 {
                bits = 64 * i as u32 + 64 - C::MODULUS[i].leading_zeros();
                break;
            }
        }
        bits
    };
    type Limbs = U384;

    fn modulus() -> U384 {
        C::MODULUS
    }
    fn to_canonical_limbs(&self) -> U384 {
        self.to_canonical_u384()
    }
    fn from_canonical_limbs(v: U384) -> Result<Self, FieldError> {
        Self::check_canonical(&v)?;
        Ok(Self::from_canonical_const(v))
    }
    fn from_canonical_limbs_unchecked(v: U384) -> Self {
        debug_assert!(Self::check_canonical(&v).is_ok());
        Self::from_canonical_const(v)
    }
    /// Horner's rule in base `2^64`, one word at a time: `acc ← acc·2^64 + w` (the word
    /// entering as [`Field::from_u64_reduced`]).
    fn from_limbs_reduced(v: &[u64]) -> Self {
        let radix = Self::from_u64_const(u64::MAX) + Self::ONE;
        v.iter()
            .rev()
            .fold(Self::ZERO, |acc, &w| acc * radix + Self::from_u64_const(w))
    }
}

/// `GENERATOR^((p−1)/2^bits)`, the arkworks convention (`TWO_ADIC_ROOT_OF_UNITY` is
/// `GENERATOR^t` for the odd part `t`, squared down to smaller orders).
fn two_adic_root<C: Fp384Config>(bits: usize) -> Fp384<C> {
    let mut e = Fp384::<C>::multiplicative_group_order();
    limbs::shr_assign(&mut e, bits as u32);
    Fp384::<C>::GENERATOR.exp_limbs(&e)
}

impl<C: Fp384Config> TwoAdicField for Fp384<C> {
    const TWO_ADICITY: usize = C::TWO_ADICITY;

    fn two_adic_generator(bits: usize) -> Result<Self, FieldError> {
        if bits > C::TWO_ADICITY {
            return Err(FieldError::TwoAdicityExceeded {
                field: C::NAME,
                requested: bits,
                max: C::TWO_ADICITY,
            });
        }
        Ok(two_adic_root::<C>(bits))
    }
}

/// The NIST P-384 prime (FIPS 186-4 D.1.2.4), `2^384 − 2^128 − 2^96 + 2^32 − 1`, which fills
/// all six words: a modulus for testing full-width carries (in the product's carry word and in
/// additions), as the Montgomery multiplier RTL's bench does. Two-adicity 1: no NTT over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NistP384;

impl Fp384Config for NistP384 {
    const NAME: &'static str = "P-384";
    const MODULUS: U384 = [
        0x0000_0000_ffff_ffff,
        0xffff_ffff_0000_0000,
        0xffff_ffff_ffff_fffe,
        u64::MAX,
        u64::MAX,
        u64::MAX,
    ];
    const GENERATOR: u64 = 19;
}

#[cfg(test)]
mod tests {
    use super::*;

    type P384 = NistP384;

    /// The words are the formula's: 2^384 − 2^128 − 2^96 + 2^32 − 1, computed with the
    /// field's own limb arithmetic from powers of two.
    #[test]
    fn p384_is_its_formula() {
        // (2^384 − 1) − 2^128 − 2^96 + 2^32, in 384-bit words with carries and borrows.
        let step = |p: &mut U384, bit: u32, add: bool| {
            let (word, shift) = ((bit / 64) as usize, bit % 64);
            let mut carry = 1u64 << shift;
            for w in p.iter_mut().skip(word) {
                let (v, c) = if add {
                    w.overflowing_add(carry)
                } else {
                    w.overflowing_sub(carry)
                };
                *w = v;
                carry = u64::from(c);
            }
            carry
        };
        let mut p: U384 = [u64::MAX; 6];
        assert_eq!(step(&mut p, 128, false), 0);
        assert_eq!(step(&mut p, 96, false), 0);
        assert_eq!(step(&mut p, 32, true), 0);
        assert_eq!(p, P384::MODULUS);
    }

    #[test]
    fn a_full_width_modulus_wraps_correctly() {
        type F = Fp384<P384>;
        let minus_one = F::NEG_ONE;
        assert_eq!(minus_one + F::ONE, F::ZERO);
        assert_eq!(minus_one * minus_one, F::ONE);
        let mut p_minus_one = P384::MODULUS;
        p_minus_one[0] -= 1;
        assert_eq!(minus_one.to_canonical_u384(), p_minus_one);
        assert_eq!(F::from_limbs_reduced(&P384::MODULUS), F::ZERO);
        assert_eq!(F::BITS, 384);
    }
}
