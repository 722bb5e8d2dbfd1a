//! Packed Goldilocks arithmetic for x86-64: 4 lanes with AVX2 ([`PackedGoldilocksAvx2`]),
//! 8 lanes with AVX-512F ([`PackedGoldilocksAvx512`]), and 8 or 16 with AVX-512 IFMA
//! ([`PackedGoldilocksIfma`], [`PackedGoldilocksIfmaPair`]), chosen at run time.
//!
//! A packed value can only be built through a CPU token ([`Avx2`], [`Avx512`]) that exists
//! only after the feature was detected, so every intrinsic call below runs on a CPU that has
//! it. Kernels that want the intrinsics inlined are compiled with `#[target_feature]` and are
//! reached through the run-time dispatch in [`mul_assign_slices`] and friends; the portable
//! scalar path is the fallback and the reference the tests compare against.
//!
//! Lanes hold the same possibly non-canonical `u64` words as [`Goldilocks`]. The 64×64-bit
//! product is built from four 32×32-bit products (`vpmuludq`) without any carry test; the
//! 128-bit result is reduced as in the scalar code, `lo − hi_hi + (2^32 − 1)·hi_lo`.

use core::arch::x86_64::*;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

pub use zkaccel_field::cpu::{Avx2, Avx512, Avx512Ifma};
use zkaccel_field::{PackedField, PackedKernel};
use zkaccel_poseidon::{PoseidonKernel, PoseidonPacking};

use crate::field::{EPSILON, ORDER};
use crate::Goldilocks;

// ------------------------------------------------------------------------------------------
// AVX2, 4 lanes
// ------------------------------------------------------------------------------------------

/// Four Goldilocks elements in one 256-bit register.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub struct PackedGoldilocksAvx2(__m256i);

impl PackedGoldilocksAvx2 {
    /// Number of lanes.
    pub const WIDTH: usize = 4;

    /// Loads four elements.
    #[inline(always)]
    pub fn from_array(_cpu: Avx2, v: [Goldilocks; 4]) -> Self {
        // SAFETY: `_cpu` proves AVX2; the load reads exactly 32 bytes from `v`.
        unsafe { Self(_mm256_loadu_si256(v.as_ptr().cast())) }
    }

    /// The same element in every lane.
    #[inline(always)]
    pub fn broadcast(_cpu: Avx2, x: Goldilocks) -> Self {
        // SAFETY: `_cpu` proves AVX2.
        unsafe { Self(_mm256_set1_epi64x(x.0 as i64)) }
    }

    /// Stores the four lanes.
    #[inline(always)]
    pub fn to_array(self) -> [Goldilocks; 4] {
        let mut out = [Goldilocks(0); 4];
        // SAFETY: a value of this type exists only if AVX2 was detected; the store writes exactly
        // 32 bytes into `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) };
        out
    }
}

/// `x <u y` lane-wise, as all-ones masks. AVX2 has only signed compares, so flip the sign bits.
#[inline(always)]
unsafe fn lt_u64_avx2(x: __m256i, y: __m256i) -> __m256i {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let sign = _mm256_set1_epi64x(i64::MIN);
        _mm256_cmpgt_epi64(_mm256_xor_si256(y, sign), _mm256_xor_si256(x, sign))
    }
}

#[inline(always)]
unsafe fn add_avx2(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let eps = _mm256_set1_epi64x(EPSILON as i64);
        let s = _mm256_add_epi64(a, b);
        let c1 = _mm256_and_si256(lt_u64_avx2(s, a), eps);
        let s2 = _mm256_add_epi64(s, c1);
        let c2 = _mm256_and_si256(lt_u64_avx2(s2, c1), eps);
        _mm256_add_epi64(s2, c2)
    }
}

#[inline(always)]
unsafe fn sub_avx2(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let eps = _mm256_set1_epi64x(EPSILON as i64);
        let d = _mm256_sub_epi64(a, b);
        let b1 = _mm256_and_si256(lt_u64_avx2(a, b), eps);
        let d2 = _mm256_sub_epi64(d, b1);
        let b2 = _mm256_and_si256(lt_u64_avx2(d, b1), eps);
        _mm256_sub_epi64(d2, b2)
    }
}

#[inline(always)]
unsafe fn neg_avx2(a: __m256i) -> __m256i {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let p = _mm256_set1_epi64x(ORDER as i64);
        // canonical c = a − p if a ≥ p
        let ge = _mm256_andnot_si256(lt_u64_avx2(a, p), p);
        let c = _mm256_sub_epi64(a, ge);
        let is_zero = _mm256_cmpeq_epi64(c, _mm256_setzero_si256());
        _mm256_andnot_si256(is_zero, _mm256_sub_epi64(p, c))
    }
}

#[inline(always)]
unsafe fn mul_avx2(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let a_hi = _mm256_srli_epi64::<32>(a);
        let b_hi = _mm256_srli_epi64::<32>(b);
        let (hi, lo) = combine_avx2(
            _mm256_mul_epu32(a, b),
            _mm256_mul_epu32(a, b_hi),
            _mm256_mul_epu32(a_hi, b),
            _mm256_mul_epu32(a_hi, b_hi),
        );
        reduce128_avx2(hi, lo)
    }
}

/// `a²`: [`mul_avx2`] with the two cross products `a0·a1` computed once.
#[inline(always)]
unsafe fn square_avx2(a: __m256i) -> __m256i {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let a_hi = _mm256_srli_epi64::<32>(a);
        let cross = _mm256_mul_epu32(a, a_hi);
        let (hi, lo) = combine_avx2(
            _mm256_mul_epu32(a, a),
            cross,
            cross,
            _mm256_mul_epu32(a_hi, a_hi),
        );
        reduce128_avx2(hi, lo)
    }
}

/// The 128-bit lanes `hi·2^64 + lo` of `(a1·2^32 + a0)(b1·2^32 + b0)` from the partial
/// products `ll = a0·b0`, `lh = a0·b1`, `hl = a1·b0`, `hh = a1·b1`.
#[inline(always)]
unsafe fn combine_avx2(ll: __m256i, lh: __m256i, hl: __m256i, hh: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let mask32 = _mm256_set1_epi64x(EPSILON as i64);
        // t = hl + (ll >> 32) ≤ (2^32−1)^2 + 2^32 − 1 < 2^64; u = lh + (t mod 2^32) likewise.
        let t = _mm256_add_epi64(hl, _mm256_srli_epi64::<32>(ll));
        let u = _mm256_add_epi64(lh, _mm256_and_si256(t, mask32));
        let lo = _mm256_or_si256(_mm256_slli_epi64::<32>(u), _mm256_and_si256(ll, mask32));
        let hi = _mm256_add_epi64(
            _mm256_add_epi64(hh, _mm256_srli_epi64::<32>(t)),
            _mm256_srli_epi64::<32>(u),
        );
        (hi, lo)
    }
}

#[inline(always)]
unsafe fn reduce128_avx2(hi: __m256i, lo: __m256i) -> __m256i {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let eps = _mm256_set1_epi64x(EPSILON as i64);
        let hi_hi = _mm256_srli_epi64::<32>(hi);
        let t0 = _mm256_sub_epi64(lo, hi_hi);
        let t0 = _mm256_sub_epi64(t0, _mm256_and_si256(lt_u64_avx2(lo, hi_hi), eps));
        let t1 = _mm256_mul_epu32(hi, eps); // hi_lo · (2^32 − 1)
        let r = _mm256_add_epi64(t0, t1);
        _mm256_add_epi64(r, _mm256_and_si256(lt_u64_avx2(r, t1), eps))
    }
}

macro_rules! packed_ops {
    ($t:ident, $add:ident, $sub:ident, $mul:ident, $square:ident, $neg:ident, $feature:ident, { $($linear:tt)* }) => {
        impl Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                // SAFETY: a value of this type exists only if the feature was detected.
                unsafe { Self($add(self.0, rhs.0)) }
            }
        }
        impl Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                // SAFETY: a value of this type exists only if the feature was detected.
                unsafe { Self($sub(self.0, rhs.0)) }
            }
        }
        impl Mul for $t {
            type Output = Self;
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                // SAFETY: a value of this type exists only if the feature was detected.
                unsafe { Self($mul(self.0, rhs.0)) }
            }
        }
        impl Neg for $t {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                // SAFETY: a value of this type exists only if the feature was detected.
                unsafe { Self($neg(self.0)) }
            }
        }
        impl AddAssign for $t {
            #[inline(always)]
            fn add_assign(&mut self, rhs: Self) {
                *self = *self + rhs;
            }
        }
        impl SubAssign for $t {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: Self) {
                *self = *self - rhs;
            }
        }
        impl MulAssign for $t {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: Self) {
                *self = *self * rhs;
            }
        }
        impl zkaccel_field::Algebra for $t {
            /// Three 32×32-bit products a lane, not four (the cross product is shared).
            #[inline(always)]
            fn square(&self) -> Self {
                // SAFETY: a value of this type exists only if the feature was detected.
                unsafe { Self($square(self.0)) }
            }
        }

        impl PackedField for $t {
            type Scalar = Goldilocks;
            type Cpu = $feature;
            const WIDTH: usize = Self::WIDTH;
            #[inline(always)]
            fn detect() -> Option<$feature> {
                <$feature>::detect()
            }
            /// # Panics
            /// Panics when `slice.len() != WIDTH`.
            #[inline(always)]
            fn from_slice(cpu: $feature, slice: &[Goldilocks]) -> Self {
                Self::from_array(
                    cpu,
                    slice.try_into().expect("slice length must equal WIDTH"),
                )
            }
            #[inline(always)]
            fn broadcast(cpu: $feature, x: Goldilocks) -> Self {
                Self::broadcast(cpu, x)
            }
            /// # Panics
            /// Panics when `out.len() != WIDTH`.
            #[inline(always)]
            fn write_to_slice(&self, out: &mut [Goldilocks]) {
                out.copy_from_slice(&self.to_array());
            }
        }

        impl PoseidonPacking for $t {
            $($linear)*
        }
    };
}

/// The linear-combination items of a packing that multiplies by plain broadcast constants and
/// reduces every product.
macro_rules! plain_constants {
    ($feature:ident) => {
        type Constant = Goldilocks;
        #[inline(always)]
        fn prepare_constant(_: $feature, c: Goldilocks) -> Goldilocks {
            c
        }
        #[inline(always)]
        fn broadcast_constant(cpu: $feature, c: &Goldilocks) -> Self {
            Self::broadcast(cpu, *c)
        }
        type Split = Self;
        type Accumulator = Self;
        #[inline(always)]
        fn split(self, _: $feature) -> Self {
            self
        }
        #[inline(always)]
        fn empty_sum(cpu: $feature) -> Self {
            Self::broadcast(cpu, <Goldilocks as zkaccel_field::Field>::ZERO)
        }
        #[inline(always)]
        fn accumulate(cpu: $feature, acc: &mut Self, x: &Self, c: &Goldilocks) {
            *acc = <Self as PoseidonPacking>::mul_constant_add(cpu, *x, c, *acc);
        }
        #[inline(always)]
        fn reduce_sum(acc: Self) -> Self {
            acc
        }
    };
}

packed_ops!(
    PackedGoldilocksAvx2,
    add_avx2,
    sub_avx2,
    mul_avx2,
    square_avx2,
    neg_avx2,
    Avx2,
    {
        plain_constants!(Avx2);
        #[inline(always)]
        fn dot_small_constants(_: Avx2, xs: &[Self], cs: &[u32]) -> Self {
            Self::dot_small(xs, cs)
        }
    }
);

// ------------------------------------------------------------------------------------------
// AVX-512F, 8 lanes: native unsigned compares into mask registers.
// ------------------------------------------------------------------------------------------

/// Eight Goldilocks elements in one 512-bit register.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub struct PackedGoldilocksAvx512(__m512i);

impl PackedGoldilocksAvx512 {
    /// Number of lanes.
    pub const WIDTH: usize = 8;

    /// Loads eight elements.
    #[inline(always)]
    pub fn from_array(_cpu: Avx512, v: [Goldilocks; 8]) -> Self {
        // SAFETY: `_cpu` proves AVX-512F; the load reads exactly 64 bytes from `v`.
        unsafe { Self(_mm512_loadu_si512(v.as_ptr().cast())) }
    }

    /// The same element in every lane.
    #[inline(always)]
    pub fn broadcast(_cpu: Avx512, x: Goldilocks) -> Self {
        // SAFETY: `_cpu` proves AVX-512F.
        unsafe { Self(_mm512_set1_epi64(x.0 as i64)) }
    }

    /// The elements of `prefix` (at most eight) in the low lanes, zeros above: a run's tail
    /// in one masked load.
    ///
    /// # Panics
    /// When `prefix` holds more than eight elements.
    #[inline(always)]
    pub fn from_prefix(_cpu: Avx512, prefix: &[Goldilocks]) -> Self {
        assert!(prefix.len() <= Self::WIDTH, "at most eight lanes");
        let mask = ((1u16 << prefix.len()) - 1) as __mmask8;
        // SAFETY: `_cpu` proves AVX-512F; the mask enables exactly the lanes `prefix` holds,
        // and masked-off lanes are neither read nor fault (`Goldilocks` is `repr(transparent)`
        // over `u64`).
        unsafe { Self(_mm512_maskz_loadu_epi64(mask, prefix.as_ptr().cast())) }
    }

    /// Stores the low `out.len()` lanes (at most eight) into `out`: [`Self::from_prefix`]'s
    /// counterpart.
    ///
    /// # Panics
    /// When `out` holds more than eight elements.
    #[inline(always)]
    pub fn write_prefix(self, out: &mut [Goldilocks]) {
        assert!(out.len() <= Self::WIDTH, "at most eight lanes");
        let mask = ((1u16 << out.len()) - 1) as __mmask8;
        // SAFETY: a value of this type exists only if AVX-512F was detected; the mask enables
        // exactly the lanes `out` holds, and masked-off lanes are not written.
        unsafe { _mm512_mask_storeu_epi64(out.as_mut_ptr().cast(), mask, self.0) };
    }

    /// The DIT butterfly `(x + y·w, x − y·w)`, with the product brought below `p` once for
    /// both (an unsigned minimum) so that the sum and the difference each need one correction,
    /// not two. Equal as field elements to `(x + y*w, x - y*w)`.
    #[inline(always)]
    pub fn dit_butterfly(x: Self, y: Self, w: Self) -> (Self, Self) {
        // SAFETY: a value of this type exists only if AVX-512F was detected.
        unsafe {
            let t = canonical_avx512(mul_avx512(y.0, w.0));
            (
                Self(add_canonical_avx512(x.0, t)),
                Self(sub_canonical_avx512(x.0, t)),
            )
        }
    }

    /// `(x + y, x − y)`: the butterfly of twiddle one, `y` brought below `p` once for both.
    #[inline(always)]
    pub fn add_sub(x: Self, y: Self) -> (Self, Self) {
        // SAFETY: a value of this type exists only if AVX-512F was detected.
        unsafe {
            let y = canonical_avx512(y.0);
            (
                Self(add_canonical_avx512(x.0, y)),
                Self(sub_canonical_avx512(x.0, y)),
            )
        }
    }

    /// The DIF butterfly `(x + y, (x − y)·w)`, `y` brought below `p` once for the sum and the
    /// difference. Equal as field elements to `(x + y, (x - y) * w)`.
    #[inline(always)]
    pub fn dif_butterfly(x: Self, y: Self, w: Self) -> (Self, Self) {
        // SAFETY: a value of this type exists only if AVX-512F was detected.
        unsafe {
            let y = canonical_avx512(y.0);
            (
                Self(add_canonical_avx512(x.0, y)),
                Self(mul_avx512(sub_canonical_avx512(x.0, y), w.0)),
            )
        }
    }

    /// Stores the eight lanes.
    #[inline(always)]
    pub fn to_array(self) -> [Goldilocks; 8] {
        let mut out = [Goldilocks(0); 8];
        // SAFETY: a value of this type exists only if AVX-512F was detected; the store writes
        // exactly 64 bytes into `out`.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self.0) };
        out
    }
}

/// A twiddle `±2^k` in every lane, applied by shifts instead of a product: `2` has order 192,
/// so the roots of unity of order up to 64 are all such powers — the twiddles of a
/// transform's short stages (half-sizes up to 32) and of a four-step column pass over up to
/// 64 rows. With `s = k mod 96` (`2^96 = −1`: `k ≥ 96` negates), `x·2^s` for `s < 64` is the
/// 128-bit `(x >> (64 − s), x << s)`, reduced once: 12 operations where the product takes
/// 26 (`HIGH = false`); for `64 ≤ s < 96`, `2^s ≡ 2^(s − 32) − 2^(s − 64)` (as
/// `2^64 ≡ 2^32 − 1`), two such shifted words and one 128-bit difference before the
/// reduction: 18 (`HIGH = true`). A butterfly of the first kind measured 1.4–1.7× faster
/// than with the product on a Zen 4 EPYC (L1-resident rows of 136 elements).
#[derive(Clone, Copy, Debug)]
pub struct PackedPowerOfTwo<const HIGH: bool> {
    /// The shift of the (first) term in every lane: `s`, or `s − 32` when `HIGH`.
    left: __m512i,
    /// `64 −` that shift (`vpsrlvq` gives 0 for a count of 64).
    right: __m512i,
    /// When `HIGH`, the subtracted term's shift `s − 64` (else unused).
    low_left: __m512i,
    /// `64 − s + 64` when `HIGH` (else unused).
    low_right: __m512i,
    /// The twiddle is `−2^s`.
    negated: bool,
}

/// A twiddle classified for [`PackedPowerOfTwo`]: `±2^s` with `s mod 96` below 64 or not.
#[derive(Clone, Copy, Debug)]
pub enum PowerTwiddle {
    /// `±2^s`, `s < 64` (not one).
    Low(PackedPowerOfTwo<false>),
    /// `±2^s`, `64 ≤ s < 96`.
    High(PackedPowerOfTwo<true>),
}

impl PowerTwiddle {
    /// The twiddle `w` as `±2^s` where it is one (`None` otherwise, and for `w = 1`, which needs
    /// no product at all): `2^s` for `s < 64` is a single bit, and for `64 ≤ s < 96` a run of
    /// 32 ones from bit `s − 64`; `−2^s` is `p` minus either.
    #[inline(always)]
    pub fn of(_cpu: Avx512, w: Goldilocks) -> Option<Self> {
        let v = w.as_canonical_u64();
        let single = |m: u64| m.is_power_of_two().then(|| i64::from(m.trailing_zeros()));
        let run = |m: u64| {
            (m != 0 && m >> m.trailing_zeros() == 0xffff_ffff)
                .then(|| 64 + i64::from(m.trailing_zeros()))
        };
        // The single bits first: `−1 = p − 1` is also a run of 32 ones (`2^96`).
        let ((high, s), negated) = if let Some(s) = single(v) {
            ((false, s), false)
        } else if let Some(s) = single(ORDER - v) {
            ((false, s), true)
        } else if let Some(s) = run(v) {
            ((true, s), false)
        } else {
            ((true, run(ORDER - v)?), true)
        };
        if s == 0 && !negated {
            return None;
        }
        // SAFETY: `_cpu` proves AVX-512F.
        unsafe {
            let set = |x: i64| _mm512_set1_epi64(x);
            Some(if high {
                Self::High(PackedPowerOfTwo {
                    left: set(s - 32),
                    right: set(96 - s),
                    low_left: set(s - 64),
                    low_right: set(128 - s),
                    negated,
                })
            } else {
                Self::Low(PackedPowerOfTwo {
                    left: set(s),
                    right: set(64 - s),
                    low_left: set(0),
                    low_right: set(0),
                    negated,
                })
            })
        }
    }
}

impl<const HIGH: bool> PackedPowerOfTwo<HIGH> {
    /// `x·2^s` reduced below `2^64` (any word `x`).
    #[inline(always)]
    fn shifted(self, x: __m512i) -> __m512i {
        // SAFETY: a value of this type exists only if AVX-512F was detected.
        unsafe {
            let (hi, lo) = (
                _mm512_srlv_epi64(x, self.right),
                _mm512_sllv_epi64(x, self.left),
            );
            if !HIGH {
                return reduce128_avx512(hi, lo);
            }
            // x·2^(s − 32) − x·2^(s − 64): the first is 2^32 times the second, so the
            // 128-bit difference does not wrap.
            let (sub_hi, sub_lo) = (
                _mm512_srlv_epi64(x, self.low_right),
                _mm512_sllv_epi64(x, self.low_left),
            );
            let borrow = _mm512_cmplt_epu64_mask(lo, sub_lo);
            let hi = _mm512_sub_epi64(hi, sub_hi);
            let hi = _mm512_mask_sub_epi64(hi, borrow, hi, _mm512_set1_epi64(1));
            reduce128_avx512(hi, _mm512_sub_epi64(lo, sub_lo))
        }
    }

    /// The DIT butterfly `(x + y·w, x − y·w)` with this twiddle `w`, equal as field elements to
    /// [`PackedGoldilocksAvx512::dit_butterfly`]'s.
    #[inline(always)]
    pub fn dit_butterfly(
        self,
        x: PackedGoldilocksAvx512,
        y: PackedGoldilocksAvx512,
    ) -> (PackedGoldilocksAvx512, PackedGoldilocksAvx512) {
        // SAFETY: a value of this type exists only if AVX-512F was detected.
        unsafe {
            let t = canonical_avx512(self.shifted(y.0));
            let (sum, difference) = (add_canonical_avx512(x.0, t), sub_canonical_avx512(x.0, t));
            if self.negated {
                (
                    PackedGoldilocksAvx512(difference),
                    PackedGoldilocksAvx512(sum),
                )
            } else {
                (
                    PackedGoldilocksAvx512(sum),
                    PackedGoldilocksAvx512(difference),
                )
            }
        }
    }

    /// The DIF butterfly `(x + y, (x − y)·w)` with this twiddle `w`, equal as field elements to
    /// [`PackedGoldilocksAvx512::dif_butterfly`]'s (for `w = −2^s`: `(y − x)·2^s`).
    #[inline(always)]
    pub fn dif_butterfly(
        self,
        x: PackedGoldilocksAvx512,
        y: PackedGoldilocksAvx512,
    ) -> (PackedGoldilocksAvx512, PackedGoldilocksAvx512) {
        // SAFETY: a value of this type exists only if AVX-512F was detected.
        unsafe {
            let y = canonical_avx512(y.0);
            let sum = add_canonical_avx512(x.0, y);
            let difference = if self.negated {
                sub_canonical_avx512(y, canonical_avx512(x.0))
            } else {
                sub_canonical_avx512(x.0, y)
            };
            (
                PackedGoldilocksAvx512(sum),
                PackedGoldilocksAvx512(self.shifted(difference)),
            )
        }
    }
}

#[inline(always)]
unsafe fn add_avx512(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let eps = _mm512_set1_epi64(EPSILON as i64);
        let s = _mm512_add_epi64(a, b);
        let s2 = _mm512_mask_add_epi64(s, _mm512_cmplt_epu64_mask(s, a), s, eps);
        _mm512_mask_add_epi64(s2, _mm512_cmplt_epu64_mask(s2, s), s2, eps)
    }
}

#[inline(always)]
unsafe fn sub_avx512(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let eps = _mm512_set1_epi64(EPSILON as i64);
        let d = _mm512_sub_epi64(a, b);
        let d2 = _mm512_mask_sub_epi64(d, _mm512_cmplt_epu64_mask(a, b), d, eps);
        _mm512_mask_sub_epi64(d2, _mm512_cmplt_epu64_mask(d, d2), d2, eps)
    }
}

/// `a mod p` for any word `a`: `min(a, a − p)` unsigned (`a − p` wraps above `a` exactly when
/// `a < p`).
#[inline(always)]
unsafe fn canonical_avx512(a: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe { _mm512_min_epu64(a, _mm512_add_epi64(a, _mm512_set1_epi64(EPSILON as i64))) }
}

/// `a + b` for any word `a` and `b < p`: one carry correction suffices (`a + b < 2^64 + p`, so
/// after adding `2^64 − p` back the sum cannot carry again).
#[inline(always)]
unsafe fn add_canonical_avx512(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let eps = _mm512_set1_epi64(EPSILON as i64);
        let s = _mm512_add_epi64(a, b);
        _mm512_mask_add_epi64(s, _mm512_cmplt_epu64_mask(s, b), s, eps)
    }
}

/// `a − b` for any word `a` and `b < p`: one borrow correction suffices (`a − b > −p`).
#[inline(always)]
unsafe fn sub_canonical_avx512(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let eps = _mm512_set1_epi64(EPSILON as i64);
        let d = _mm512_sub_epi64(a, b);
        _mm512_mask_sub_epi64(d, _mm512_cmplt_epu64_mask(a, b), d, eps)
    }
}

#[inline(always)]
unsafe fn neg_avx512(a: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let p = _mm512_set1_epi64(ORDER as i64);
        let c = _mm512_mask_sub_epi64(a, _mm512_cmpge_epu64_mask(a, p), a, p);
        _mm512_maskz_sub_epi64(_mm512_test_epi64_mask(c, c), p, c)
    }
}

#[inline(always)]
unsafe fn mul_avx512(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        // The high halves moved down by a shuffle (port 5), not a shift (port 0, where the
        // products run): `vpmuludq` reads only the low 32 bits of each lane.
        let a_hi = high_halves_avx512(a);
        let b_hi = high_halves_avx512(b);
        let (hi, lo) = combine_avx512(
            _mm512_mul_epu32(a, b),
            _mm512_mul_epu32(a, b_hi),
            _mm512_mul_epu32(a_hi, b),
            _mm512_mul_epu32(a_hi, b_hi),
        );
        reduce128_avx512(hi, lo)
    }
}

/// `a²`: [`mul_avx512`] with the two cross products `a0·a1` computed once.
#[inline(always)]
unsafe fn square_avx512(a: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let a_hi = high_halves_avx512(a);
        let cross = _mm512_mul_epu32(a, a_hi);
        let (hi, lo) = combine_avx512(
            _mm512_mul_epu32(a, a),
            cross,
            cross,
            _mm512_mul_epu32(a_hi, a_hi),
        );
        reduce128_avx512(hi, lo)
    }
}

/// The 128-bit lanes `hi·2^64 + lo` of `(a1·2^32 + a0)(b1·2^32 + b0)` from the partial
/// products `ll = a0·b0`, `lh = a0·b1`, `hl = a1·b0`, `hh = a1·b1`.
#[inline(always)]
unsafe fn combine_avx512(ll: __m512i, lh: __m512i, hl: __m512i, hh: __m512i) -> (__m512i, __m512i) {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let mask32 = _mm512_set1_epi64(EPSILON as i64);
        let t = _mm512_add_epi64(hl, _mm512_srli_epi64::<32>(ll));
        let u = _mm512_add_epi64(lh, _mm512_and_si512(t, mask32));
        // lo = (u mod 2^32)·2^32 + (ll mod 2^32): u's low half copied up, ll's low half kept.
        let lo = _mm512_mask_blend_epi32(0x5555, low_halves_up_avx512(u), ll);
        let hi = _mm512_add_epi64(
            _mm512_add_epi64(hh, _mm512_srli_epi64::<32>(t)),
            _mm512_srli_epi64::<32>(u),
        );
        (hi, lo)
    }
}

/// Each lane's high 32 bits copied into its low half (the high half keeps them): what
/// `vpmuludq` needs of a high half, from a shuffle.
#[inline(always)]
unsafe fn high_halves_avx512(x: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe { _mm512_castps_si512(_mm512_movehdup_ps(_mm512_castsi512_ps(x))) }
}

/// Each lane's low 32 bits copied into its high half.
#[inline(always)]
unsafe fn low_halves_up_avx512(x: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe { _mm512_castps_si512(_mm512_moveldup_ps(_mm512_castsi512_ps(x))) }
}

/// Reduces the 128-bit lanes `hi·2^64 + lo`: `lo − hi_hi` (borrow ⇒ −ε) + `hi_lo·ε` (carry ⇒ +ε).
#[inline(always)]
unsafe fn reduce128_avx512(hi: __m512i, lo: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let eps = _mm512_set1_epi64(EPSILON as i64);
        let hi_hi = _mm512_srli_epi64::<32>(hi);
        let t0 = _mm512_sub_epi64(lo, hi_hi);
        let t0 = _mm512_mask_sub_epi64(t0, _mm512_cmplt_epu64_mask(lo, hi_hi), t0, eps);
        // hi_lo · (2^32 − 1) = (hi_lo << 32) − hi_lo: a shift, a mask and a subtraction
        // instead of a product (Plonky3's form; on a Zen 4 EPYC it measured the same as the
        // product, within noise).
        let t1 = _mm512_sub_epi64(_mm512_slli_epi64::<32>(hi), _mm512_and_si512(hi, eps));
        let r = _mm512_add_epi64(t0, t1);
        _mm512_mask_add_epi64(r, _mm512_cmplt_epu64_mask(r, t1), r, eps)
    }
}

/// Reduces `lo + hi·2^32` (two 64-bit words per lane): `(hi >> 32)·2^64 + (lo + (hi << 32))`
/// with the carry of the low sum, then the 128-bit reduction.
#[inline(always)]
unsafe fn reduce_lo_hi32_avx512(lo: __m512i, hi: __m512i) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let low = _mm512_add_epi64(lo, _mm512_slli_epi64::<32>(hi));
        let carry = _mm512_cmplt_epu64_mask(low, lo);
        let high = _mm512_mask_add_epi64(
            _mm512_srli_epi64::<32>(hi),
            carry,
            _mm512_srli_epi64::<32>(hi),
            _mm512_set1_epi64(1),
        );
        reduce128_avx512(high, low)
    }
}

impl PackedGoldilocksAvx512 {
    /// `Σ_j cs[j]·xs[j]` for small constants whose sum is below 2^32 (checked in debug builds):
    /// two 32×32-bit products per term accumulate without reduction, and one reduction ends
    /// the sum — the form of an MDS layer with small entries.
    #[inline(always)]
    pub fn dot_small(xs: &[Self], cs: &[u32]) -> Self {
        debug_assert!(cs.iter().map(|&c| c as u64).sum::<u64>() < 1 << 32);
        // SAFETY: a value of this type exists only if AVX-512F was detected. Each accumulator
        // is a sum of products (< 2^32)·c_j, below 2^32·Σc_j < 2^64.
        unsafe {
            let mut lo = _mm512_setzero_si512();
            let mut hi = _mm512_setzero_si512();
            for (x, &c) in xs.iter().zip(cs) {
                let c = _mm512_set1_epi64(c as i64);
                lo = _mm512_add_epi64(lo, _mm512_mul_epu32(x.0, c));
                hi = _mm512_add_epi64(hi, _mm512_mul_epu32(_mm512_srli_epi64::<32>(x.0), c));
            }
            Self(reduce_lo_hi32_avx512(lo, hi))
        }
    }
}

/// Lane `r` of rotation `k` of a 12-lane vector held as lanes 0–7 of `a` and lanes 0–3 of
/// `b`: element `(r + k) mod 12`, as a `vpermt2q` index (`0..8` from `a`, `8..12` from `b`).
/// Rows `k` for the output lanes 0–7 (`A`) and 8–11 (`B`, lanes 4–7 unused, index 0).
const fn rotation_indices(high: bool) -> [[i64; 8]; 12] {
    let mut idx = [[0i64; 8]; 12];
    let mut k = 0;
    while k < 12 {
        let mut r = 0;
        while r < 8 {
            let lane = if high { r + 8 } else { r };
            if lane < 12 {
                idx[k][r] = ((lane + k) % 12) as i64;
            }
            r += 1;
        }
        k += 1;
    }
    idx
}

const ROTATIONS_A: [[i64; 8]; 12] = rotation_indices(false);
const ROTATIONS_B: [[i64; 8]; 12] = rotation_indices(true);

/// A circulant layer's diagonal as lanes 0–7 and 8–11 (lanes 12–15 zero).
///
/// # Safety
/// AVX-512F must be present.
#[inline(always)]
unsafe fn diagonal_lanes(diag: &[u32; 12]) -> (__m512i, __m512i) {
    let d_a: [i64; 8] = core::array::from_fn(|r| i64::from(diag[r]));
    let d_b: [i64; 8] = core::array::from_fn(|r| if r < 4 { i64::from(diag[8 + r]) } else { 0 });
    // SAFETY: AVX-512F is present (this function's contract); each load reads the 64 bytes
    // of an eight-lane array.
    unsafe {
        (
            _mm512_loadu_si512(d_a.as_ptr().cast()),
            _mm512_loadu_si512(d_b.as_ptr().cast()),
        )
    }
}

impl PackedGoldilocksAvx512 {
    /// The product `M·s` of a 12×12 matrix `M[i][j] = circ[(j − i) mod 12] + [i = j]·diag[i]`
    /// with small entries (`Σ circ + max diag < 2^32`, checked in debug builds) and the
    /// twelve-element vector `s` held as lanes 0–7 of `lo` and lanes 0–3 of `hi` (lanes 4–7
    /// of `hi` are ignored; they come back holding values nothing should read). This is
    /// Poseidon's circulant MDS layer (plonky2's, width 12) on one state: the rotations
    /// `s[(i + k) mod 12]` are lane permutations (`vpermt2q`), and every product of a 32-bit
    /// half with a small constant is summed unreduced, with one reduction per lane at the end.
    #[inline(always)]
    pub fn circulant12_small(
        lo: Self,
        hi: Self,
        circ: &[u32; 12],
        diag: &[u32; 12],
    ) -> (Self, Self) {
        debug_assert!(
            circ.iter().map(|&c| u64::from(c)).sum::<u64>()
                + diag.iter().map(|&d| u64::from(d)).max().unwrap_or(0)
                < 1 << 32
        );
        // SAFETY: a value of this type exists only if AVX-512F was detected; the index loads
        // read exactly 64 bytes of constant arrays. Every accumulator is a sum of (< 2^32)·c
        // over constants summing below 2^32, so below 2^64.
        unsafe {
            let (a, b) = (lo.0, hi.0);
            let mut a_lo = _mm512_setzero_si512();
            let mut a_hi = _mm512_setzero_si512();
            let mut b_lo = _mm512_setzero_si512();
            let mut b_hi = _mm512_setzero_si512();
            for k in 0..12 {
                let c = _mm512_set1_epi64(i64::from(circ[k]));
                let ra = _mm512_permutex2var_epi64(
                    a,
                    _mm512_loadu_si512(ROTATIONS_A[k].as_ptr().cast()),
                    b,
                );
                let rb = _mm512_permutex2var_epi64(
                    a,
                    _mm512_loadu_si512(ROTATIONS_B[k].as_ptr().cast()),
                    b,
                );
                a_lo = _mm512_add_epi64(a_lo, _mm512_mul_epu32(ra, c));
                a_hi = _mm512_add_epi64(a_hi, _mm512_mul_epu32(_mm512_srli_epi64::<32>(ra), c));
                b_lo = _mm512_add_epi64(b_lo, _mm512_mul_epu32(rb, c));
                b_hi = _mm512_add_epi64(b_hi, _mm512_mul_epu32(_mm512_srli_epi64::<32>(rb), c));
            }
            let (d_a, d_b) = diagonal_lanes(diag);
            a_lo = _mm512_add_epi64(a_lo, _mm512_mul_epu32(a, d_a));
            a_hi = _mm512_add_epi64(a_hi, _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), d_a));
            b_lo = _mm512_add_epi64(b_lo, _mm512_mul_epu32(b, d_b));
            b_hi = _mm512_add_epi64(b_hi, _mm512_mul_epu32(_mm512_srli_epi64::<32>(b), d_b));
            (
                Self(reduce_lo_hi32_avx512(a_lo, a_hi)),
                Self(reduce_lo_hi32_avx512(b_lo, b_hi)),
            )
        }
    }
}

impl PackedGoldilocksAvx512 {
    /// [`PackedGoldilocksAvx512::circulant12_small`] with 52-bit multiply-adds: the lanes are
    /// split into 32-bit halves once, the halves rotated (four permutations per term instead
    /// of two, but no shifts), and each half times a constant added by one fused
    /// `vpmadd52luq` (exact: a half times a constant below `2^20` is below `2^52`). Needs
    /// every constant below `2^20` as well as the sum bound of `circulant12_small`.
    #[inline(always)]
    pub fn circulant12_small_ifma(
        _cpu: Avx512Ifma,
        lo: Self,
        hi: Self,
        circ: &[u32; 12],
        diag: &[u32; 12],
    ) -> (Self, Self) {
        debug_assert!(circ.iter().chain(diag).all(|&c| c < 1 << 20));
        debug_assert!(
            circ.iter().map(|&c| u64::from(c)).sum::<u64>()
                + diag.iter().map(|&d| u64::from(d)).max().unwrap_or(0)
                < 1 << 32
        );
        // SAFETY: `_cpu` proves AVX-512F and IFMA; the index loads read exactly 64 bytes of
        // constant arrays. Every accumulator is a sum of (< 2^32)·c over constants summing
        // below 2^32, so below 2^64, and each product is below 2^52, so `madd52lo` adds it
        // exactly.
        unsafe {
            let mask32 = _mm512_set1_epi64(EPSILON as i64);
            let (a_l, a_h) = (
                _mm512_and_si512(lo.0, mask32),
                _mm512_srli_epi64::<32>(lo.0),
            );
            let (b_l, b_h) = (
                _mm512_and_si512(hi.0, mask32),
                _mm512_srli_epi64::<32>(hi.0),
            );
            let mut acc = [_mm512_setzero_si512(); 4];
            for k in 0..12 {
                let c = _mm512_set1_epi64(i64::from(circ[k]));
                let ia = _mm512_loadu_si512(ROTATIONS_A[k].as_ptr().cast());
                let ib = _mm512_loadu_si512(ROTATIONS_B[k].as_ptr().cast());
                let terms = [
                    _mm512_permutex2var_epi64(a_l, ia, b_l),
                    _mm512_permutex2var_epi64(a_h, ia, b_h),
                    _mm512_permutex2var_epi64(a_l, ib, b_l),
                    _mm512_permutex2var_epi64(a_h, ib, b_h),
                ];
                for (a, t) in acc.iter_mut().zip(terms) {
                    *a = _mm512_madd52lo_epu64(*a, t, c);
                }
            }
            let (d_a, d_b) = diagonal_lanes(diag);
            let [a_lo, a_hi, b_lo, b_hi] = acc;
            let a_lo = _mm512_madd52lo_epu64(a_lo, a_l, d_a);
            let a_hi = _mm512_madd52lo_epu64(a_hi, a_h, d_a);
            let b_lo = _mm512_madd52lo_epu64(b_lo, b_l, d_b);
            let b_hi = _mm512_madd52lo_epu64(b_hi, b_h, d_b);
            (
                Self(reduce_lo_hi32_avx512(a_lo, a_hi)),
                Self(reduce_lo_hi32_avx512(b_lo, b_hi)),
            )
        }
    }
}

impl PackedGoldilocksAvx512 {
    /// `Σ_j cs[j]·xs[j]` for any constants (at most 16 terms), with one reduction: each
    /// 32×32-bit partial product is split into 32-bit halves and summed by weight
    /// (`2^0, 2^32, 2^64, 2^96`), so no accumulator can overflow, and
    /// `2^64 ≡ 2^32 − 1`, `2^96 ≡ −1 (mod p)` fold the weights back.
    #[inline(always)]
    pub fn dot_constants16(xs: &[Self], cs: &[Goldilocks]) -> Self {
        debug_assert!(xs.len() <= 16);
        // SAFETY: a value of this type exists only if AVX-512F was detected. Every accumulator
        // is a sum of at most 3·16 values below 2^32, far below 2^64.
        unsafe {
            let m = _mm512_set1_epi64(EPSILON as i64);
            let z = _mm512_setzero_si512();
            let (mut a0, mut a1, mut a2, mut a3) = (z, z, z, z);
            for (x, c) in xs.iter().zip(cs) {
                let c = _mm512_set1_epi64(c.0 as i64);
                let c_hi = _mm512_srli_epi64::<32>(c);
                let x_hi = _mm512_srli_epi64::<32>(x.0);
                let ll = _mm512_mul_epu32(x.0, c);
                let lh = _mm512_mul_epu32(x.0, c_hi);
                let hl = _mm512_mul_epu32(x_hi, c);
                let hh = _mm512_mul_epu32(x_hi, c_hi);
                a0 = _mm512_add_epi64(a0, _mm512_and_si512(ll, m));
                a1 = _mm512_add_epi64(a1, _mm512_srli_epi64::<32>(ll));
                a1 = _mm512_add_epi64(a1, _mm512_and_si512(lh, m));
                a1 = _mm512_add_epi64(a1, _mm512_and_si512(hl, m));
                a2 = _mm512_add_epi64(a2, _mm512_srli_epi64::<32>(lh));
                a2 = _mm512_add_epi64(a2, _mm512_srli_epi64::<32>(hl));
                a2 = _mm512_add_epi64(a2, _mm512_and_si512(hh, m));
                a3 = _mm512_add_epi64(a3, _mm512_srli_epi64::<32>(hh));
            }
            // total ≡ a0 − a2 − a3 + (a1 + a2)·2^32, and b·2^32 = (b >> 32)·2^64 + (b << 32)
            // ≡ (b >> 32)·ε + (b << 32).
            let b = _mm512_add_epi64(a1, a2);
            let small = _mm512_add_epi64(a0, _mm512_mul_epu32(_mm512_srli_epi64::<32>(b), m));
            let pos = add_avx512(_mm512_slli_epi64::<32>(b), small);
            Self(sub_avx512(pos, _mm512_add_epi64(a2, a3)))
        }
    }
}

const MASK52: u64 = (1 << 52) - 1;

/// A constant split for [`Accumulator52`]: `value = lo + hi·2^52` with `lo < 2^52`, `hi < 2^12`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split52Constant {
    /// The element as stored (any `u64`).
    pub value: u64,
    lo: u64,
    hi: u64,
}

impl Split52Constant {
    /// Splits `c`.
    #[inline]
    pub fn new(c: Goldilocks) -> Self {
        Self {
            value: c.0,
            lo: c.0 & MASK52,
            hi: c.0 >> 52,
        }
    }
}

/// Eight lanes split as `x = lo + hi·2^32` (`lo, hi < 2^32`), the form the 52-bit
/// multiply-adds read in [`Accumulator52::add_product`]. Split a value once and use it in many
/// products.
#[derive(Debug, Clone, Copy)]
pub struct Split52 {
    lo: __m512i,
    hi: __m512i,
}

impl PackedGoldilocksAvx512 {
    /// The lanes split for [`Accumulator52::add_product`].
    #[inline(always)]
    pub fn split52(self, _cpu: Avx512Ifma) -> Split52 {
        // SAFETY: `_cpu` proves AVX-512F.
        unsafe {
            Split52 {
                lo: _mm512_and_si512(self.0, _mm512_set1_epi64(u32::MAX as i64)),
                hi: _mm512_srli_epi64::<32>(self.0),
            }
        }
    }
}

/// A sum of products `Σ c_j·x_j` (constants times lanes) kept unreduced in four accumulators
/// of weights `2^0, 2^32, 2^52, 2^84`, each product costing six 52-bit multiply-adds
/// (`vpmadd52luq`/`vpmadd52huq`) and no carry handling; [`Accumulator52::reduce`] ends the sum.
/// At most [`Accumulator52::MAX_TERMS`] products.
///
/// A lane is split in 32-bit halves and a constant as `c_lo + c_hi·2^52` (`c_hi < 2^12`), so
/// that the two products by `c_hi` fit one 52-bit half each: `x_lo·c_lo` and `x_hi·c_lo` take
/// two multiply-adds (low and high 52 bits), `x_lo·c_hi` and `x_hi·c_hi` one.
#[derive(Debug, Clone, Copy)]
pub struct Accumulator52 {
    a0: __m512i,
    a32: __m512i,
    a52: __m512i,
    a84: __m512i,
}

impl Accumulator52 {
    /// The most products one sum may hold (so that every accumulator stays below `2^63`).
    pub const MAX_TERMS: usize = 1024;

    /// The empty sum.
    #[inline(always)]
    pub fn new(_cpu: Avx512Ifma) -> Self {
        // SAFETY: `_cpu` proves AVX-512F.
        let z = unsafe { _mm512_setzero_si512() };
        Self {
            a0: z,
            a32: z,
            a52: z,
            a84: z,
        }
    }

    /// Adds `c·x` in every lane.
    #[inline(always)]
    pub fn add_product(&mut self, x: &Split52, c: &Split52Constant) {
        // SAFETY: an `Accumulator52` exists only if AVX-512F and IFMA were detected. The
        // 84-bit products `x_lo·c_lo` (weight 1) and `x_hi·c_lo` (weight 2^32) land in their
        // own accumulator (bits 0–51) and in `a52` / `a84` (bits 52–83); `x_lo·c_hi` and
        // `x_hi·c_hi` (below 2^44) in `a52` and `a84`.
        unsafe {
            let c_lo = _mm512_set1_epi64(c.lo as i64);
            let c_hi = _mm512_set1_epi64(c.hi as i64);
            self.a0 = _mm512_madd52lo_epu64(self.a0, x.lo, c_lo);
            self.a52 = _mm512_madd52hi_epu64(self.a52, x.lo, c_lo);
            self.a52 = _mm512_madd52lo_epu64(self.a52, x.lo, c_hi);
            self.a32 = _mm512_madd52lo_epu64(self.a32, x.hi, c_lo);
            self.a84 = _mm512_madd52hi_epu64(self.a84, x.hi, c_lo);
            self.a84 = _mm512_madd52lo_epu64(self.a84, x.hi, c_hi);
        }
    }

    /// The sum, reduced to one word per lane (below `2^64`, possibly non-canonical).
    #[inline(always)]
    pub fn reduce(self) -> PackedGoldilocksAvx512 {
        // SAFETY: as in `add_product`. With `n ≤ MAX_TERMS = 2^10` products, `a0, a32 <
        // n·2^52 ≤ 2^62` and `a52, a84 < n·(2^32 + 2^44) < 2^55`. First the weights become
        // `2^0, 2^52, 2^104`: `a32·2^32 = (a32 mod 2^20)·2^32 + (a32 >> 20)·2^52` and
        // `a84·2^84 = ((a84 mod 2^20)·2^32)·2^52 + (a84 >> 20)·2^104`, giving
        // `a0 < 2^63`, `a1 < 2^56` and `a2 < 2^35`. The value is `a0 + a1·2^52 + a2·2^104`;
        // with `h = a1 >> 12`: `a1·2^52 = (a1 << 52) + h·2^64`,
        // `h·2^64 ≡ (h mod 2^32)·ε − (h >> 32)` (as `2^64 ≡ ε`, `2^96 ≡ −1`) and
        // `a2·2^104 ≡ −a2·2^8`.
        unsafe {
            let eps = _mm512_set1_epi64(EPSILON as i64);
            let mask20 = _mm512_set1_epi64((1 << 20) - 1);
            let a0 = _mm512_add_epi64(
                self.a0,
                _mm512_slli_epi64::<32>(_mm512_and_si512(self.a32, mask20)),
            );
            let a1 = _mm512_add_epi64(
                _mm512_add_epi64(self.a52, _mm512_srli_epi64::<20>(self.a32)),
                _mm512_slli_epi64::<32>(_mm512_and_si512(self.a84, mask20)),
            );
            let a2 = _mm512_srli_epi64::<20>(self.a84);
            let x = _mm512_slli_epi64::<52>(a1);
            let s1 = _mm512_add_epi64(a0, x);
            let s1 = _mm512_mask_add_epi64(s1, _mm512_cmplt_epu64_mask(s1, x), s1, eps);
            let h = _mm512_srli_epi64::<12>(a1);
            let y = _mm512_mul_epu32(h, eps);
            // y ≤ (2^32 − 1)^2, so one correction keeps the sum below 2^64.
            let s2 = _mm512_add_epi64(s1, y);
            let s2 = _mm512_mask_add_epi64(s2, _mm512_cmplt_epu64_mask(s2, y), s2, eps);
            let z = _mm512_add_epi64(_mm512_srli_epi64::<32>(h), _mm512_slli_epi64::<8>(a2));
            // z < 2^44, so one borrow correction suffices.
            let d = _mm512_sub_epi64(s2, z);
            PackedGoldilocksAvx512(_mm512_mask_sub_epi64(
                d,
                _mm512_cmplt_epu64_mask(s2, z),
                d,
                eps,
            ))
        }
    }
}

impl PackedGoldilocksAvx512 {
    /// [`PackedGoldilocksAvx512::dot_small`] with 52-bit multiply-adds: each term is two
    /// fused multiply-adds of the lanes' 32-bit halves. Needs every constant below `2^20` (so
    /// that a half times a constant fits 52 bits) and their sum below `2^32`.
    #[inline(always)]
    pub fn dot_small_ifma(_cpu: Avx512Ifma, xs: &[Self], cs: &[u32]) -> Self {
        debug_assert!(cs.iter().all(|&c| c < 1 << 20));
        debug_assert!(cs.iter().map(|&c| c as u64).sum::<u64>() < 1 << 32);
        // SAFETY: `_cpu` proves AVX-512F and IFMA; accumulators stay below 2^64 as in
        // `dot_small`, and each product is below 2^52 so `madd52lo` adds it exactly.
        unsafe {
            let mut sum = SmallSumIfma::new();
            for (x, &c) in xs.iter().zip(cs) {
                sum.add(x.0, _mm512_set1_epi64(c as i64));
            }
            Self(sum.reduce())
        }
    }
}

/// A sum of products of lanes by small constants (below `2^20`, summing below `2^32`) with
/// 52-bit multiply-adds, unreduced: the lanes' 32-bit halves times the constant, in two
/// accumulators of weights `1` and `2^32`.
#[derive(Clone, Copy)]
pub(crate) struct SmallSumIfma {
    lo: __m512i,
    hi: __m512i,
}

impl SmallSumIfma {
    /// The empty sum.
    ///
    /// # Safety
    /// The CPU has AVX-512F and IFMA, as for every method.
    #[inline(always)]
    pub(crate) unsafe fn new() -> Self {
        // SAFETY: the caller's promise.
        unsafe {
            Self {
                lo: _mm512_setzero_si512(),
                hi: _mm512_setzero_si512(),
            }
        }
    }

    /// Adds `c·x` per lane, for `c` below `2^20` in every lane (so a half times `c` fits
    /// 52 bits); the constants of one sum add up to less than `2^32`.
    #[inline(always)]
    pub(crate) unsafe fn add(&mut self, x: __m512i, c: __m512i) {
        // SAFETY: the caller's promise.
        unsafe {
            let mask32 = _mm512_set1_epi64(u32::MAX as i64);
            self.lo = _mm512_madd52lo_epu64(self.lo, _mm512_and_si512(x, mask32), c);
            self.hi = _mm512_madd52lo_epu64(self.hi, _mm512_srli_epi64::<32>(x), c);
        }
    }

    /// The sum, reduced to one word per lane.
    #[inline(always)]
    pub(crate) unsafe fn reduce(self) -> __m512i {
        // SAFETY: the caller's promise; each accumulator is below `2^32·Σc < 2^64`.
        unsafe { reduce_lo_hi32_avx512(self.lo, self.hi) }
    }
}

impl PackedGoldilocksAvx2 {
    /// `Σ_j cs[j]·xs[j]` for small constants whose sum is below 2^32; see
    /// [`PackedGoldilocksAvx512::dot_small`].
    #[inline(always)]
    pub fn dot_small(xs: &[Self], cs: &[u32]) -> Self {
        debug_assert!(cs.iter().map(|&c| c as u64).sum::<u64>() < 1 << 32);
        // SAFETY: a value of this type exists only if AVX2 was detected; the accumulators stay
        // below 2^64 as in the AVX-512 version.
        unsafe {
            let mut lo = _mm256_setzero_si256();
            let mut hi = _mm256_setzero_si256();
            for (x, &c) in xs.iter().zip(cs) {
                let c = _mm256_set1_epi64x(c as i64);
                lo = _mm256_add_epi64(lo, _mm256_mul_epu32(x.0, c));
                hi = _mm256_add_epi64(hi, _mm256_mul_epu32(_mm256_srli_epi64::<32>(x.0), c));
            }
            let low = _mm256_add_epi64(lo, _mm256_slli_epi64::<32>(hi));
            // carry = (low < lo) as all-ones; subtracting it adds 1.
            let carry = lt_u64_avx2(low, lo);
            let high = _mm256_sub_epi64(_mm256_srli_epi64::<32>(hi), carry);
            Self(reduce128_avx2(high, low))
        }
    }
}

packed_ops!(
    PackedGoldilocksAvx512,
    add_avx512,
    sub_avx512,
    mul_avx512,
    square_avx512,
    neg_avx512,
    Avx512,
    {
        plain_constants!(Avx512);
        #[inline(always)]
        fn dot_constants(cpu: Avx512, xs: &[Self], cs: &[Goldilocks]) -> Self {
            let mut terms = xs.chunks(16).zip(cs.chunks(16));
            let Some((x, c)) = terms.next() else {
                return Self::broadcast(cpu, Goldilocks(0));
            };
            let mut acc = Self::dot_constants16(x, c);
            for (x, c) in terms {
                acc += Self::dot_constants16(x, c);
            }
            acc
        }
        #[inline(always)]
        fn dot_small_constants(_: Avx512, xs: &[Self], cs: &[u32]) -> Self {
            Self::dot_small(xs, cs)
        }
    }
);

// ------------------------------------------------------------------------------------------
// Packed kernels with run-time dispatch.
// ------------------------------------------------------------------------------------------

/// A dispatch of one kernel trait (`$kernel`, whose `run` takes the packing) to the packings:
/// with IFMA, [`PackedGoldilocksIfmaPair`] (16 lanes) or [`PackedGoldilocksIfma`] (8), whose
/// arithmetic is AVX-512F's and whose linear combinations are cheaper; else
/// [`PackedGoldilocksAvx512`] (8) or [`PackedGoldilocksAvx2`] (4); the scalar field at the end:
/// the widest the CPU offers with at most `max_lanes` lanes, each run from a function compiled
/// for its instructions. Private: it writes the two dispatchers below from one text.
macro_rules! dispatch {
    ($run:ident, $ifma:ident, $avx512:ident, $avx2:ident, $kernel:path) => {
        #[doc = concat!("Runs a [`", stringify!($kernel), "`] on the widest packing the CPU offers with at most `max_lanes` lanes.")]
        #[inline]
        pub(crate) fn $run<K: $kernel>(max_lanes: usize, kernel: K) -> K::Output {
            if let Some(cpu) = Avx512Ifma::detect() {
                if max_lanes >= PackedGoldilocksIfmaPair::WIDTH {
                    // SAFETY: the token proves AVX-512F and IFMA.
                    return unsafe { $ifma::<PackedGoldilocksIfmaPair, K>(cpu, kernel) };
                }
                if max_lanes >= PackedGoldilocksIfma::WIDTH {
                    // SAFETY: the token proves AVX-512F and IFMA.
                    return unsafe { $ifma::<PackedGoldilocksIfma, K>(cpu, kernel) };
                }
            }
            if max_lanes >= PackedGoldilocksAvx512::WIDTH {
                if let Some(cpu) = Avx512::detect() {
                    // SAFETY: the token proves AVX-512F.
                    return unsafe { $avx512(cpu, kernel) };
                }
            }
            if max_lanes >= PackedGoldilocksAvx2::WIDTH {
                if let Some(cpu) = Avx2::detect() {
                    // SAFETY: the token proves AVX2.
                    return unsafe { $avx2(cpu, kernel) };
                }
            }
            kernel.run::<Goldilocks>(())
        }

        /// # Safety
        /// The CPU must support AVX-512F and IFMA (the token proves it).
        #[target_feature(enable = "avx512f,avx512ifma")]
        unsafe fn $ifma<P, K>(cpu: Avx512Ifma, kernel: K) -> K::Output
        where
            P: PoseidonPacking<Scalar = Goldilocks, Cpu = Avx512Ifma>,
            K: $kernel,
        {
            kernel.run::<P>(cpu)
        }

        /// # Safety
        /// The CPU must support AVX-512F (the token proves it).
        #[target_feature(enable = "avx512f")]
        unsafe fn $avx512<K: $kernel>(cpu: Avx512, kernel: K) -> K::Output {
            kernel.run::<PackedGoldilocksAvx512>(cpu)
        }

        /// # Safety
        /// The CPU must support AVX2 (the token proves it).
        #[target_feature(enable = "avx2")]
        unsafe fn $avx2<K: $kernel>(cpu: Avx2, kernel: K) -> K::Output {
            kernel.run::<PackedGoldilocksAvx2>(cpu)
        }
    };
}

dispatch!(
    run_packed,
    run_kernel_ifma,
    run_kernel_avx512,
    run_kernel_avx2,
    PackedKernel<Goldilocks>
);
dispatch!(
    run_poseidon_packed,
    run_poseidon_ifma,
    run_poseidon_avx512,
    run_poseidon_avx2,
    PoseidonKernel<Goldilocks>
);

/// The lane counts [`run_packed`] can choose here, widest first.
pub(crate) fn packing_widths() -> Vec<usize> {
    let mut widths = Vec::new();
    if Avx512Ifma::detect().is_some() {
        widths.push(PackedGoldilocksIfmaPair::WIDTH);
    }
    if Avx512::detect().is_some() {
        widths.push(PackedGoldilocksAvx512::WIDTH);
    }
    if Avx2::detect().is_some() {
        widths.push(PackedGoldilocksAvx2::WIDTH);
    }
    widths.push(1);
    widths
}

// ------------------------------------------------------------------------------------------
// Slice kernels with run-time dispatch.
// ------------------------------------------------------------------------------------------

/// Whether some word is `≥ bound` (the canonical checks' scan), on AVX-512 or AVX2 vectors
/// where the CPU has them.
pub(crate) fn any_at_least(words: &[u64], bound: u64) -> bool {
    /// # Safety
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    unsafe fn avx512(words: &[u64], bound: u64) -> bool {
        crate::field::any_at_least_portable(words, bound)
    }
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn avx2(words: &[u64], bound: u64) -> bool {
        crate::field::any_at_least_portable(words, bound)
    }
    if Avx512::detect().is_some() {
        // SAFETY: AVX-512F was detected on this CPU.
        unsafe { avx512(words, bound) }
    } else if Avx2::detect().is_some() {
        // SAFETY: AVX2 was detected on this CPU.
        unsafe { avx2(words, bound) }
    } else {
        crate::field::any_at_least_portable(words, bound)
    }
}

/// Which instruction set the slice kernels use on this CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// 8 lanes.
    Avx512,
    /// 4 lanes.
    Avx2,
    /// Portable scalar code.
    Scalar,
}

/// The best backend available on this CPU.
pub fn backend() -> Backend {
    if Avx512::detect().is_some() {
        Backend::Avx512
    } else if Avx2::detect().is_some() {
        Backend::Avx2
    } else {
        Backend::Scalar
    }
}

impl Backend {
    /// The most lanes this backend uses: the bound [`run_packed`] chooses within.
    fn max_lanes(self) -> usize {
        match self {
            Backend::Avx512 => PackedGoldilocksAvx512::WIDTH,
            Backend::Avx2 => PackedGoldilocksAvx2::WIDTH,
            Backend::Scalar => 1,
        }
    }
}

/// A lane-wise binary operation, on any packing.
trait BinOp {
    fn apply<P: zkaccel_field::Algebra>(a: P, b: P) -> P;
}

macro_rules! bin_op {
    ($name:ident, $op:tt) => {
        struct $name;
        impl BinOp for $name {
            #[inline(always)]
            fn apply<P: zkaccel_field::Algebra>(a: P, b: P) -> P {
                a $op b
            }
        }
    };
}
bin_op!(MulOp, *);
bin_op!(AddOp, +);
bin_op!(SubOp, -);

/// `a[i] ← O(a[i], b[i])`, written once over the packings ([`run_packed`]); `a` and `b` have
/// equal lengths.
struct Zip<'a, O> {
    a: &'a mut [Goldilocks],
    b: &'a [Goldilocks],
    op: core::marker::PhantomData<O>,
}

impl<O: BinOp> PackedKernel<Goldilocks> for Zip<'_, O> {
    type Output = ();
    #[inline(always)]
    fn run<P: PackedField<Scalar = Goldilocks>>(self, cpu: P::Cpu) {
        let mut ca = self.a.chunks_exact_mut(P::WIDTH);
        let mut cb = self.b.chunks_exact(P::WIDTH);
        for (x, y) in (&mut ca).zip(&mut cb) {
            O::apply(P::from_slice(cpu, x), P::from_slice(cpu, y)).write_to_slice(x);
        }
        for (x, &y) in ca.into_remainder().iter_mut().zip(cb.remainder()) {
            *x = O::apply(*x, y);
        }
    }
}

/// `a[i] ← a[i] · w`, written once over the packings ([`run_packed`]).
struct Scale<'a> {
    a: &'a mut [Goldilocks],
    w: Goldilocks,
}

impl PackedKernel<Goldilocks> for Scale<'_> {
    type Output = ();
    #[inline(always)]
    fn run<P: PackedField<Scalar = Goldilocks>>(self, cpu: P::Cpu) {
        let pw = P::broadcast(cpu, self.w);
        let mut chunks = self.a.chunks_exact_mut(P::WIDTH);
        for x in &mut chunks {
            (P::from_slice(cpu, x) * pw).write_to_slice(x);
        }
        for x in chunks.into_remainder() {
            *x *= self.w;
        }
    }
}

fn run<O: BinOp>(backend: Backend, a: &mut [Goldilocks], b: &[Goldilocks]) {
    assert_eq!(a.len(), b.len(), "slices must have equal length");
    let op = core::marker::PhantomData::<O>;
    run_packed(backend.max_lanes(), Zip { a, b, op });
}

macro_rules! slice_kernel {
    ($(#[$doc:meta])* $name:ident, $with:ident, $op:ident) => {
        $(#[$doc])*
        ///
        /// # Panics
        /// Panics when the slices differ in length.
        pub fn $name(a: &mut [Goldilocks], b: &[Goldilocks]) {
            run::<$op>(Backend::Avx512, a, b)
        }

        /// The same kernel on a chosen backend, for tests and benches; a backend the CPU lacks
        /// falls back to the next narrower one.
        ///
        /// # Panics
        /// Panics when the slices differ in length.
        pub fn $with(backend: Backend, a: &mut [Goldilocks], b: &[Goldilocks]) {
            run::<$op>(backend, a, b)
        }
    };
}

slice_kernel!(
    /// `a[i] ← a[i] · b[i]`, on the widest SIMD the CPU has.
    mul_assign_slices, mul_assign_slices_with, MulOp
);
slice_kernel!(
    /// `a[i] ← a[i] + b[i]`, on the widest SIMD the CPU has.
    add_assign_slices, add_assign_slices_with, AddOp
);
slice_kernel!(
    /// `a[i] ← a[i] − b[i]`, on the widest SIMD the CPU has.
    sub_assign_slices, sub_assign_slices_with, SubOp
);

/// `a[i] ← a[i] · w`, on the widest SIMD the CPU has.
pub fn mul_assign_constant(a: &mut [Goldilocks], w: Goldilocks) {
    mul_assign_constant_with(Backend::Avx512, a, w)
}

/// [`mul_assign_constant`] on a chosen backend, for tests and benches; a backend the CPU
/// lacks falls back to the next narrower one.
pub fn mul_assign_constant_with(backend: Backend, a: &mut [Goldilocks], w: Goldilocks) {
    run_packed(backend.max_lanes(), Scale { a, w });
}

// ------------------------------------------------------------------------------------------
// 8-point butterfly blocks for NTTs (the stages whose pairs are closer than a register)
// ------------------------------------------------------------------------------------------

/// Transposes the 8×8 matrix of 64-bit words held row-wise in `r`.
#[inline(always)]
unsafe fn transpose8x8(r: [__m512i; 8]) -> [__m512i; 8] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        // Pairs of rows, one word at a time: [a0 b0 a2 b2 a4 b4 a6 b6], [a1 b1 a3 b3 …].
        let mut s = [_mm512_setzero_si512(); 8];
        for p in 0..4 {
            s[2 * p] = _mm512_unpacklo_epi64(r[2 * p], r[2 * p + 1]);
            s[2 * p + 1] = _mm512_unpackhi_epi64(r[2 * p], r[2 * p + 1]);
        }
        // Quads, two words at a time: [a0 b0 c0 d0 a4 b4 c4 d4], [a2 b2 c2 d2 a6 b6 c6 d6], …
        let lo2 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
        let hi2 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
        let mut q = [_mm512_setzero_si512(); 8];
        for half in 0..2 {
            for odd in 0..2 {
                let (x, y) = (s[4 * half + odd], s[4 * half + 2 + odd]);
                q[4 * half + odd] = _mm512_permutex2var_epi64(x, lo2, y);
                q[4 * half + 2 + odd] = _mm512_permutex2var_epi64(x, hi2, y);
            }
        }
        // Octets, four words at a time: column k of the input.
        let lo4 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
        let hi4 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
        let mut out = [_mm512_setzero_si512(); 8];
        // q[0] holds columns 0 (low) and 4 (high) of rows 0–3, q[4] of rows 4–7; q[1]: 1 and 5;
        // q[2]: 2 and 6; q[3]: 3 and 7.
        for c in 0..4 {
            out[c] = _mm512_permutex2var_epi64(q[c], lo4, q[4 + c]);
            out[c + 4] = _mm512_permutex2var_epi64(q[c], hi4, q[4 + c]);
        }
        out
    }
}

/// The last three DIF stages (half-sizes 4, 2, 1) on every block of eight consecutive
/// elements of `data` (`data.len()` a multiple of 64 uses AVX-512 throughout; the rest runs
/// scalar): `tw4 = [ω_8^j]_{j<4}` and `tw2 = [ω_4^j]_{j<2}` (or their inverses).
///
/// # Panics
/// When `tw4` or `tw2` are too short.
pub fn dif_last_three_stages(data: &mut [Goldilocks], tw4: &[Goldilocks], tw2: &[Goldilocks]) {
    small_blocks::<true, 8>(data, &[&tw2[..2], &tw4[..4]]);
}

/// The first three DIT stages (half-sizes 1, 2, 4) on every block of eight consecutive
/// elements (see [`dif_last_three_stages`]).
///
/// # Panics
/// When `tw4` or `tw2` are too short.
pub fn dit_first_three_stages(data: &mut [Goldilocks], tw4: &[Goldilocks], tw2: &[Goldilocks]) {
    small_blocks::<false, 8>(data, &[&tw2[..2], &tw4[..4]]);
}

/// The last four DIF stages (half-sizes 8, 4, 2, 1) on every block of sixteen consecutive
/// elements of `data` (`data.len()` a multiple of 128 uses AVX-512 throughout; the rest runs
/// scalar): `tw8 = [ω_16^j]_{j<8}`, `tw4` and `tw2` as in [`dif_last_three_stages`]. One
/// pass in place of a stage of half-size 8 and then the three-stage blocks: on AVX-512 eight
/// blocks are transposed at a time (8 × 8 tiles) so that each vector holds one position of
/// eight blocks, and every twiddle (a root of order up to 16, `±2^s`) is applied by shifts
/// ([`PowerTwiddle`]).
///
/// # Panics
/// When a table is too short.
pub fn dif_last_four_stages(
    data: &mut [Goldilocks],
    tw8: &[Goldilocks],
    tw4: &[Goldilocks],
    tw2: &[Goldilocks],
) {
    small_blocks::<true, 16>(data, &[&tw2[..2], &tw4[..4], &tw8[..8]]);
}

/// The first four DIT stages (half-sizes 1, 2, 4, 8) on every block of sixteen consecutive
/// elements (see [`dif_last_four_stages`]).
///
/// # Panics
/// When a table is too short.
pub fn dit_first_four_stages(
    data: &mut [Goldilocks],
    tw8: &[Goldilocks],
    tw4: &[Goldilocks],
    tw2: &[Goldilocks],
) {
    small_blocks::<false, 16>(data, &[&tw2[..2], &tw4[..4], &tw8[..8]]);
}

/// The `log2(N)` stages of half-sizes `N/2` down to 1 (DIF) or 1 up to `N/2` (DIT) on every
/// block of `N` (8 or 16) consecutive elements; `tw[l − 1]` holds the twiddles of half-size
/// `2^l` (half-size 1 has only the twiddle one). On AVX-512 eight blocks at a time are
/// transposed (8 × 8 tiles) so that each vector holds one position of eight blocks, the
/// stages run on whole vectors with broadcast twiddles, and the tiles go back. Every twiddle
/// of these stages is a root of order at most 16, `±2^s`, applied by shifts
/// ([`PowerTwiddle`]) rather than by products.
fn small_blocks<const DIF: bool, const N: usize>(data: &mut [Goldilocks], tw: &[&[Goldilocks]]) {
    debug_assert!((N == 8 && tw.len() == 2) || (N == 16 && tw.len() == 3));
    let whole = match Avx512::detect() {
        Some(cpu) => {
            let whole = data.len() / (8 * N) * (8 * N);
            // SAFETY: the token proves AVX-512F.
            unsafe { small_blocks_avx512::<DIF, N>(cpu, &mut data[..whole], tw) };
            whole
        }
        None => 0,
    };
    for block in data[whole..].chunks_exact_mut(N) {
        small_block_scalar::<DIF>(block, tw);
    }
}

/// The stages of [`small_blocks`] on one block, one element at a time (the reference).
fn small_block_scalar<const DIF: bool>(x: &mut [Goldilocks], tw: &[&[Goldilocks]]) {
    let n = x.len();
    let levels = n.trailing_zeros() as usize;
    for k in 0..levels {
        let l = if DIF { levels - 1 - k } else { k };
        let h = 1usize << l;
        for s in (0..n).step_by(2 * h) {
            for j in 0..h {
                let w = if j == 0 { Goldilocks(1) } else { tw[l - 1][j] };
                (x[s + j], x[s + j + h]) =
                    crate::butterflies::butterfly::<DIF>(x[s + j], x[s + j + h], w);
            }
        }
    }
}

/// A broadcast twiddle applied the cheapest way: by shifts where it is `±2^s`
/// ([`PowerTwiddle`]), else by a product.
#[derive(Clone, Copy)]
enum BlockTwiddle {
    Low(PackedPowerOfTwo<false>),
    High(PackedPowerOfTwo<true>),
    Product(PackedGoldilocksAvx512),
}

impl BlockTwiddle {
    #[inline(always)]
    fn of(cpu: Avx512, w: Goldilocks) -> Self {
        match PowerTwiddle::of(cpu, w) {
            Some(PowerTwiddle::Low(p)) => Self::Low(p),
            Some(PowerTwiddle::High(p)) => Self::High(p),
            None => Self::Product(PackedGoldilocksAvx512::broadcast(cpu, w)),
        }
    }

    /// The DIF (`DIF`) or DIT butterfly of `x` and `y` with this twiddle.
    #[inline(always)]
    fn butterfly<const DIF: bool>(
        self,
        x: PackedGoldilocksAvx512,
        y: PackedGoldilocksAvx512,
    ) -> (PackedGoldilocksAvx512, PackedGoldilocksAvx512) {
        match (self, DIF) {
            (Self::Low(p), true) => p.dif_butterfly(x, y),
            (Self::Low(p), false) => p.dit_butterfly(x, y),
            (Self::High(p), true) => p.dif_butterfly(x, y),
            (Self::High(p), false) => p.dit_butterfly(x, y),
            (Self::Product(w), true) => PackedGoldilocksAvx512::dif_butterfly(x, y, w),
            (Self::Product(w), false) => PackedGoldilocksAvx512::dit_butterfly(x, y, w),
        }
    }
}

#[target_feature(enable = "avx512f")]
fn small_blocks_avx512<const DIF: bool, const N: usize>(
    cpu: Avx512,
    data: &mut [Goldilocks],
    tw: &[&[Goldilocks]],
) {
    // (Loops, not closures: closures would not inherit this function's target features.)
    let levels = N.trailing_zeros() as usize;
    let zero = PackedGoldilocksAvx512::broadcast(cpu, Goldilocks(0));
    // `w[l][j]`: the twiddle of offset `j` at half-size `2^l` (`j = 0` takes none).
    let mut w = [[BlockTwiddle::Product(zero); 8]; 4];
    for l in 1..levels {
        for j in 1..1usize << l {
            w[l][j] = BlockTwiddle::of(cpu, tw[l - 1][j]);
        }
    }
    for tile in data.chunks_exact_mut(8 * N) {
        // SAFETY: AVX-512F is present (the token); the tile is eight blocks of `N` words,
        // read and written as `N/8` vectors per block.
        unsafe {
            let p = tile.as_mut_ptr().cast::<__m512i>();
            let mut x = [zero; N];
            for q in 0..N / 8 {
                let mut rows = [_mm512_setzero_si512(); 8];
                for (b, row) in rows.iter_mut().enumerate() {
                    *row = _mm512_loadu_si512(p.add(b * N / 8 + q).cast());
                }
                for (e, c) in transpose8x8(rows).into_iter().enumerate() {
                    x[8 * q + e] = PackedGoldilocksAvx512(c);
                }
            }
            for k in 0..levels {
                let l = if DIF { levels - 1 - k } else { k };
                let h = 1usize << l;
                let mut s = 0;
                while s < N {
                    for j in 0..h {
                        let (a, b) = (x[s + j], x[s + j + h]);
                        (x[s + j], x[s + j + h]) = if j == 0 {
                            PackedGoldilocksAvx512::add_sub(a, b)
                        } else {
                            w[l][j].butterfly::<DIF>(a, b)
                        };
                    }
                    s += 2 * h;
                }
            }
            for q in 0..N / 8 {
                let mut rows = [_mm512_setzero_si512(); 8];
                for (e, row) in rows.iter_mut().enumerate() {
                    *row = x[8 * q + e].0;
                }
                for (b, v) in transpose8x8(rows).into_iter().enumerate() {
                    _mm512_storeu_si512(p.add(b * N / 8 + q).cast(), v);
                }
            }
        }
    }
}

mod ifma;
mod state12;
pub use ifma::{PackedGoldilocksIfma, PackedGoldilocksIfmaPair};
pub use state12::{Goldilocks12Ifma, SmallCirculant12, SplitConstants12};

#[cfg(test)]
mod tests {
    use super::*;
    use PackedGoldilocksAvx512 as P512;

    /// Words where a single correction could go wrong: non-canonical words up to `2^64 − 1`.
    const EDGE_WORDS: [u64; 8] = [
        0,
        1,
        ORDER - 1,
        ORDER,
        ORDER + 1,
        u64::MAX,
        1 << 63,
        (1 << 32) - 1,
    ];

    /// The AVX-512 butterflies that bring one operand below `p` once (`dit_butterfly`,
    /// `dif_butterfly`, `add_sub`) against the field's operators, on the words where a single
    /// correction could go wrong: non-canonical words up to `2^64 − 1` in either operand.
    #[test]
    fn avx512_butterflies_match_the_operators_on_edge_words() {
        use rand::{RngCore, SeedableRng};
        use P512 as P;
        let Some(cpu) = Avx512::detect() else {
            eprintln!("no AVX-512F here (or ZKACCEL_SIMD=off): nothing to check");
            return;
        };
        let edges = EDGE_WORDS;
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let word = |rng: &mut rand::rngs::StdRng, i: usize| -> u64 {
            if i < edges.len() {
                edges[i]
            } else {
                rng.next_u64()
            }
        };
        for round in 0..200 {
            let x: [u64; 8] = core::array::from_fn(|l| word(&mut rng, (round + l) % 16));
            let y: [u64; 8] = core::array::from_fn(|l| word(&mut rng, (round / 2 + 3 * l) % 16));
            let w: [u64; 8] = core::array::from_fn(|l| word(&mut rng, (round / 3 + 5 * l) % 16));
            // Non-canonical words are what the type may hold; the operators accept them.
            let g = |v: [u64; 8]| v.map(Goldilocks);
            let (xs, ys, ws) = (g(x), g(y), g(w));
            let (px, py, pw) = (
                P::from_array(cpu, xs),
                P::from_array(cpu, ys),
                P::from_array(cpu, ws),
            );
            let canon = |v: P| v.to_array().map(|e| e.as_canonical_u64());
            let lanes = |f: &dyn Fn(usize) -> Goldilocks| -> [u64; 8] {
                core::array::from_fn(|l| f(l).as_canonical_u64())
            };
            let (a, b) = P::dit_butterfly(px, py, pw);
            assert_eq!(
                canon(a),
                lanes(&|l| xs[l] + ys[l] * ws[l]),
                "dit sum {x:?} {y:?} {w:?}"
            );
            assert_eq!(
                canon(b),
                lanes(&|l| xs[l] - ys[l] * ws[l]),
                "dit difference"
            );
            let (a, b) = P::dif_butterfly(px, py, pw);
            assert_eq!(canon(a), lanes(&|l| xs[l] + ys[l]), "dif sum {x:?} {y:?}");
            assert_eq!(canon(b), lanes(&|l| (xs[l] - ys[l]) * ws[l]), "dif product");
            let (a, b) = P::add_sub(px, py);
            assert_eq!(canon(a), lanes(&|l| xs[l] + ys[l]), "sum {x:?} {y:?}");
            assert_eq!(canon(b), lanes(&|l| xs[l] - ys[l]), "difference");
        }
    }

    /// The shift butterflies of every twiddle `±2^s` (`s < 192`) against the field's operators
    /// on the same edge words, and `PowerTwiddle::of` refusing what is no such power.
    #[test]
    fn power_of_two_butterflies_match_the_operators_on_edge_words() {
        use crate::field::ORDER;
        use rand::{RngCore, SeedableRng};
        use zkaccel_field::Field;
        use P512 as P;
        let Some(cpu) = Avx512::detect() else {
            eprintln!("no AVX-512F here (or ZKACCEL_SIMD=off): nothing to check");
            return;
        };
        let edges = EDGE_WORDS;
        let mut rng = rand::rngs::StdRng::seed_from_u64(12);
        let canon = |v: P| v.to_array().map(|e| e.as_canonical_u64());
        let two = Goldilocks::new_reduced(2);
        let (mut low, mut high) = (0, 0);
        for k in 0..192u64 {
            let w = two.exp_u64(k);
            let kind = PowerTwiddle::of(cpu, w);
            for round in 0..4 {
                let word = |rng: &mut rand::rngs::StdRng, l: usize| {
                    let i = (round * 8 + l) % 16;
                    Goldilocks(if i < edges.len() {
                        edges[i]
                    } else {
                        rng.next_u64()
                    })
                };
                let xs: [Goldilocks; 8] = core::array::from_fn(|l| word(&mut rng, l));
                let ys: [Goldilocks; 8] = core::array::from_fn(|l| word(&mut rng, 7 - l));
                let (px, py) = (P::from_array(cpu, xs), P::from_array(cpu, ys));
                let lanes = |f: &dyn Fn(usize) -> Goldilocks| -> [u64; 8] {
                    core::array::from_fn(|l| f(l).as_canonical_u64())
                };
                let ((a, b), (c, d)) = match kind {
                    Some(PowerTwiddle::Low(t)) => {
                        (t.dit_butterfly(px, py), t.dif_butterfly(px, py))
                    }
                    Some(PowerTwiddle::High(t)) => {
                        (t.dit_butterfly(px, py), t.dif_butterfly(px, py))
                    }
                    None => {
                        assert_eq!(k, 0, "2^{k} is a power");
                        break;
                    }
                };
                assert_eq!(canon(a), lanes(&|l| xs[l] + ys[l] * w), "dit sum, 2^{k}");
                assert_eq!(
                    canon(b),
                    lanes(&|l| xs[l] - ys[l] * w),
                    "dit difference, 2^{k}"
                );
                assert_eq!(canon(c), lanes(&|l| xs[l] + ys[l]), "dif sum, 2^{k}");
                assert_eq!(
                    canon(d),
                    lanes(&|l| (xs[l] - ys[l]) * w),
                    "dif product, 2^{k}"
                );
            }
            match kind {
                Some(PowerTwiddle::Low(_)) => low += 1,
                Some(PowerTwiddle::High(_)) => high += 1,
                None => {}
            }
        }
        // s = k mod 96 below 64 (less one, k = 0) or not, each with both signs.
        assert_eq!((low, high), (127, 64), "the kinds of the 191 powers");
        // One and elements near the powers keep the product.
        for w in [
            Goldilocks::ONE,
            Goldilocks::new_reduced(3),
            Goldilocks::new_reduced(0x1_ffff_ffff),
            Goldilocks::new_reduced(0xffff_fffe),
            Goldilocks::new_reduced(ORDER - 3),
        ] {
            assert!(PowerTwiddle::of(cpu, w).is_none(), "{w} is no shift");
        }
    }
}
