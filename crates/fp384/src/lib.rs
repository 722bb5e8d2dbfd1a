#![doc = include_str!("../README.md")]

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::{Product, Sum};
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use core::str::FromStr;

pub use zkaccel_field::cpu::{BatchBackend, MulBackend};
use zkaccel_field::modmul::MontgomeryWords;
use zkaccel_field::{limbs, tonelli_shanks, Field, FieldError, PrimeField, TwoAdicField};
use zkaccel_ntt::NttField;

// The assembly kernel's instruction lines (`tools/gen_fp384_asm.py`); first, so that the
// module after it sees its macro.
#[cfg(target_arch = "x86_64")]
#[macro_use]
mod generated;
#[cfg(target_arch = "x86_64")]
mod asm;
#[cfg(target_arch = "x86_64")]
mod ifma;

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
        Self::from_mont(mont_mul::<C>(&self.0, &rhs.0))
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

/// Whether the six-limb assembly kernel's invariant holds for `C`'s modulus (`p < 2^383`).
const fn adx_admits<C: Fp384Config>() -> bool {
    C::MODULUS[5] >> 63 == 0
}

/// Whether `*` runs the assembly kernel: the modulus admits it and the CPU has BMI2 and ADX
/// (detected, and not switched off by `ZKACCEL_SIMD`).
#[inline(always)]
fn adx_runs<C: Fp384Config>() -> bool {
    cfg!(target_arch = "x86_64") && adx_admits::<C>() && zkaccel_field::cpu::features().bmi2_adx
}

/// `a·b·2^{-384} mod p` on the fastest kernel this CPU and this modulus allow.
#[inline(always)]
fn mont_mul<C: Fp384Config>(a: &U384, b: &U384) -> U384 {
    #[cfg(target_arch = "x86_64")]
    if adx_runs::<C>() {
        // SAFETY: BMI2 and ADX were detected (and `ZKACCEL_SIMD` did not switch them off).
        return unsafe { asm::mont_mul_adx(b, a, &C::MODULUS, C::MONT.inv) };
    }
    C::MONT.mul(a, b)
}

impl<C: Fp384Config> Fp384<C> {
    /// The kernel `*` runs on for this field on this CPU: [`MulBackend::Adx`] where the CPU
    /// has BMI2 and ADX, `ZKACCEL_SIMD` does not switch them off and `p < 2^383`.
    pub fn mul_backend() -> MulBackend {
        if adx_runs::<C>() {
            MulBackend::Adx
        } else {
            MulBackend::Portable
        }
    }

    /// `a[i] ← a[i] · b[i]` for whole slices: eight products at a time with AVX-512 IFMA when
    /// the CPU has it (chosen at run time; `ZKACCEL_SIMD=off` switches it off), else one at a
    /// time with [`Mul`].
    ///
    /// # Panics
    /// Panics when the slices differ in length.
    pub fn mul_assign_slices(a: &mut [Self], b: &[Self]) {
        Self::mul_assign_slices_using(BatchBackend::detect(), a, b);
    }

    /// The kernel [`Self::mul_assign_slices`] runs on this CPU ([`BatchBackend::detect`]).
    pub fn batch_backend() -> BatchBackend {
        BatchBackend::detect()
    }

    /// [`Self::mul_assign_slices`] on a chosen kernel (for tests and benchmarks); one the CPU
    /// lacks falls back to [`Mul`].
    ///
    /// # Panics
    /// Panics when the slices differ in length.
    pub fn mul_assign_slices_using(backend: BatchBackend, a: &mut [Self], b: &[Self]) {
        assert_eq!(a.len(), b.len(), "slices must have equal length");
        #[cfg(target_arch = "x86_64")]
        if backend == BatchBackend::Ifma && BatchBackend::detect() == BatchBackend::Ifma {
            zkaccel_field::mul_slices_by_eights(a, b, |x, y| {
                // SAFETY: `Fp384` is `repr(transparent)` over `U384` (plus a zero-sized marker),
                // so the casts view the same memory (eight elements each); IFMA support was
                // detected.
                unsafe {
                    let xs = core::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<U384>(), 8);
                    let ys = core::slice::from_raw_parts(y.as_ptr().cast::<U384>(), 8);
                    ifma::mont_mul_assign_8(xs, ys, &C::MODULUS, C::MONT.inv);
                }
            });
            return;
        }
        let _ = backend;
        for (x, y) in a.iter_mut().zip(b) {
            *x *= *y;
        }
    }

    /// `self · rhs` on a chosen kernel, for tests and benchmarks that compare them; a kernel
    /// this CPU or this modulus does not allow falls back to [`MulBackend::Portable`] (see
    /// [`Self::mul_backend`]).
    #[inline]
    pub fn mul_using(self, rhs: Self, backend: MulBackend) -> Self {
        if backend == MulBackend::Adx {
            return self * rhs;
        }
        Self::from_mont(C::MONT.mul(&self.0, &rhs.0))
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

/// MiMC's chains on the portable defaults (batches on the widest packing the CPU offers).
impl<C: Fp384Config> zkaccel_mimc::MimcField for Fp384<C> {}

/// Poseidon's kernels on the portable defaults (the scalar field and interleaved lanes).
impl<C: Fp384Config> zkaccel_poseidon::PoseidonField for Fp384<C> {}

/// Additions one element at a time, the twiddle products eight at a time with AVX-512 IFMA
/// when present ([`Fp384::mul_assign_slices`], scalar otherwise).
impl<C: Fp384Config> NttField for Fp384<C> {
    const PRODUCTS_IN_BATCHES: bool = true;

    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        Self::mul_assign_slices(a, &b[..a.len()]);
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

    /// Six words as a big integer.
    pub(crate) fn big(words: &U384) -> num_bigint::BigUint {
        num_bigint::BigUint::from_slice(
            &words
                .iter()
                .flat_map(|&w| [w as u32, (w >> 32) as u32])
                .collect::<Vec<_>>(),
        )
    }

    /// The widest modulus the assembly kernel admits, `2^383 − 1` (odd, not prime: only its
    /// products and sums are used).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub(crate) struct Widest;

    impl Fp384Config for Widest {
        const NAME: &'static str = "2^383 - 1";
        const MODULUS: U384 = [
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX >> 1,
        ];
        const GENERATOR: u64 = 3;
    }

    /// `*` runs on the assembly kernel exactly when the CPU has BMI2 and ADX and `p < 2^383`;
    /// asked for it, a full-width modulus falls back to the portable code; both kernels agree
    /// through the public API, and the branch-free `+`, `−` and negation agree with big
    /// integers, on edge values (`p − 1`, `p − 2`, `2^384 mod p`, whose sums
    /// carry out of the sixth word for P-384).
    #[test]
    fn the_assembly_kernel_serves_moduli_below_2_383_only() {
        let adx = cfg!(target_arch = "x86_64") && zkaccel_field::cpu::features().bmi2_adx;
        let expected = if adx {
            MulBackend::Adx
        } else {
            MulBackend::Portable
        };
        assert_eq!(Fp384::<Widest>::mul_backend(), expected);
        assert_eq!(Fp384::<P384>::mul_backend(), MulBackend::Portable);
        fn agree<C: Fp384Config>() {
            let p = big(&C::MODULUS);
            let values = [
                Fp384::<C>::ZERO,
                Fp384::ONE,
                Fp384::NEG_ONE,
                -Fp384::TWO,
                Fp384::from_u64_reduced(u64::MAX),
                Fp384::from_limbs_reduced(&[u64::MAX; 6]),
            ];
            for &x in &values {
                for &y in &values {
                    let portable = x.mul_using(y, MulBackend::Portable);
                    assert_eq!(x.mul_using(y, MulBackend::Adx), portable, "{}", C::NAME);
                    assert_eq!(x * y, portable, "{}", C::NAME);
                    // The branch-free sums against big integers (on the Montgomery words,
                    // which add and subtract like the values).
                    let (bx, by) = (big(&x.0), big(&y.0));
                    assert_eq!(big(&(x + y).0), (&bx + &by) % &p, "{}", C::NAME);
                    assert_eq!(big(&(x - y).0), (&bx + &p - &by) % &p, "{}", C::NAME);
                }
                assert_eq!(big(&(-x).0), (&p - big(&x.0)) % &p, "{}", C::NAME);
            }
            assert_eq!(
                Fp384::<C>::NEG_ONE * Fp384::NEG_ONE,
                Fp384::ONE,
                "{}",
                C::NAME
            );
        }
        agree::<Widest>();
        agree::<P384>();
    }

    /// The IFMA batch kernel against one product at a time, on every length up to 40 (whole
    /// groups of eight and remainders) and on edge values (`0`, `1`, `p − 1`, `p − 2`,
    /// `2^384 mod p`, `⌊p/2⌋` in Montgomery words) beside pseudo-random ones, for the widest
    /// modulus below `2^383` and for P-384, which fills all six words. Runs the scalar kernel
    /// alone (and says so) where the CPU has no IFMA.
    #[test]
    fn batch_products_match_one_at_a_time() {
        fn check<C: Fp384Config>() {
            if Fp384::<C>::batch_backend() != BatchBackend::Ifma {
                eprintln!("no AVX-512 IFMA here: the batch kernel is the scalar one");
            }
            let mut half = C::MODULUS;
            limbs::shr_assign(&mut half, 1);
            let mut values = vec![
                Fp384::<C>::ZERO,
                Fp384::ONE,
                Fp384::NEG_ONE,
                -Fp384::TWO,
                Fp384::from_limbs_reduced(&[u64::MAX; 6]),
                Fp384::from_limbs_reduced(&half),
                Fp384::from_mont(half),
            ];
            let mut state = 0x2545_f491_4f6c_dd1d_u64;
            while values.len() < 96 {
                let words: U384 = core::array::from_fn(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state
                });
                values.push(Fp384::from_limbs_reduced(&words));
            }
            for len in 0..=40 {
                for shift in [0, 1, 5] {
                    let a: Vec<_> = values
                        .iter()
                        .cycle()
                        .skip(shift)
                        .take(len)
                        .copied()
                        .collect();
                    let b: Vec<_> = values.iter().rev().cycle().take(len).copied().collect();
                    let expected: Vec<_> = a.iter().zip(&b).map(|(&x, &y)| x * y).collect();
                    let mut batch = a.clone();
                    Fp384::mul_assign_slices_using(BatchBackend::Ifma, &mut batch, &b);
                    assert_eq!(batch, expected, "{}, length {len}", C::NAME);
                    let mut scalar = a;
                    Fp384::mul_assign_slices_using(BatchBackend::Scalar, &mut scalar, &b);
                    assert_eq!(scalar, expected, "{}, length {len}", C::NAME);
                }
            }
            // Every edge value against every other, in groups of eight.
            let edges = &values[..7];
            for &x in edges {
                let mut a = vec![x; 8 * edges.len()];
                let b: Vec<_> = edges.iter().flat_map(|&y| [y; 8]).collect();
                let expected: Vec<_> = b.iter().map(|&y| x * y).collect();
                Fp384::mul_assign_slices(&mut a, &b);
                assert_eq!(a, expected, "{}", C::NAME);
            }
        }
        check::<Widest>();
        check::<P384>();
    }

    /// Unequal lengths panic before anything is written, on both kernels and in the shared
    /// chunking (`mul_slices_by_eights`), longer or shorter, around a group of eight.
    #[test]
    fn batch_products_refuse_unequal_lengths() {
        use std::panic::{catch_unwind, AssertUnwindSafe};
        let two = Fp384::<P384>::TWO;
        for (len_a, len_b) in [(3, 2), (2, 3), (8, 9), (17, 16), (0, 1)] {
            let b = vec![two; len_b];
            for backend in [BatchBackend::Ifma, BatchBackend::Scalar] {
                let mut a = vec![two; len_a];
                let caught = catch_unwind(AssertUnwindSafe(|| {
                    Fp384::mul_assign_slices_using(backend, &mut a, &b)
                }));
                assert!(caught.is_err(), "{len_a} · {len_b} on {backend:?}");
                assert!(a.iter().all(|&x| x == two), "{len_a} · {len_b} wrote");
            }
            let mut a = vec![two; len_a];
            let caught = catch_unwind(AssertUnwindSafe(|| {
                zkaccel_field::mul_slices_by_eights(&mut a, &b, |x, y| {
                    for (u, v) in x.iter_mut().zip(y) {
                        *u *= *v;
                    }
                })
            }));
            assert!(caught.is_err(), "{len_a} · {len_b} chunked");
            assert!(
                a.iter().all(|&x| x == two),
                "{len_a} · {len_b} chunked wrote"
            );
        }
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
