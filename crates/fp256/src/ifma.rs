//! Eight Montgomery products at once with AVX-512 IFMA (`vpmadd52luq`/`vpmadd52huq`).
//!
//! Each 512-bit register holds the same limb of eight independent elements. The operands are
//! re-expressed in radix `2^52` (five limbs), where IFMA multiplies 52×52 bits and adds either
//! half of the 104-bit product to a 64-bit accumulator. The Montgomery reduction runs in that
//! radix too, five word-steps of 52 bits, i.e. with `R' = 2^260` instead of `R = 2^256`.
//!
//! To keep the result in the crate's Montgomery form (`x·2^256`), the second operand is shifted
//! left by four bits first: `(a·2^256)·(16·b·2^256)·2^-260 = (ab)·2^256`. `16b < 16p < 2^259`
//! is fine unreduced: the accumulator stays below `p·(16p/2^260 + 1) < 2p`, so one conditional
//! subtraction finishes. Accumulators never exceed `5·2^54 < 2^64`, so no IFMA sum overflows.

use core::arch::x86_64::*;

use zkaccel_field::modmul::U256;
use zkaccel_field::radix52::{mont_mul52, normalise, reduce_below_2p, MASK52};

/// Splits a 256-bit value (four 64-bit limbs, one register per limb) into five 52-bit limbs.
#[inline(always)]
unsafe fn to_radix52(x: [__m512i; 4]) -> [__m512i; 5] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let m = _mm512_set1_epi64(MASK52 as i64);
        [
            _mm512_and_si512(x[0], m),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<52>(x[0]), _mm512_slli_epi64::<12>(x[1])),
                m,
            ),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<40>(x[1]), _mm512_slli_epi64::<24>(x[2])),
                m,
            ),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<28>(x[2]), _mm512_slli_epi64::<36>(x[3])),
                m,
            ),
            _mm512_srli_epi64::<16>(x[3]),
        ]
    }
}

/// `16·x` in radix 2^52 for `x < 2^255` (the top limb of `x` is below 2^47).
#[inline(always)]
unsafe fn times16_radix52(y: [__m512i; 5]) -> [__m512i; 5] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let m = _mm512_set1_epi64(MASK52 as i64);
        // (No closures here: they would not inherit the caller's target features.)
        let mut out = [_mm512_and_si512(_mm512_slli_epi64::<4>(y[0]), m); 5];
        for j in 1..4 {
            out[j] = _mm512_or_si512(
                _mm512_and_si512(_mm512_slli_epi64::<4>(y[j]), m),
                _mm512_srli_epi64::<48>(y[j - 1]),
            );
        }
        out[4] = _mm512_or_si512(_mm512_slli_epi64::<4>(y[4]), _mm512_srli_epi64::<48>(y[3]));
        out
    }
}

/// Joins five normalised 52-bit limbs (value below 2^256) into four 64-bit limbs.
#[inline(always)]
unsafe fn from_radix52(y: [__m512i; 5]) -> [__m512i; 4] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        [
            _mm512_or_si512(y[0], _mm512_slli_epi64::<52>(y[1])),
            _mm512_or_si512(_mm512_srli_epi64::<12>(y[1]), _mm512_slli_epi64::<40>(y[2])),
            _mm512_or_si512(_mm512_srli_epi64::<24>(y[2]), _mm512_slli_epi64::<28>(y[3])),
            _mm512_or_si512(_mm512_srli_epi64::<36>(y[3]), _mm512_slli_epi64::<16>(y[4])),
        ]
    }
}

/// Loads eight consecutive 4-limb elements and transposes them: register `k` holds limb `k` of
/// the eight elements. Plain loads and in-register permutes (no gathers).
#[inline(always)]
unsafe fn load_transposed(words: *const i64) -> [__m512i; 4] {
    // SAFETY: the caller runs on an AVX-512F CPU and `words` points at 32 readable words.
    unsafe {
        // (No closures here: they would not inherit the caller's target features.)
        let z0 = _mm512_loadu_si512(words.cast());
        let z1 = _mm512_loadu_si512(words.add(8).cast());
        let z2 = _mm512_loadu_si512(words.add(16).cast());
        let z3 = _mm512_loadu_si512(words.add(24).cast());
        let mut out = [z0; 4];
        for (k, o) in out.iter_mut().enumerate() {
            let k = k as i64;
            // Lanes 0..3 from elements 0..3 (z0, z1), lanes 4..7 from elements 4..7 (z2, z3).
            let idx = _mm512_setr_epi64(k, 4 + k, 8 + k, 12 + k, k, 4 + k, 8 + k, 12 + k);
            let lo = _mm512_permutex2var_epi64(z0, idx, z1);
            let hi = _mm512_permutex2var_epi64(z2, idx, z3);
            *o = _mm512_mask_blend_epi64(0xF0, lo, hi);
        }
        out
    }
}

/// The inverse of [`load_transposed`]: stores limb registers as eight consecutive elements.
#[inline(always)]
unsafe fn store_transposed(words: *mut i64, l: [__m512i; 4]) {
    // SAFETY: the caller runs on an AVX-512F CPU and `words` points at 32 writable words.
    unsafe {
        let lo_pairs = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
        let hi_pairs = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
        // [l0[0], l1[0], l0[1], l1[1], …] for lanes 0..3 (a) and 4..7 (b).
        let a01 = _mm512_permutex2var_epi64(l[0], lo_pairs, l[1]);
        let b01 = _mm512_permutex2var_epi64(l[0], hi_pairs, l[1]);
        let a23 = _mm512_permutex2var_epi64(l[2], lo_pairs, l[3]);
        let b23 = _mm512_permutex2var_epi64(l[2], hi_pairs, l[3]);
        let first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
        let second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
        let out = [
            _mm512_permutex2var_epi64(a01, first, a23),
            _mm512_permutex2var_epi64(a01, second, a23),
            _mm512_permutex2var_epi64(b01, first, b23),
            _mm512_permutex2var_epi64(b01, second, b23),
        ];
        for (m, v) in out.into_iter().enumerate() {
            _mm512_storeu_si512(words.add(8 * m).cast(), v);
        }
    }
}

/// Eight lanes of `a²·2^-260 mod p` in radix 2^52, for canonical `a` (limbs below 2^52): the
/// square first, each off-diagonal product `a_i·a_j` once and the column sums doubled (15
/// products instead of 25; IFMA reads only 52 bits of a multiplicand, so the doubling is on
/// the sums, not on `a_i`), then five Montgomery word-steps. Column sums stay below
/// `2·4·2^52 + 2·2^52 + 10·2^52 + carries < 2^57` (no IFMA sum overflows); the result
/// `(a² + m·p)/2^260 < p²/2^260 + p < 2p` is reduced once, as in [`mont_mul52`].
#[inline(always)]
unsafe fn mont_square52(a: [__m512i; 5], p: &[__m512i; 5], inv52: __m512i) -> [__m512i; 5] {
    // SAFETY: the caller runs on a CPU with AVX-512F and AVX-512 IFMA.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut t = [zero; 10];
        for i in 0..5 {
            for j in i + 1..5 {
                t[i + j] = _mm512_madd52lo_epu64(t[i + j], a[i], a[j]);
                t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a[i], a[j]);
            }
        }
        // Off-diagonal products reach columns 1 to 8.
        for c in t.iter_mut().take(9).skip(1) {
            *c = _mm512_slli_epi64::<1>(*c);
        }
        for i in 0..5 {
            t[2 * i] = _mm512_madd52lo_epu64(t[2 * i], a[i], a[i]);
            t[2 * i + 1] = _mm512_madd52hi_epu64(t[2 * i + 1], a[i], a[i]);
        }
        for i in 0..5 {
            let m = _mm512_madd52lo_epu64(zero, t[i], inv52);
            for j in 0..5 {
                t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, p[j]);
                t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, p[j]);
            }
            // t[i] ≡ 0 (mod 2^52): carry its top bits into the next column.
            t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64::<52>(t[i]));
        }
        reduce_below_2p(normalise([t[5], t[6], t[7], t[8], t[9]]), p)
    }
}

/// `a[i] ← a[i]·b[i]·2^-256 mod p` for eight consecutive Montgomery-form elements.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA; `a` and `b` must hold exactly eight elements.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn mont_mul_assign_8(a: &mut [U256], b: &[U256], p: &U256, inv: u64) {
    debug_assert!(a.len() == 8 && b.len() == 8);
    // SAFETY: the caller guarantees the features; `a` and `b` hold eight 4-word elements, the
    // 32 words the transposing loads and store touch.
    unsafe {
        let pa = a.as_mut_ptr().cast::<i64>();
        let pb = b.as_ptr().cast::<i64>();
        let p4 = [
            _mm512_set1_epi64(p[0] as i64),
            _mm512_set1_epi64(p[1] as i64),
            _mm512_set1_epi64(p[2] as i64),
            _mm512_set1_epi64(p[3] as i64),
        ];
        let p52 = to_radix52(p4);
        let inv52 = _mm512_set1_epi64((inv & MASK52) as i64);
        let x = to_radix52(load_transposed(pa));
        let y = times16_radix52(to_radix52(load_transposed(pb)));
        store_transposed(pa, from_radix52(mont_mul52(x, y, &p52, inv52)));
    }
}

// ------------------------------------------------------------------------------------------
// A packed type for kernels that stay in radix 2^52 across many operations (MiMC, Poseidon).
// ------------------------------------------------------------------------------------------

use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use zkaccel_field::Field;

use crate::{Fp256, Fp256Config};

/// Proof that the running CPU has AVX-512F and AVX-512 IFMA. Obtain it with [`Ifma::detect`].
#[derive(Debug, Clone, Copy)]
pub struct Ifma(());

impl Ifma {
    /// `Some` when the CPU supports AVX-512F and AVX-512 IFMA.
    #[inline]
    pub fn detect() -> Option<Self> {
        zkaccel_field::cpu::Avx512Ifma::detect().map(|_| Self(()))
    }
}

/// Eight elements of a 256-bit field, in radix `2^52` (five limbs, one register per limb) and in
/// Montgomery form with `R' = 2^260`.
///
/// Values are converted once on entry and exit ([`PackedFp256Ifma::from_elements`],
/// [`PackedFp256Ifma::to_elements`]), so kernels that chain many operations pay the conversion
/// once. Every lane is always canonical (below `p`, limbs below `2^52`).
///
/// A value can only be built with an [`Ifma`] token, so the intrinsics inside its operators
/// always run on a CPU that has them; kernels should still be compiled with
/// `#[target_feature(enable = "avx512f,avx512ifma")]` so that the operators inline.
pub struct PackedFp256Ifma<C> {
    limbs: [__m512i; 5],
    _field: PhantomData<C>,
}

/// A field element prepared for [`PackedFp256Ifma::broadcast_prepared`].
#[derive(Debug)]
pub struct PreparedFp256<C> {
    limbs: [u64; 5],
    _field: PhantomData<C>,
}

copy_for_every_config!(PreparedFp256);

copy_for_every_config!(PackedFp256Ifma);

impl<C: Fp256Config> PackedFp256Ifma<C> {
    /// Number of lanes.
    pub const WIDTH: usize = 8;

    /// `2^264 mod p`: multiplying by it in radix-52 Montgomery moves `x·2^256` to `x·2^260`.
    const TO_R260: U256 = C::MONT.mul(&C::MONT.r2, &[256, 0, 0, 0]);

    #[inline(always)]
    fn from_limbs(limbs: [__m512i; 5]) -> Self {
        Self {
            limbs,
            _field: PhantomData,
        }
    }

    #[inline(always)]
    unsafe fn broadcast_u256(v: &U256) -> [__m512i; 5] {
        // SAFETY: the caller runs on an AVX-512F CPU.
        unsafe {
            to_radix52([
                _mm512_set1_epi64(v[0] as i64),
                _mm512_set1_epi64(v[1] as i64),
                _mm512_set1_epi64(v[2] as i64),
                _mm512_set1_epi64(v[3] as i64),
            ])
        }
    }

    #[inline(always)]
    unsafe fn modulus52() -> [__m512i; 5] {
        // SAFETY: the caller runs on an AVX-512F CPU.
        unsafe { Self::broadcast_u256(&C::MODULUS) }
    }

    #[inline(always)]
    unsafe fn inv52() -> __m512i {
        // SAFETY: the caller runs on an AVX-512F CPU.
        unsafe { _mm512_set1_epi64((C::MONT.inv & MASK52) as i64) }
    }

    /// Loads eight elements.
    #[inline(always)]
    pub fn from_elements(_cpu: Ifma, x: &[Fp256<C>; 8]) -> Self {
        // SAFETY: `_cpu` proves AVX-512F and IFMA; `x` is 32 words (`Fp256` is
        // `repr(transparent)` over `[u64; 4]`).
        unsafe {
            let raw = to_radix52(load_transposed(x.as_ptr().cast::<i64>()));
            let c = Self::broadcast_u256(&Self::TO_R260);
            Self::from_limbs(mont_mul52(raw, c, &Self::modulus52(), Self::inv52()))
        }
    }

    /// The same element in every lane.
    #[inline(always)]
    pub fn broadcast(cpu: Ifma, x: Fp256<C>) -> Self {
        Self::from_elements(cpu, &[x; 8])
    }

    /// A constant in the packed representation (`x·2^260 mod p` in five 52-bit limbs), for
    /// kernels that broadcast the same constants many times: [`PackedFp256Ifma::broadcast_prepared`]
    /// is then five register broadcasts instead of a conversion.
    pub fn prepare(x: Fp256<C>) -> PreparedFp256<C> {
        // x·16 has Montgomery word (16x)·2^256 = x·2^260 mod p.
        let w = (x * Fp256::<C>::from_u64_reduced(16)).0;
        PreparedFp256 {
            limbs: [
                w[0] & MASK52,
                ((w[0] >> 52) | (w[1] << 12)) & MASK52,
                ((w[1] >> 40) | (w[2] << 24)) & MASK52,
                ((w[2] >> 28) | (w[3] << 36)) & MASK52,
                w[3] >> 16,
            ],
            _field: PhantomData,
        }
    }

    /// The prepared constant in every lane.
    #[inline(always)]
    pub fn broadcast_prepared(_cpu: Ifma, c: &PreparedFp256<C>) -> Self {
        // SAFETY: `_cpu` proves AVX-512F.
        unsafe { Self::from_limbs(c.limbs.map(|l| _mm512_set1_epi64(l as i64))) }
    }

    /// `self²` on the squaring kernel (15 lane products before the reduction instead of the
    /// product's 25): [`zkaccel_field::Algebra::square`].
    #[inline(always)]
    pub(crate) fn square_lanes(&self) -> Self {
        // SAFETY: a value of this type exists only if AVX-512F and IFMA were detected.
        unsafe { Self::from_limbs(mont_square52(self.limbs, &Self::modulus52(), Self::inv52())) }
    }

    /// Stores the eight lanes.
    #[inline(always)]
    pub fn to_elements(self) -> [Fp256<C>; 8] {
        let mut out = [Fp256::<C>::from_mont([0; 4]); 8];
        // SAFETY: a value of this type exists only if the features were detected; `out` is 32
        // words.
        unsafe {
            let c = Self::broadcast_u256(&C::MONT.r);
            let r = from_radix52(mont_mul52(self.limbs, c, &Self::modulus52(), Self::inv52()));
            store_transposed(out.as_mut_ptr().cast::<i64>(), r);
        }
        out
    }
}

impl<C: Fp256Config> Add for PackedFp256Ifma<C> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: a value of this type exists only if AVX-512F and IFMA were detected.
        unsafe {
            let mut s = self.limbs;
            for (x, y) in s.iter_mut().zip(rhs.limbs) {
                *x = _mm512_add_epi64(*x, y);
            }
            Self::from_limbs(reduce_below_2p(normalise(s), &Self::modulus52()))
        }
    }
}

impl<C: Fp256Config> Neg for PackedFp256Ifma<C> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        // SAFETY: a value of this type exists only if AVX-512F and IFMA were detected.
        unsafe {
            // p − x in [1, p] (p itself for x = 0, which the reduction maps to 0).
            let p = Self::modulus52();
            let zero = _mm512_setzero_si512();
            let m52 = _mm512_set1_epi64(MASK52 as i64);
            let mut d = [zero; 5];
            let mut borrow = zero;
            for j in 0..5 {
                let v = _mm512_add_epi64(_mm512_sub_epi64(p[j], self.limbs[j]), borrow);
                borrow = _mm512_srai_epi64::<52>(v);
                d[j] = if j < 4 { _mm512_and_si512(v, m52) } else { v };
            }
            Self::from_limbs(reduce_below_2p(d, &p))
        }
    }
}

impl<C: Fp256Config> Mul for PackedFp256Ifma<C> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: a value of this type exists only if AVX-512F and IFMA were detected.
        unsafe {
            Self::from_limbs(mont_mul52(
                self.limbs,
                rhs.limbs,
                &Self::modulus52(),
                Self::inv52(),
            ))
        }
    }
}

packed_fp256_common!(PackedFp256Ifma, Ifma, 8, "AVX-512 IFMA", {
    type Constant = PreparedFp256<C>;
    #[inline(always)]
    fn prepare_constant(_: Ifma, c: Fp256<C>) -> PreparedFp256<C> {
        Self::prepare(c)
    }
    #[inline(always)]
    fn broadcast_constant(cpu: Ifma, c: &PreparedFp256<C>) -> Self {
        Self::broadcast_prepared(cpu, c)
    }
    /// The product: the squaring kernel (15 lane products instead of 25, but its column sums
    /// are chains of up to four multiply-adds before the reduction starts) made neptune's
    /// permutations slower, where MiMC's batches, one chain per lane, gain from it (`PERF.md`,
    /// "The IFMA kernels").
    #[inline(always)]
    fn square_for_throughput(&self) -> Self {
        *self * *self
    }
});
