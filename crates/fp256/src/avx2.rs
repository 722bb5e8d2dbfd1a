//! Four Montgomery products at once with AVX2 (`vpmuludq`), for CPUs without AVX-512 IFMA.
//!
//! Each 256-bit register holds the same limb of four independent elements. Elements are kept
//! in radix `2^29` (nine limbs, 261 bits), where `vpmuludq` multiplies the low 32 bits of each
//! 64-bit lane into a 64-bit product: a limb product is below `2^58`, so a limb can take the at
//! most eighteen products a Montgomery product adds to it (`18·2^58 < 2^63`) and its carries
//! without a carry chain. The reduction runs in the same radix, nine word-steps of 29 bits,
//! i.e. with `R' = 2^261`; values are moved from the crate's `x·2^256` to `x·2^261` on entry
//! and back on exit.
//!
//! [`LazyPackedFp256Avx2`] keeps lanes lazily reduced for long chains: products skip their final
//! subtraction, squarings run a 45-product kernel, and additions of canonical values decide
//! from one limb whether to subtract `p`.
//!
//! The kernels' operands are read from memory, so the operations take them by reference
//! ([`SboxArithmetic`]): copies of by-value operands become `memcpy` calls (`PERF.md`, "The
//! AVX2 kernels").

use core::arch::x86_64::*;
use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

pub use zkaccel_field::cpu::Avx2;
use zkaccel_field::modmul::U256;
use zkaccel_symmetric::sbox::{pow_sbox_with, SboxArithmetic};

use crate::{Fp256, Fp256Config};

/// Bits per limb.
const RADIX_BITS: usize = 29;
/// Limbs per element: `9·29 = 261 ≥ 256`.
pub(crate) const LIMBS: usize = 9;
const MASK29: u64 = (1 << RADIX_BITS) - 1;

/// `_mm256_srl_epi64`/`_mm256_sll_epi64` shift counts.
#[inline(always)]
unsafe fn count(bits: usize) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_cvtsi64_si128(bits as i64) }
}

/// One field's constants in radix `2^29`, each broadcast to the four lanes and laid out for the
/// assembly of [`mont_steps29_asm`]: `p`'s nine limbs, `−p^{-1} mod 2^29` and the 29-bit mask
/// (at byte offsets 0, 288 and 320), then the factors that move values into and out of the
/// `x·2^261` form, and for the scalar lanes of [`crate::LazyHybridFp256`] the modulus and
/// `−p^{-1} mod 2^64` in words. Built at compile time and read from memory, so no product
/// rebuilds them.
#[repr(C)]
pub(crate) struct Radix29Constants {
    p: Broadcast29,
    inv: Broadcast,
    mask: Broadcast,
    /// `2^266 mod p`: a product by it moves `x·2^256` to `x·2^261`.
    entry_factor: Broadcast29,
    /// `2^256 mod p`: a product by it moves `x·2^261` to `x·2^256`.
    exit_factor: Broadcast29,
    /// `2^261 mod p`: a product by it reduces a lazy value below `2p`.
    one: Broadcast29,
    /// `2^261 − p`, so that adding it and taking `2^261` from the top limb subtracts `p`.
    minus_p: Broadcast29,
    /// `⌊p/2^232⌋ + 1`: a normalised value whose top limb exceeds it is above `p + 2^232`.
    top_threshold: Broadcast,
    /// `p` in four words, for the hybrid kernels' scalar lanes.
    modulus: U256,
    /// `−p^{-1} mod 2^64`, for the hybrid kernels' scalar lanes.
    mont_inv: u64,
    /// `⌊2p/2^232⌋`: a normalised value whose top limb exceeds it is above `2p`.
    two_p_top: Broadcast,
}

impl Radix29Constants {
    const fn new<C: Fp256Config>() -> Self {
        Self {
            p: broadcast29(&C::MODULUS),
            inv: Broadcast([C::MONT.inv & MASK29; 4]),
            mask: Broadcast([MASK29; 4]),
            entry_factor: broadcast29(&C::MONT.mul(&C::MONT.r2, &[1 << 10, 0, 0, 0])),
            exit_factor: broadcast29(&C::MONT.r),
            one: broadcast29(&C::MONT.mul(&C::MONT.r2, &[1 << 5, 0, 0, 0])),
            minus_p: radix29_complement(broadcast29(&C::MODULUS)),
            top_threshold: Broadcast([(C::MODULUS[3] >> (RADIX_BITS * (LIMBS - 1) - 192)) + 1; 4]),
            modulus: C::MODULUS,
            mont_inv: C::MONT.inv,
            // 2p/2^232 = p/2^231, taken from the top word (p < 2^254: the quotient < 2^23).
            two_p_top: Broadcast([C::MODULUS[3] >> (RADIX_BITS * (LIMBS - 1) - 1 - 192); 4]),
        }
    }
}

// The assembly reads `inv` and `mask` at these offsets, the hybrid kernels `modulus` and
// `mont_inv` at these (`tools/gen_avx2_asm.py`).
const _: () = assert!(
    core::mem::offset_of!(Radix29Constants, inv) == 32 * LIMBS
        && core::mem::offset_of!(Radix29Constants, mask) == 32 * (LIMBS + 1)
        && core::mem::offset_of!(Radix29Constants, modulus) == 1536
        && core::mem::offset_of!(Radix29Constants, mont_inv) == 1568
);

/// One 64-bit word in each of four lanes, aligned as a register.
#[repr(C, align(32))]
struct Broadcast([u64; 4]);

impl Broadcast {
    /// The register.
    #[inline(always)]
    fn register(&self) -> __m256i {
        // SAFETY: `[u64; 4]` and `__m256i` have the same size and no invalid bit patterns;
        // the type's alignment is the register's.
        unsafe { *core::ptr::from_ref(&self.0).cast::<__m256i>() }
    }
}

/// Nine broadcast limbs, aligned as registers.
#[repr(C, align(32))]
struct Broadcast29([[u64; 4]; LIMBS]);

impl Broadcast29 {
    /// The nine registers.
    #[inline(always)]
    fn registers(&self) -> &[__m256i; LIMBS] {
        // SAFETY: `[u64; 4]` and `__m256i` have the same size and no invalid bit patterns;
        // the type's alignment is the registers'.
        unsafe { &*self.0.as_ptr().cast::<[__m256i; LIMBS]>() }
    }
}

/// `2^261 − x` for `0 < x < 2^261` in broadcast limbs: `(2^29 − 1 − x_j)` limb by limb, plus one.
const fn radix29_complement(x: Broadcast29) -> Broadcast29 {
    let x = x.0;
    let mut out = [[0; 4]; LIMBS];
    let mut carry = 1;
    let mut j = 0;
    while j < LIMBS {
        let limb = MASK29 - x[j][0] + carry;
        carry = limb >> RADIX_BITS;
        out[j] = [limb & MASK29; 4];
        j += 1;
    }
    Broadcast29(out)
}

/// A value below `2^256` in nine 29-bit limbs, each broadcast to four lanes.
const fn broadcast29(v: &U256) -> Broadcast29 {
    let mut out = [[0; 4]; LIMBS];
    let mut j = 0;
    while j < LIMBS {
        let (word, offset) = (RADIX_BITS * j / 64, RADIX_BITS * j % 64);
        let mut limb = v[word] >> offset;
        if offset + RADIX_BITS > 64 && word + 1 < 4 {
            limb |= v[word + 1] << (64 - offset);
        }
        out[j] = [limb & MASK29; 4];
        j += 1;
    }
    Broadcast29(out)
}

/// Splits four 64-bit limb registers (a value below `2^256`) into nine 29-bit limbs.
#[inline(always)]
unsafe fn to_radix29(x: [__m256i; 4]) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let mask = _mm256_set1_epi64x(MASK29 as i64);
        let mut out = [_mm256_setzero_si256(); LIMBS];
        for (j, limb) in out.iter_mut().enumerate() {
            let (word, offset) = (RADIX_BITS * j / 64, RADIX_BITS * j % 64);
            let mut v = _mm256_srl_epi64(x[word], count(offset));
            if offset + RADIX_BITS > 64 && word + 1 < 4 {
                v = _mm256_or_si256(v, _mm256_sll_epi64(x[word + 1], count(64 - offset)));
            }
            *limb = _mm256_and_si256(v, mask);
        }
        out
    }
}

/// Joins nine normalised 29-bit limbs (a value below `2^256`) into four 64-bit limbs.
#[inline(always)]
unsafe fn from_radix29(y: [__m256i; LIMBS]) -> [__m256i; 4] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let mut out = [_mm256_setzero_si256(); 4];
        for (j, &limb) in y.iter().enumerate() {
            let (word, offset) = (RADIX_BITS * j / 64, RADIX_BITS * j % 64);
            out[word] = _mm256_or_si256(out[word], _mm256_sll_epi64(limb, count(offset)));
            if offset + RADIX_BITS > 64 && word + 1 < 4 {
                out[word + 1] =
                    _mm256_or_si256(out[word + 1], _mm256_srl_epi64(limb, count(64 - offset)));
            }
        }
        out
    }
}

/// Transposes four elements of four words: register `k` gets word `k` of each (its own
/// inverse).
#[inline(always)]
unsafe fn transpose(r: [__m256i; 4]) -> [__m256i; 4] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
        let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
        let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
        let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
        [
            _mm256_permute2x128_si256::<0x20>(t0, t2),
            _mm256_permute2x128_si256::<0x20>(t1, t3),
            _mm256_permute2x128_si256::<0x31>(t0, t2),
            _mm256_permute2x128_si256::<0x31>(t1, t3),
        ]
    }
}

/// The `asm!` call of a radix-29 kernel: its instruction lines (from `tools/gen_avx2_asm.py`),
/// the operands every kernel has (`a` and `k` as pointers, the nine accumulator limbs `t0..t8`
/// as outputs, the scratch registers `bi`, `m`, `tmp`) and the kernel's own operands; the
/// value is the nine accumulator limbs. Expands to an unsafe operation.
macro_rules! radix29_asm {
    ($a:expr, $k:expr, [$($line:expr),* $(,)?], $($operand:tt)*) => {{
        let (t0, t1, t2, t3, t4, t5, t6, t7, t8): (
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
        );
        core::arch::asm!(
            $($line,)*
            a = in(reg) $a.as_ptr(),
            k = in(reg) core::ptr::from_ref($k),
            t0 = out(ymm_reg) t0,
            t1 = out(ymm_reg) t1,
            t2 = out(ymm_reg) t2,
            t3 = out(ymm_reg) t3,
            t4 = out(ymm_reg) t4,
            t5 = out(ymm_reg) t5,
            t6 = out(ymm_reg) t6,
            t7 = out(ymm_reg) t7,
            t8 = out(ymm_reg) t8,
            bi = out(ymm_reg) _,
            m = out(ymm_reg) _,
            tmp = out(ymm_reg) _,
            $($operand)*
            options(pure, readonly, nostack),
        );
        [t0, t1, t2, t3, t4, t5, t6, t7, t8]
    }};
}

/// The nine word-steps of radix-29 Montgomery multiplication, `t ← (t + a·b_i + m·p)/2^29` with
/// `m = t_0·(−p^{-1}) mod 2^29`, without the final carry propagation. `k` holds the field's
/// broadcast constants.
///
/// For inputs with limbs below `2^30` (so values below about `2^262`), every accumulator limb
/// stays below `2^64`: it takes at most nine products `a_j·b_i` below `2^60`, nine `m·p_j` below
/// `2^58` and one carry below `2^35` (`9·2^60 + 9·2^58 + 2^35 < 2^63.5`). The value of the
/// result is `a·b·2^-261 mod p` plus a multiple of `p`, below `a·b/2^261 + p`: below `2p` for
/// canonical inputs, below `2^253 + p` for inputs below `2^257`.
///
/// Assembly (lines from `tools/gen_avx2_asm.py`) because the nine accumulator limbs must stay
/// in registers: `a`, `b` and `k` are read as memory operands, which leaves twelve of the
/// sixteen vector registers busy. The same steps written with intrinsics compiled to a kernel
/// that spent its time spilling (0.78–0.8 times the scalar kernel's throughput on Zen 3,
/// against 1.24 times for this one).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mont_steps29_asm(
    a: &[__m256i; LIMBS],
    b: &[__m256i; LIMBS],
    k: &Radix29Constants,
) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU; the asm reads the three arrays (live references),
    // writes only the declared vector registers, and leaves the flags alone.
    unsafe {
        radix29_asm!(
            a,
            k,
            [
                avx2_mul!(),
            ],
            b = in(reg) b.as_ptr(),
        )
    }
}

/// [`mont_steps29_asm`] for `b = a`: row `i` adds `a_i·a_i` and `(2a_i)·a_j` for `j > i`, 45
/// word products instead of 81 (a position's terms all come from rows at most half its index,
/// so each is complete before its reduction step). The same bounds hold: a doubled limb is below
/// `2^31`, a position takes at most four doubled products and one square (below `2^63.2`) next
/// to its nine reduction products and one carry.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mont_square29_asm(a: &[__m256i; LIMBS], k: &Radix29Constants) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU; the asm reads the two arrays (live references),
    // writes only the declared vector registers, and leaves the flags alone.
    unsafe {
        radix29_asm!(
            a,
            k,
            [
                avx2_square!(),
            ],
            b2 = out(ymm_reg) _,
        )
    }
}

/// Four lanes of `a·b·2^-261 mod p`, canonical, for canonical normalised `a`, `b`.
#[inline(always)]
unsafe fn mont_mul29(
    a: &[__m256i; LIMBS],
    b: &[__m256i; LIMBS],
    k: &Radix29Constants,
) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let t = mont_steps29_asm(a, b, k);
        // Below (p² + 2^261·p)/2^261 < 2p: normalise and subtract p once if needed.
        reduce_below_2p(normalise(t), k.p.registers())
    }
}

/// `a·b·2^-261` plus a multiple of `p`, normalised, without the final subtraction.
///
/// One function with AVX2 enabled around the assembly and the carry pass, so the pair
/// compiles to the same code whether or not it is inlined.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mont_mul29_lazy(
    a: &[__m256i; LIMBS],
    b: &[__m256i; LIMBS],
    k: &Radix29Constants,
) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe { normalise(mont_steps29_asm(a, b, k)) }
}

/// [`mont_mul29_lazy`] for `b = a`, on the squaring kernel.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mont_square29_lazy(a: &[__m256i; LIMBS], k: &Radix29Constants) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe { normalise(mont_square29_asm(a, k)) }
}

/// Propagates carries so every limb is below `2^29` (limbs are non-negative, below `2^63`).
#[inline(always)]
unsafe fn normalise(mut t: [__m256i; LIMBS]) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let mask = _mm256_set1_epi64x(MASK29 as i64);
        for j in 0..LIMBS - 1 {
            t[j + 1] = _mm256_add_epi64(t[j + 1], _mm256_srli_epi64::<29>(t[j]));
            t[j] = _mm256_and_si256(t[j], mask);
        }
        t
    }
}

/// `t − p` where that is non-negative, else `t`, for normalised `t < 2p`.
#[inline(always)]
unsafe fn reduce_below_2p(t: [__m256i; LIMBS], p: &[__m256i; LIMBS]) -> [__m256i; LIMBS] {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let (d, negative) = sub_limbs(&t, p);
        let mut out = t;
        for j in 0..LIMBS {
            out[j] = _mm256_blendv_epi8(d[j], t[j], negative);
        }
        out
    }
}

/// `x − y` limb by limb with borrows, for normalised `x`, `y`: the normalised difference mod
/// `2^261` and, per lane, all ones where it borrowed out of the top limb (`x < y`).
#[inline(always)]
unsafe fn sub_limbs(x: &[__m256i; LIMBS], y: &[__m256i; LIMBS]) -> ([__m256i; LIMBS], __m256i) {
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe {
        let mask = _mm256_set1_epi64x(MASK29 as i64);
        let mut d = [_mm256_setzero_si256(); LIMBS];
        let mut borrow = _mm256_setzero_si256();
        for j in 0..LIMBS {
            // In (−2^30, 2^29): negative exactly when this limb borrows.
            let v = _mm256_sub_epi64(_mm256_sub_epi64(x[j], y[j]), borrow);
            borrow = _mm256_srli_epi64::<63>(v);
            d[j] = _mm256_and_si256(v, mask);
        }
        let negative = _mm256_sub_epi64(_mm256_setzero_si256(), borrow);
        (d, negative)
    }
}

/// Four elements of a 256-bit field, in radix `2^29` (nine limbs, one register per limb) and
/// in Montgomery form with `R' = 2^261`.
///
/// Values are converted once on entry and exit ([`PackedFp256Avx2::from_elements`],
/// [`PackedFp256Avx2::to_elements`]), so kernels that chain many operations pay the
/// conversion once. Every lane is always canonical (below `p`, limbs below `2^29`).
///
/// A value can only be built with an [`Avx2`] token, so the intrinsics inside its operators
/// always run on a CPU that has them; kernels should still be compiled with
/// `#[target_feature(enable = "avx2")]` so that the operators inline.
pub struct PackedFp256Avx2<C> {
    limbs: [__m256i; LIMBS],
    _field: PhantomData<C>,
}

copy_for_every_config!(PackedFp256Avx2);

impl<C: Fp256Config> PackedFp256Avx2<C> {
    /// Number of lanes.
    pub const WIDTH: usize = 4;

    /// The field's constants in radix `2^29`, built at compile time.
    const CONSTANTS: Radix29Constants = Radix29Constants::new::<C>();

    #[inline(always)]
    pub(crate) fn from_limbs(limbs: [__m256i; LIMBS]) -> Self {
        Self {
            limbs,
            _field: PhantomData,
        }
    }

    /// The field's constants, from read-only memory.
    #[inline(always)]
    pub(crate) fn constants() -> &'static Radix29Constants {
        &Self::CONSTANTS
    }

    /// Loads four elements.
    #[inline(always)]
    pub fn from_elements(_cpu: Avx2, x: &[Fp256<C>; 4]) -> Self {
        // SAFETY: `_cpu` proves AVX2; `x` is 16 words (`Fp256` is `repr(transparent)` over
        // `[u64; 4]`), read unaligned.
        unsafe {
            let words = x.as_ptr().cast::<__m256i>();
            // (No closures here: they would not inherit the caller's target features.)
            let rows = [
                _mm256_loadu_si256(words),
                _mm256_loadu_si256(words.add(1)),
                _mm256_loadu_si256(words.add(2)),
                _mm256_loadu_si256(words.add(3)),
            ];
            let raw = to_radix29(transpose(rows));
            let k = Self::constants();
            Self::from_limbs(mont_mul29(&raw, k.entry_factor.registers(), k))
        }
    }

    /// The limbs of `a + b`, carried into normalised limbs (every limb below `2^29`) but not
    /// reduced: a value below `2p`.
    #[inline(always)]
    pub(crate) fn normalised_sum(a: Self, b: Self) -> [__m256i; LIMBS] {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe {
            let mut ab = a.limbs;
            for (x, y) in ab.iter_mut().zip(b.limbs) {
                *x = _mm256_add_epi64(*x, y);
            }
            normalise(ab)
        }
    }

    /// The same element in every lane.
    #[inline(always)]
    pub fn broadcast(cpu: Avx2, x: Fp256<C>) -> Self {
        Self::from_elements(cpu, &[x; 4])
    }

    /// `self²` on the squaring kernel (45 word products instead of 81), then one subtraction:
    /// [`zkaccel_field::Algebra::square`].
    #[inline(always)]
    pub(crate) fn square_lanes(&self) -> Self {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe {
            let k = Self::constants();
            // Below 2p, as the product's steps (the squaring kernel's bound).
            Self::from_limbs(reduce_below_2p(
                mont_square29_lazy(&self.limbs, k),
                k.p.registers(),
            ))
        }
    }

    /// Stores the four lanes.
    #[inline(always)]
    pub fn to_elements(self) -> [Fp256<C>; 4] {
        let mut out = [Fp256::<C>::from_mont([0; 4]); 4];
        // SAFETY: a value of this type exists only if AVX2 was detected; `out` is 16 words,
        // written unaligned.
        unsafe {
            let k = Self::constants();
            let words = mont_mul29(&self.limbs, k.exit_factor.registers(), k);
            let rows = transpose(from_radix29(words));
            let dst = out.as_mut_ptr().cast::<__m256i>();
            for (k, row) in rows.into_iter().enumerate() {
                _mm256_storeu_si256(dst.add(k), row);
            }
        }
        out
    }
}

/// One element meant for every lane of a [`PackedFp256Avx2`], kept as a single lane's nine
/// limbs (72 bytes instead of 288) and broadcast when used ([`BroadcastFp256Avx2::get`]): a
/// table of round constants a quarter the size, which stays in the L1 cache beside the state.
pub struct BroadcastFp256Avx2<C> {
    limbs: [u64; LIMBS],
    _field: PhantomData<C>,
}

copy_for_every_config!(BroadcastFp256Avx2);

impl<C: Fp256Config> BroadcastFp256Avx2<C> {
    /// `x`, for every lane.
    #[inline(always)]
    pub fn new(cpu: Avx2, x: Fp256<C>) -> Self {
        let lanes = PackedFp256Avx2::broadcast(cpu, x).limbs;
        let mut limbs = [0u64; LIMBS];
        for (limb, lane) in limbs.iter_mut().zip(lanes) {
            // SAFETY: `__m256i` and `[u64; 4]` have the same size and no invalid bit patterns.
            *limb = unsafe { core::mem::transmute::<__m256i, [u64; 4]>(lane) }[0];
        }
        Self {
            limbs,
            _field: PhantomData,
        }
    }

    /// The element in all four lanes.
    #[inline(always)]
    pub fn get(&self) -> PackedFp256Avx2<C> {
        // SAFETY: a value of this type exists only if AVX2 was detected (`new` takes the token).
        unsafe { PackedFp256Avx2::from_limbs(self.limbs.map(|l| _mm256_set1_epi64x(l as i64))) }
    }
}

impl<C: Fp256Config> Add for PackedFp256Avx2<C> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe {
            let mut s = self.limbs;
            for (x, y) in s.iter_mut().zip(rhs.limbs) {
                *x = _mm256_add_epi64(*x, y);
            }
            Self::from_limbs(reduce_below_2p(
                normalise(s),
                Self::constants().p.registers(),
            ))
        }
    }
}

impl<C: Fp256Config> Neg for PackedFp256Avx2<C> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe {
            // p − x in [1, p] (p itself for x = 0, which the reduction maps to 0).
            let p = Self::constants().p.registers();
            let (d, _) = sub_limbs(p, &self.limbs);
            Self::from_limbs(reduce_below_2p(d, p))
        }
    }
}

impl<C: Fp256Config> Mul for PackedFp256Avx2<C> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe { Self::from_limbs(mont_mul29(&self.limbs, &rhs.limbs, Self::constants())) }
    }
}

packed_fp256_common!(PackedFp256Avx2, Avx2, 4, "AVX2", {
    /// One lane's limbs, broadcast when used: a quarter of the table.
    type Constant = BroadcastFp256Avx2<C>;
    #[inline(always)]
    fn prepare_constant(cpu: Avx2, c: Fp256<C>) -> BroadcastFp256Avx2<C> {
        BroadcastFp256Avx2::new(cpu, c)
    }
    #[inline(always)]
    fn broadcast_constant(_: Avx2, c: &BroadcastFp256Avx2<C>) -> Self {
        c.get()
    }
});

/// Four elements of a 256-bit field like [`PackedFp256Avx2`], lazily reduced: a lane holds its
/// element's radix-`2^29` Montgomery form plus some multiple of `p`: a value below
/// `2p + 2^234`, its eight low limbs below `2^29`. Products skip their final subtraction (a
/// product of such values is below `4p²/2^261 + p < 2p`), and additions of canonical values
/// choose whether to subtract `p` from one limb, so a chain of them never runs a borrow chain;
/// [`LazyPackedFp256Avx2::reduce`] gives the canonical lanes back.
///
/// This is the form of the AVX2 MiMC batch kernel (`PERF.md`, "The AVX2 kernels").
pub struct LazyPackedFp256Avx2<C> {
    pub(crate) limbs: [__m256i; LIMBS],
    _field: PhantomData<C>,
}

copy_for_every_config!(LazyPackedFp256Avx2);

impl<C: Fp256Config> LazyPackedFp256Avx2<C> {
    #[inline(always)]
    pub(crate) fn from_limbs(limbs: [__m256i; LIMBS]) -> Self {
        Self {
            limbs,
            _field: PhantomData,
        }
    }

    /// The same lanes (a canonical value is a lazy one).
    #[inline(always)]
    pub fn new(x: PackedFp256Avx2<C>) -> Self {
        Self::from_limbs(x.limbs)
    }

    /// `self + c` for canonical `c`, again below `2p + 2^234`: `self + c − p` where `self`'s
    /// top limb shows it above `p + 2^232`, else `self + c` (then below `2p + 2^233`). The
    /// choice reads one limb of `self` and not the sum, so it runs beside the addition, and
    /// subtracting `p` is adding the limbs of `2^261 − p` and taking `2^29` from the top limb
    /// (which stays non-negative): no borrow chain, only the carry pass of the sum.
    #[inline(always)]
    pub fn add_canonical(self, c: PackedFp256Avx2<C>) -> Self {
        // SAFETY: a value of either type exists only if AVX2 was detected.
        unsafe {
            let k = PackedFp256Avx2::<C>::constants();
            let top = LIMBS - 1;
            let threshold = k.top_threshold.register();
            let select = _mm256_cmpgt_epi64(self.limbs[top], threshold);
            let mut s = self.limbs;
            for ((x, y), n) in s.iter_mut().zip(c.limbs).zip(k.minus_p.registers()) {
                *x = _mm256_add_epi64(_mm256_add_epi64(*x, y), _mm256_and_si256(*n, select));
            }
            let borrow = _mm256_and_si256(_mm256_set1_epi64x(1 << RADIX_BITS), select);
            s[top] = _mm256_sub_epi64(s[top], borrow);
            Self::from_limbs(normalise(s))
        }
    }

    /// The limbs of `self + a + b` for canonical `a` and `b`, for the product and squaring
    /// kernels to read, not a value of this type: `a + b` carried into normalised limbs (a sum
    /// below `2p`, computed beside `self`'s chain), then added to `self`'s limbs with no carry
    /// pass and no subtraction. Every limb is below `2^30` and the value below `4p + 2^235`,
    /// inputs the kernels take ([`mont_steps29_asm`]); their results are again values of this
    /// type, below `(4p + 2^235)²/2^261 + p < 2p`.
    #[inline(always)]
    pub(crate) fn sum_limbs_for_kernels(
        self,
        a: PackedFp256Avx2<C>,
        b: PackedFp256Avx2<C>,
    ) -> [__m256i; LIMBS] {
        // SAFETY: a value of either type exists only if AVX2 was detected.
        unsafe {
            let ab = PackedFp256Avx2::normalised_sum(a, b);
            let mut sum = self.limbs;
            for (x, y) in sum.iter_mut().zip(ab) {
                *x = _mm256_add_epi64(*x, y);
            }
            sum
        }
    }

    /// `(self + a + b)^d` for canonical `a` and `b`: one MiMC round on every lane, the S-box
    /// on [`pow_sbox_with`]'s schedules. For `d > 1` the sum goes to the kernels unreduced
    /// (`a + b` carried into normalised limbs beside the chain, then added to `self`'s limbs
    /// with no carry pass), which leaves one vector addition per limb on the chain; for
    /// `d ≤ 1` the sum is reduced (`add_canonical`), since no kernel would take it.
    #[inline(always)]
    pub fn power_of_sum(self, a: PackedFp256Avx2<C>, b: PackedFp256Avx2<C>, d: u64) -> Self {
        if d <= 1 {
            return pow_sbox_with(&self.add_canonical(a + b), d);
        }
        // Every schedule of `pow_sbox_with` for d > 1 reads its input only in kernels, whose
        // results are values of this type again.
        pow_sbox_with(&Self::from_limbs(self.sum_limbs_for_kernels(a, b)), d)
    }

    /// A value of this type from the limbs of `a + b`, added limb by limb without a carry
    /// pass, where `a` is a product's or squaring's result (below `2p`) and `b` a value of
    /// this type: the sum (below `4p + 2^234`) carried into normalised limbs, minus `2p` where
    /// its top limb shows it above `2p` (leaving it below `2p + 2^234`; otherwise it is below
    /// `2p + 2^232`), carried again. Subtracting `2p` is adding twice the limbs of `2^261 − p`
    /// and taking `2^262` from the top limb, so no borrow chain runs.
    #[inline(always)]
    pub(crate) fn from_sum_with_product(sum: [__m256i; LIMBS]) -> Self {
        // SAFETY: the limbs come from values of this type, which exist only if AVX2 was
        // detected.
        unsafe {
            let k = PackedFp256Avx2::<C>::constants();
            let top = LIMBS - 1;
            let mut s = normalise(sum);
            let select = _mm256_cmpgt_epi64(s[top], k.two_p_top.register());
            for (x, n) in s.iter_mut().zip(k.minus_p.registers()) {
                *x = _mm256_add_epi64(*x, _mm256_and_si256(_mm256_slli_epi64::<1>(*n), select));
            }
            let borrow = _mm256_and_si256(_mm256_set1_epi64x(1 << (RADIX_BITS + 1)), select);
            s[top] = _mm256_sub_epi64(s[top], borrow);
            Self::from_limbs(normalise(s))
        }
    }

    /// The canonical lanes: a product by `2^261 mod p` (below `2p`) and one subtraction.
    #[inline(always)]
    pub fn reduce(self) -> PackedFp256Avx2<C> {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe {
            let k = PackedFp256Avx2::<C>::constants();
            PackedFp256Avx2::from_limbs(mont_mul29(&self.limbs, k.one.registers(), k))
        }
    }

    #[cfg(feature = "kernels")]
    /// Each lane's nine radix-`2^29` limbs, least significant first. One element has many
    /// representations, so this is for tests of the representation itself.
    pub fn representation(self) -> [[u64; LIMBS]; 4] {
        let mut out = [[0; LIMBS]; 4];
        for (j, limb) in self.limbs.iter().enumerate() {
            let mut words = [0u64; 4];
            // SAFETY: a value of this type exists only if AVX2 was detected; `words` is 32
            // bytes, written unaligned.
            unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), *limb) };
            for (lane, word) in words.into_iter().enumerate() {
                out[lane][j] = word;
            }
        }
        out
    }
}

impl<C: Fp256Config> Mul for LazyPackedFp256Avx2<C> {
    type Output = Self;
    /// The Montgomery product without its final subtraction.
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        self.product(&rhs)
    }
}

impl<C: Fp256Config> SboxArithmetic for LazyPackedFp256Avx2<C> {
    /// The Montgomery product without its final subtraction, the operands read where they are.
    #[inline(always)]
    fn product(&self, rhs: &Self) -> Self {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe {
            Self::from_limbs(mont_mul29_lazy(
                &self.limbs,
                &rhs.limbs,
                PackedFp256Avx2::<C>::constants(),
            ))
        }
    }

    /// The squaring kernel (45 word products instead of 81).
    #[inline(always)]
    fn sbox_square(&self) -> Self {
        // SAFETY: a value of this type exists only if AVX2 was detected.
        unsafe {
            Self::from_limbs(mont_square29_lazy(
                &self.limbs,
                PackedFp256Avx2::<C>::constants(),
            ))
        }
    }
}
