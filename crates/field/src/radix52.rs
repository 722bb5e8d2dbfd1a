//! Montgomery arithmetic on eight lanes in radix `2^52` with AVX-512 IFMA
//! (`vpmadd52luq`/`vpmadd52huq`), for any number `N` of 52-bit limbs: the shared core of the
//! 256-bit (`N = 5`) and 384-bit (`N = 8`) fields' IFMA kernels.
//!
//! Each 512-bit register holds the same limb of eight independent elements. IFMA multiplies
//! the low 52 bits of two lanes and adds either half of the 104-bit product to a 64-bit
//! accumulator. With `R' = 2^(52N)`, [`mont_mul52`] returns `a·b·R'^{-1} mod p` below `p` for
//! `a < p` and `b < R'` (the accumulator ends below `p·(b/R' + 1) < 2p`). A limb
//! accumulates at most four 52-bit halves in each of the `N` steps it lives through, so sums
//! stay below `4N·2^52 < 2^64` for `N < 2^10`.
//!
//! Every function is `#[inline(always)]` and `unsafe`: callers run them inside a function
//! compiled with `#[target_feature(enable = "avx512f,avx512ifma")]`, on a CPU that has both.

use core::arch::x86_64::*;

/// The low 52 bits.
pub const MASK52: u64 = (1 << 52) - 1;

/// Propagates carries so every limb is below `2^52` (limbs non-negative, below `2^63`).
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
pub unsafe fn normalise<const N: usize>(mut t: [__m512i; N]) -> [__m512i; N] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let m52 = _mm512_set1_epi64(MASK52 as i64);
        for j in 0..N.saturating_sub(1) {
            t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64::<52>(t[j]));
            t[j] = _mm512_and_si512(t[j], m52);
        }
        t
    }
}

/// `t − p` if that is non-negative, else `t`, for a normalised `t < 2p` (the top limb may
/// exceed 52 bits).
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
pub unsafe fn reduce_below_2p<const N: usize>(t: [__m512i; N], p: &[__m512i; N]) -> [__m512i; N] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let zero = _mm512_setzero_si512();
        let m52 = _mm512_set1_epi64(MASK52 as i64);
        let mut d = [zero; N];
        let mut borrow = zero;
        for j in 0..N {
            let v = _mm512_add_epi64(_mm512_sub_epi64(t[j], p[j]), borrow);
            borrow = _mm512_srai_epi64::<52>(v);
            d[j] = if j + 1 < N {
                _mm512_and_si512(v, m52)
            } else {
                v
            };
        }
        let negative = _mm512_cmplt_epi64_mask(d[N - 1], zero);
        let mut out = [zero; N];
        for j in 0..N {
            out[j] = _mm512_mask_blend_epi64(negative, d[j], t[j]);
        }
        out
    }
}

/// Eight lanes of `a·b·2^(−52N) mod p` in radix `2^52`, below `p` (conditions in the module
/// documentation): `N` word-steps of operand scanning, each adding `a·b_i` and `m·p` and
/// dropping the lowest limb, then one normalisation and one conditional subtraction.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA.
#[inline(always)]
pub unsafe fn mont_mul52<const N: usize>(
    a: [__m512i; N],
    b: [__m512i; N],
    p: &[__m512i; N],
    inv52: __m512i,
) -> [__m512i; N] {
    // SAFETY: the caller runs on a CPU with AVX-512F and AVX-512 IFMA.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut t = [zero; N];
        // The limb above t[N − 1].
        let mut top = zero;
        for bi in b {
            for j in 0..N {
                t[j] = _mm512_madd52lo_epu64(t[j], a[j], bi);
                if j + 1 < N {
                    t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a[j], bi);
                } else {
                    top = _mm512_madd52hi_epu64(top, a[j], bi);
                }
            }
            let m = _mm512_madd52lo_epu64(zero, t[0], inv52);
            for j in 0..N {
                t[j] = _mm512_madd52lo_epu64(t[j], m, p[j]);
                if j + 1 < N {
                    t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, p[j]);
                } else {
                    top = _mm512_madd52hi_epu64(top, m, p[j]);
                }
            }
            // t[0] ≡ 0 (mod 2^52): carry its top bits up and drop it; `top` becomes the
            // highest limb. (Built as a new array: a loop of copies became a `memmove` of
            // the accumulator through the stack.)
            let carry = _mm512_srli_epi64::<52>(t[0]);
            t = shifted_down(t, top);
            t[0] = _mm512_add_epi64(t[0], carry);
            top = zero;
        }
        reduce_below_2p(normalise(t), p)
    }
}

/// `[t[1], …, t[N − 1], top]`.
#[inline(always)]
fn shifted_down<const N: usize>(t: [__m512i; N], top: __m512i) -> [__m512i; N] {
    core::array::from_fn(|j| if j + 1 < N { t[j + 1] } else { top })
}
