#![doc = include_str!("../README.md")]

/// `Clone` and `Copy` for a type generic over a field config `C`, whatever `C` is (the derives
/// would require `C: Copy`; the configs are markers held in `PhantomData`).
macro_rules! copy_for_every_config {
    ($($ty:ident),+ $(,)?) => {
        $(
            impl<C> Clone for $ty<C> {
                #[inline(always)]
                fn clone(&self) -> Self {
                    *self
                }
            }
            impl<C> Copy for $ty<C> {}
        )+
    };
}

/// What the packed types (`PackedFp256Ifma`, `PackedFp256Avx2`) derive from their `Add`, `Neg`
/// and `Mul`: `Sub` as `self + (−rhs)`, the compound assignments, the
/// [`zkaccel_field::PackedField`] impl over `from_elements`/`to_elements` with the CPU token,
/// and the [`zkaccel_poseidon::PoseidonPacking`] impl of a packing that reduces every product
/// (its constants' form given as `$linear`).
#[cfg(target_arch = "x86_64")]
macro_rules! packed_fp256_common {
    ($packed:ident, $token:ident, $width:literal, $feature:literal, { $($linear:tt)* }) => {
        impl<C: Fp256Config> Sub for $packed<C> {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self + (-rhs)
            }
        }
        impl<C: Fp256Config> AddAssign for $packed<C> {
            #[inline(always)]
            fn add_assign(&mut self, rhs: Self) {
                *self = *self + rhs;
            }
        }
        impl<C: Fp256Config> SubAssign for $packed<C> {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: Self) {
                *self = *self - rhs;
            }
        }
        impl<C: Fp256Config> MulAssign for $packed<C> {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: Self) {
                *self = *self * rhs;
            }
        }
        impl<C: Fp256Config> zkaccel_field::PackedField for $packed<C> {
            type Scalar = Fp256<C>;
            type Cpu = $token;
            const WIDTH: usize = $width;
            #[inline(always)]
            fn detect() -> Option<$token> {
                $token::detect()
            }
            #[doc = concat!("# Panics\nPanics when `slice.len() != ", $width, "`.")]
            #[inline(always)]
            fn from_slice(cpu: $token, slice: &[Fp256<C>]) -> Self {
                Self::from_elements(
                    cpu,
                    slice.try_into().expect("slice length must be the width"),
                )
            }
            #[inline(always)]
            fn broadcast(cpu: $token, x: Fp256<C>) -> Self {
                Self::broadcast(cpu, x)
            }
            #[doc = concat!("# Panics\nPanics when `out.len() != ", $width, "`.")]
            #[inline(always)]
            fn write_to_slice(&self, out: &mut [Fp256<C>]) {
                out.copy_from_slice(&self.to_elements());
            }
        }
        impl<C: Fp256Config> zkaccel_poseidon::PoseidonPacking for $packed<C> {
            $($linear)*
            type Split = Self;
            type Accumulator = Self;
            #[inline(always)]
            fn split(self, _: $token) -> Self {
                self
            }
            #[inline(always)]
            fn empty_sum(cpu: $token) -> Self {
                Self::broadcast(cpu, <Fp256<C> as zkaccel_field::Field>::ZERO)
            }
            #[inline(always)]
            fn accumulate(
                cpu: $token,
                acc: &mut Self,
                x: &Self,
                c: &<Self as zkaccel_poseidon::PoseidonPacking>::Constant,
            ) {
                *acc = <Self as zkaccel_poseidon::PoseidonPacking>::mul_constant_add(cpu, *x, c, *acc);
            }
            #[inline(always)]
            fn reduce_sum(acc: Self) -> Self {
                acc
            }
        }
        impl<C: Fp256Config> zkaccel_field::Algebra for $packed<C> {
            #[inline(always)]
            fn square(&self) -> Self {
                self.square_lanes()
            }
        }
    };
}

mod arith;
// The assembly kernels' instruction lines (`tools/gen_fp256_asm.py`); first, so that the
// modules after it see its macros.
#[cfg(target_arch = "x86_64")]
#[macro_use]
mod generated;
#[cfg(target_arch = "x86_64")]
mod asm;
#[cfg(target_arch = "x86_64")]
mod avx2;
mod chains;
#[cfg(target_arch = "x86_64")]
mod hybrid;
#[cfg(target_arch = "x86_64")]
mod ifma;
mod lazy;
#[cfg(target_arch = "x86_64")]
mod packing;

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::{Product, Sum};
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use core::str::FromStr;

use zkaccel_field::modmul::{
    Barrett256, ModularMultiplier, Montgomery256, MulAlgorithm, RussianPeasant256, U256,
};
use zkaccel_field::{limbs, tonelli_shanks, Field, FieldError, PrimeField, TwoAdicField};
use zkaccel_mimc::MimcField;
use zkaccel_ntt::NttField;

pub use arith::{BatchBackend, MulBackend};
#[cfg(target_arch = "x86_64")]
pub use avx2::{Avx2, BroadcastFp256Avx2, PackedFp256Avx2};
#[cfg(target_arch = "x86_64")]
pub use ifma::{Ifma, PackedFp256Ifma, PreparedFp256};

/// The chain kernels behind [`MimcField::power_chains`] and [`MimcField::feistel_chains`], and the
/// lazily reduced element types they run on, for differential tests and benchmarks (feature
/// `kernels`, off by default; this crate's tests and examples turn it on). The lazily reduced
/// values are not field elements (they hold residues below `2p`), so they are no part of the
/// field's API.
#[cfg(feature = "kernels")]
pub mod kernels {
    #[cfg(target_arch = "x86_64")]
    pub use crate::avx2::LazyPackedFp256Avx2;
    pub use crate::chains::{
        feistel_chains_hybrid, power_chains_avx2, power_chains_hybrid, power_chains_lazy,
    };
    #[cfg(target_arch = "x86_64")]
    pub use crate::hybrid::{HybridBroadcast, HybridCanonical, LazyHybridFp256};
    pub use crate::lazy::LazyFp256;
}

/// The facts that define a 256-bit prime field; everything else is derived from them.
pub trait Fp256Config:
    'static + Send + Sync + Sized + Copy + fmt::Debug + Default + Eq + Hash
{
    /// The field's name, for error messages.
    const NAME: &'static str;
    /// The prime modulus, little-endian limbs. Its top limb must be below `2^63 − 1`.
    const MODULUS: U256;
    /// A small integer that generates the multiplicative group (arkworks' `GENERATOR`).
    const GENERATOR: u64;

    /// Montgomery constants derived from [`Fp256Config::MODULUS`].
    const MONT: Montgomery256 = {
        assert!(
            Self::MODULUS[3] < (1 << 63) - 1,
            "the no-carry CIOS needs the top limb below 2^63 - 1"
        );
        Montgomery256::new(Self::MODULUS)
    };
    /// The 2-adic valuation of `p − 1`.
    const TWO_ADICITY: usize = {
        let mut s = 0;
        let mut i = 0;
        // p is odd, so p − 1 only clears bit 0.
        let limbs = [
            Self::MODULUS[0] - 1,
            Self::MODULUS[1],
            Self::MODULUS[2],
            Self::MODULUS[3],
        ];
        while i < 4 {
            if limbs[i] != 0 {
                s += limbs[i].trailing_zeros() as usize;
                break;
            }
            s += 64;
            i += 1;
        }
        s
    };
}

/// An element of the prime field described by `C`, stored in Montgomery form.
#[repr(transparent)]
pub struct Fp256<C>(pub(crate) U256, PhantomData<C>);

impl<C: Fp256Config> Fp256<C> {
    const P: U256 = C::MODULUS;

    #[inline(always)]
    pub(crate) const fn from_mont(v: U256) -> Self {
        Self(v, PhantomData)
    }

    /// The element with canonical value `v`; `v` must be below `p` (callers check).
    const fn from_canonical_const(v: U256) -> Self {
        Self::from_mont(C::MONT.to_montgomery(&v))
    }

    /// The canonical value in `[0, p)` as little-endian limbs.
    #[inline]
    pub const fn to_canonical_u256(&self) -> U256 {
        C::MONT.from_montgomery(&self.0)
    }

    /// Multiplies with one of the papers' algorithms instead of the fast Montgomery path: the
    /// operands leave Montgomery form, the chosen algorithm multiplies the canonical residues,
    /// and the result re-enters Montgomery form. For cross-checks and for reproducing a
    /// design's arithmetic; [`Mul`] is the fast path.
    pub fn mul_with(self, rhs: Self, algorithm: MulAlgorithm) -> Self {
        let (a, b) = (self.to_canonical_u256(), rhs.to_canonical_u256());
        let product = match algorithm {
            MulAlgorithm::Montgomery => C::MONT.mul_mod(&a, &b),
            MulAlgorithm::Barrett => Self::barrett().mul(&a, &b),
            MulAlgorithm::RussianPeasant => Self::peasant().mul(&a, &b),
        };
        Self::from_canonical_const(product)
    }

    /// The Barrett constants of this field (AMAZE Algorithm 2).
    pub fn barrett() -> Barrett256 {
        Barrett256::new(C::MODULUS).expect("Fp256Config moduli are valid for Barrett")
    }

    /// The Russian-peasant multiplier of this field (AMAZE Algorithm 1).
    pub fn peasant() -> RussianPeasant256 {
        RussianPeasant256::new(C::MODULUS)
            .expect("Fp256Config moduli are valid for Russian peasant")
    }

    /// Views words as elements by their stored Montgomery representations (`x·2^256 mod p`,
    /// four little-endian words each), without copying — e.g. a numpy `(n, 4)` `uint64` array.
    ///
    /// Handed the *canonical* words of `x`, the view holds `x·R⁻¹` (`R = 2^256`); a map that is
    /// linear over the field (an NTT, its inverse, a coset shift, a scaling) turns them into
    /// `f(x)·R⁻¹`, whose stored words are the canonical words of `f(x)`. So linear transforms
    /// run on canonical words in place, with no conversion in or out.
    ///
    /// # Errors
    /// [`FieldError::WrongLength`] when the length is not a multiple of four;
    /// [`FieldError::NonCanonical`] naming the first representation `≥ p` (nothing is viewed).
    pub fn slice_from_montgomery_words_mut(words: &mut [u64]) -> Result<&mut [Self], FieldError> {
        if !words.len().is_multiple_of(4) {
            return Err(FieldError::WrongLength {
                field: <Self as PrimeField>::NAME,
                expected: 4 * words.len().div_ceil(4),
                actual: words.len(),
                unit: "limbs",
            });
        }
        for element in words.chunks_exact(4) {
            <Self as PrimeField>::check_canonical(element)?;
        }
        // SAFETY: `Fp256<C>` is `repr(transparent)` over `[u64; 4]` (its other field is a
        // zero-sized marker): the same size and alignment as four `u64`s, so `len / 4` elements
        // cover exactly the words; the mutable borrow of `words` moves into the returned slice;
        // every representation is below `p`, the invariant every operation keeps.
        Ok(unsafe {
            core::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<Self>(), words.len() / 4)
        })
    }

    /// Which multiplication kernel [`Mul`] uses on this CPU.
    pub fn mul_backend() -> MulBackend {
        arith::backend()
    }

    /// `a[i] ← a[i] · b[i]` for whole slices: eight products at a time with AVX-512 IFMA when
    /// the CPU has it (chosen at run time), else one at a time with [`Mul`].
    ///
    /// # Panics
    /// Panics when the slices differ in length.
    pub fn mul_assign_slices(a: &mut [Self], b: &[Self]) {
        Self::mul_assign_slices_using(BatchBackend::detect(), a, b)
    }

    /// [`Fp256::mul_assign_slices`] on a chosen kernel (for tests and benches); one the CPU
    /// lacks falls back to [`Mul`].
    ///
    /// # Panics
    /// Panics when the slices differ in length.
    pub fn mul_assign_slices_using(backend: BatchBackend, a: &mut [Self], b: &[Self]) {
        assert_eq!(a.len(), b.len(), "slices must have equal length");
        #[cfg(target_arch = "x86_64")]
        if backend == BatchBackend::Ifma && BatchBackend::detect() == BatchBackend::Ifma {
            zkaccel_field::mul_slices_by_eights(a, b, |x, y| {
                // SAFETY: `Fp256` is `repr(transparent)` over `U256` (plus a zero-sized marker),
                // so the casts view the same memory (eight elements each); IFMA support was
                // detected.
                unsafe {
                    let xs = core::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<U256>(), 8);
                    let ys = core::slice::from_raw_parts(y.as_ptr().cast::<U256>(), 8);
                    ifma::mont_mul_assign_8(xs, ys, &Self::P, C::MONT.inv);
                }
            });
            return;
        }
        let _ = backend;
        for (x, y) in a.iter_mut().zip(b) {
            *x *= *y;
        }
    }

    /// The product computed by a chosen kernel (for tests and benches); a kernel the CPU lacks
    /// falls back to the portable one.
    #[inline]
    pub fn mul_using(self, rhs: Self, backend: MulBackend) -> Self {
        Self::from_mont(arith::mont_mul_using(
            backend,
            &self.0,
            &rhs.0,
            &Self::P,
            C::MONT.inv,
        ))
    }
}

copy_for_every_config!(Fp256);
impl<C: Fp256Config> Default for Fp256<C> {
    fn default() -> Self {
        Self::ZERO
    }
}
// Montgomery form is unique (always reduced below p), so representations compare directly.
impl<C> PartialEq for Fp256<C> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<C> Eq for Fp256<C> {}
impl<C> Hash for Fp256<C> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}
impl<C: Fp256Config> PartialOrd for Fp256<C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<C: Fp256Config> Ord for Fp256<C> {
    fn cmp(&self, other: &Self) -> Ordering {
        limbs::cmp(&self.to_canonical_u256(), &other.to_canonical_u256())
    }
}
impl<C: Fp256Config> fmt::Debug for Fp256<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal_string())
    }
}
impl<C: Fp256Config> fmt::Display for Fp256<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal_string())
    }
}
impl<C: Fp256Config> FromStr for Fp256<C> {
    type Err = FieldError;
    fn from_str(s: &str) -> Result<Self, FieldError> {
        Self::from_str_canonical(s)
    }
}

impl<C: Fp256Config> Add for Fp256<C> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        Self::from_mont(arith::add_mod(&self.0, &rhs.0, &Self::P))
    }
}
impl<C: Fp256Config> Sub for Fp256<C> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Self::from_mont(arith::sub_mod(&self.0, &rhs.0, &Self::P))
    }
}
impl<C: Fp256Config> Mul for Fp256<C> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self::from_mont(arith::mont_mul(&self.0, &rhs.0, &Self::P, C::MONT.inv))
    }
}
impl<C: Fp256Config> Neg for Fp256<C> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::from_mont(arith::neg_mod(&self.0, &Self::P))
    }
}
impl<C: Fp256Config> AddAssign for Fp256<C> {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}
impl<C: Fp256Config> SubAssign for Fp256<C> {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}
impl<C: Fp256Config> MulAssign for Fp256<C> {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}
impl<C: Fp256Config> Sum for Fp256<C> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ZERO, |a, b| a + b)
    }
}
impl<C: Fp256Config> Product for Fp256<C> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::ONE, |a, b| a * b)
    }
}

impl<C: Fp256Config> zkaccel_field::Algebra for Fp256<C> {}

impl<C: Fp256Config> Field for Fp256<C> {
    const ZERO: Self = Self::from_mont([0; 4]);
    const ONE: Self = Self::from_mont(C::MONT.r);
    const TWO: Self = Self::from_canonical_const([2, 0, 0, 0]);
    const NEG_ONE: Self = Self::from_mont(modmul_sub(&C::MODULUS, &C::MONT.r));
    const GENERATOR: Self = Self::from_canonical_const([C::GENERATOR, 0, 0, 0]);

    fn from_u64_reduced(v: u64) -> Self {
        // Every u64 is below p (p > 2^250).
        Self::from_canonical_const([v, 0, 0, 0])
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

    /// Eight lanes of AVX-512 IFMA (radix 2^52), four of AVX2 (radix 2^29), or the scalar
    /// field, as the CPU allows.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn run_packed<K: zkaccel_field::PackedKernel<Self>>(kernel: K) -> K::Output {
        packing::run_packed(usize::MAX, kernel)
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn run_packed_within<K: zkaccel_field::PackedKernel<Self>>(
        max_lanes: usize,
        kernel: K,
    ) -> K::Output {
        packing::run_packed(max_lanes, kernel)
    }

    #[cfg(target_arch = "x86_64")]
    fn packing_widths() -> Vec<usize> {
        packing::packing_widths::<C>()
    }
}

/// Poseidon's kernels on the packings [`Field::run_packed`] chooses (eight IFMA lanes, four
/// AVX2 lanes or the scalar field); the sums of products on the portable defaults.
impl<C: Fp256Config> zkaccel_poseidon::PoseidonField for Fp256<C> {
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn run_poseidon_packed<K: zkaccel_poseidon::PoseidonKernel<Self>>(
        max_lanes: usize,
        kernel: K,
    ) -> K::Output {
        packing::run_poseidon_packed(max_lanes, kernel)
    }
}

/// MiMC's chains on the 256-bit kernels of the `chains` module (PERF.md).
impl<C: Fp256Config> MimcField for Fp256<C> {
    /// On lazily reduced values where `4p < 2^256`, on the assembly kernels where the CPU has
    /// BMI2 and ADX (the `chains` module; PERF.md).
    fn power_chain(x: Self, k: Self, constants: &[Self], d: u64) -> Self {
        chains::power_chain(x, k, constants, d)
    }

    /// Eight IFMA lanes, six hybrid AVX2-and-scalar lanes, four AVX2 lanes or four scalar lazy
    /// chains, as the CPU allows (the `chains` module; PERF.md).
    fn power_chains(
        xs: &mut [Self],
        ks: &[Self],
        constants: &[Self],
        d: u64,
    ) -> Result<(), FieldError> {
        chains::power_chains(xs, ks, constants, d)
    }

    /// On lazily reduced values where `4p < 2^256` (the `chains` module; PERF.md).
    fn feistel_chain(u: Self, v: Self, steps: &[Self], d: u64) -> (Self, Self) {
        chains::feistel_chain(u, v, steps, d)
    }

    /// Eight IFMA lanes or six hybrid AVX2-and-scalar lanes, as the CPU allows (the `chains`
    /// module; PERF.md).
    fn feistel_chains(
        us: &mut [Self],
        vs: &mut [Self],
        steps: &[Self],
        d: u64,
    ) -> Result<(), FieldError> {
        chains::feistel_chains(us, vs, steps, d)
    }
}

const fn modmul_sub(a: &U256, b: &U256) -> U256 {
    let mut out = [0u64; 4];
    let mut borrow = 0;
    let mut i = 0;
    while i < 4 {
        let (d, br) = limbs::sbb(a[i], b[i], borrow);
        out[i] = d;
        borrow = br;
        i += 1;
    }
    out
}

impl<C: Fp256Config> PrimeField for Fp256<C> {
    const NAME: &'static str = C::NAME;
    const NUM_BYTES: usize = 32;
    const BITS: u32 = 256 - C::MODULUS[3].leading_zeros();
    type Limbs = U256;

    fn modulus() -> U256 {
        C::MODULUS
    }
    fn to_canonical_limbs(&self) -> U256 {
        self.to_canonical_u256()
    }
    fn from_canonical_limbs(v: U256) -> Result<Self, FieldError> {
        Self::check_canonical(&v)?;
        Ok(Self::from_canonical_const(v))
    }
    fn from_canonical_limbs_unchecked(v: U256) -> Self {
        debug_assert!(Self::check_canonical(&v).is_ok());
        Self::from_canonical_const(v)
    }
    /// Horner's rule in base 2^256: each 256-bit chunk is brought below `p` by subtraction
    /// (`p > 2^250`, so at most 63 of them) and the accumulator is multiplied by `2^256 mod p`.
    fn from_limbs_reduced(v: &[u64]) -> Self {
        let radix = Self::from_canonical_const(C::MONT.r);
        let mut acc = Self::ZERO;
        let top = v.len().div_ceil(4);
        for k in (0..top).rev() {
            let mut chunk = [0u64; 4];
            let part = &v[4 * k..v.len().min(4 * k + 4)];
            chunk[..part.len()].copy_from_slice(part);
            while limbs::cmp_padded(&chunk, &C::MODULUS) != Ordering::Less {
                limbs::sub_assign(&mut chunk, &C::MODULUS);
            }
            acc = acc * radix + Self::from_canonical_const(chunk);
        }
        acc
    }
}

/// `GENERATOR^((p−1)/2^bits)`, the arkworks convention (`TWO_ADIC_ROOT_OF_UNITY` is
/// `GENERATOR^t` for the odd part `t`, squared down to smaller orders).
fn two_adic_root<C: Fp256Config>(bits: usize) -> Fp256<C> {
    let mut e = Fp256::<C>::multiplicative_group_order();
    limbs::shr_assign(&mut e, bits as u32);
    Fp256::<C>::GENERATOR.exp_limbs(&e)
}

impl<C: Fp256Config> TwoAdicField for Fp256<C> {
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

/// Additions one element at a time, the twiddle products eight at a time with AVX-512 IFMA
/// when present ([`Fp256::mul_assign_slices`], scalar otherwise).
impl<C: Fp256Config> NttField for Fp256<C> {
    const PRODUCTS_IN_BATCHES: bool = true;

    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        Self::mul_assign_slices(a, &b[..a.len()]);
    }
}
