//! Eight six-limb Montgomery products at once with AVX-512 IFMA
//! (`vpmadd52luq`/`vpmadd52huq`), the 384-bit form of `zkaccel-fp256`'s IFMA kernel.
//!
//! Each 512-bit register holds the same limb of eight independent elements. The operands are
//! re-expressed in radix `2^52` (eight limbs, 416 bits), where IFMA multiplies 52×52 bits and
//! adds either half of the 104-bit product to a 64-bit accumulator. The Montgomery reduction
//! runs in that radix too, eight word-steps of 52 bits, i.e. with `R' = 2^416` instead of
//! `R = 2^384`.
//!
//! To keep the result in the crate's Montgomery form (`x·2^384`), the second operand is shifted
//! left by 32 bits first: `(a·2^384)·(2^32·b·2^384)·2^-416 = (ab)·2^384`. For `a, b < p < 2^384`,
//! `2^32·b < 2^416` fits the eight limbs, and the accumulator stays below
//! `p·(2^32·p/2^416 + 1) < 2p`, so one conditional subtraction finishes. A limb accumulates at
//! most four 52-bit halves in each of the eight steps it lives through, below `2^58`, so no IFMA
//! sum overflows.

use core::arch::x86_64::*;

use zkaccel_field::radix52::{mont_mul52, MASK52};

use crate::U384;

/// The lane choices of the transposing load and store, for register `r` and lane `i`: the
/// index within a register pair and the pair (0, 1 or 2).
/// - load (`load`): limb register `k = r`, lane `e = i`, is word `w = 6e + k` of the eight
///   elements, in loaded register pair `w / 16` at index `w mod 16`;
/// - store: stored register `r`, lane `i`, is word `w = 8r + i`, limb `w mod 6` of element
///   `w / 6`, in limb pair `(w mod 6) / 2` at index `8·(w mod 2) + w / 6`.
const fn lane_source(load: bool, r: usize, i: usize) -> (i64, usize) {
    if load {
        let w = 6 * i + r;
        ((w % 16) as i64, w / 16)
    } else {
        let w = 8 * r + i;
        ((8 * (w % 6 % 2) + w / 6) as i64, w % 6 / 2)
    }
}

/// [`lane_source`] as tables: per register, the eight indices and the masks of the lanes taken
/// from pair 1 and from pair 2.
const fn transpose_tables(load: bool) -> ([[i64; 8]; 6], [[u8; 2]; 6]) {
    let (mut index, mut pairs) = ([[0i64; 8]; 6], [[0u8; 2]; 6]);
    let mut r = 0;
    while r < 6 {
        let mut i = 0;
        while i < 8 {
            let (at, pair) = lane_source(load, r, i);
            index[r][i] = at;
            if pair > 0 {
                pairs[r][pair - 1] |= 1 << i;
            }
            i += 1;
        }
        r += 1;
    }
    (index, pairs)
}

const LOAD: ([[i64; 8]; 6], [[u8; 2]; 6]) = transpose_tables(true);
const STORE: ([[i64; 8]; 6], [[u8; 2]; 6]) = transpose_tables(false);

/// From three register pairs, lane by lane: `index` within a pair, the pair by the masks.
#[inline(always)]
unsafe fn select_from_pairs(z: &[__m512i; 6], index: &[i64; 8], pairs: [u8; 2]) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU; `index` is eight readable words.
    unsafe {
        let idx = _mm512_loadu_si512(index.as_ptr().cast());
        let from0 = _mm512_permutex2var_epi64(z[0], idx, z[1]);
        let from1 = _mm512_permutex2var_epi64(z[2], idx, z[3]);
        let from2 = _mm512_permutex2var_epi64(z[4], idx, z[5]);
        _mm512_mask_blend_epi64(
            pairs[1],
            _mm512_mask_blend_epi64(pairs[0], from0, from1),
            from2,
        )
    }
}

/// Loads eight consecutive six-limb elements and transposes them: register `k` holds limb `k` of
/// the eight elements. Plain loads and in-register permutes (no gathers).
#[inline(always)]
unsafe fn load_transposed(words: *const i64) -> [__m512i; 6] {
    // SAFETY: the caller runs on an AVX-512F CPU and `words` points at 48 readable words.
    unsafe {
        let mut z = [_mm512_setzero_si512(); 6];
        for (r, v) in z.iter_mut().enumerate() {
            *v = _mm512_loadu_si512(words.add(8 * r).cast());
        }
        let mut out = z;
        for (k, o) in out.iter_mut().enumerate() {
            *o = select_from_pairs(&z, &LOAD.0[k], LOAD.1[k]);
        }
        out
    }
}

/// The inverse of [`load_transposed`]: stores limb registers as eight consecutive elements.
#[inline(always)]
unsafe fn store_transposed(words: *mut i64, limbs: [__m512i; 6]) {
    // SAFETY: the caller runs on an AVX-512F CPU and `words` points at 48 writable words.
    unsafe {
        for r in 0..6 {
            let v = select_from_pairs(&limbs, &STORE.0[r], STORE.1[r]);
            _mm512_storeu_si512(words.add(8 * r).cast(), v);
        }
    }
}

/// Bits `[52k, 52k + 52)` of a value held in six 64-bit limb registers, for `k < 8`.
#[inline(always)]
unsafe fn limb52(x: &[__m512i; 6], k: usize) -> __m512i {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let (word, shift) = (52 * k / 64, (52 * k % 64) as i64);
        let low = _mm512_srlv_epi64(x[word], _mm512_set1_epi64(shift));
        let joined = if shift > 12 && word + 1 < 6 {
            _mm512_or_si512(
                low,
                _mm512_sllv_epi64(x[word + 1], _mm512_set1_epi64(64 - shift)),
            )
        } else {
            low
        };
        _mm512_and_si512(joined, _mm512_set1_epi64(MASK52 as i64))
    }
}

/// Splits a 384-bit value (six 64-bit limbs, one register per limb) into eight 52-bit limbs.
#[inline(always)]
unsafe fn to_radix52(x: [__m512i; 6]) -> [__m512i; 8] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let mut out = [_mm512_setzero_si512(); 8];
        for (k, o) in out.iter_mut().enumerate() {
            *o = limb52(&x, k);
        }
        out
    }
}

/// `2^32·y` in radix 2^52, for `y < 2^384` (the product fits the eight limbs).
#[inline(always)]
unsafe fn times_2_32(y: [__m512i; 8]) -> [__m512i; 8] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        let m = _mm512_set1_epi64(MASK52 as i64);
        let mut out = [_mm512_and_si512(_mm512_slli_epi64::<32>(y[0]), m); 8];
        for j in 1..8 {
            out[j] = _mm512_and_si512(
                _mm512_or_si512(
                    _mm512_slli_epi64::<32>(y[j]),
                    _mm512_srli_epi64::<20>(y[j - 1]),
                ),
                m,
            );
        }
        out
    }
}

/// Joins eight normalised 52-bit limbs (value below 2^384) into six 64-bit limbs.
#[inline(always)]
unsafe fn from_radix52(y: [__m512i; 8]) -> [__m512i; 6] {
    // SAFETY: the caller runs on an AVX-512F CPU.
    unsafe {
        [
            _mm512_or_si512(y[0], _mm512_slli_epi64::<52>(y[1])),
            _mm512_or_si512(_mm512_srli_epi64::<12>(y[1]), _mm512_slli_epi64::<40>(y[2])),
            _mm512_or_si512(_mm512_srli_epi64::<24>(y[2]), _mm512_slli_epi64::<28>(y[3])),
            _mm512_or_si512(_mm512_srli_epi64::<36>(y[3]), _mm512_slli_epi64::<16>(y[4])),
            _mm512_or_si512(
                _mm512_or_si512(_mm512_srli_epi64::<48>(y[4]), _mm512_slli_epi64::<4>(y[5])),
                _mm512_slli_epi64::<56>(y[6]),
            ),
            _mm512_or_si512(_mm512_srli_epi64::<8>(y[6]), _mm512_slli_epi64::<44>(y[7])),
        ]
    }
}

/// `a[i] ← a[i]·b[i]·2^-384 mod p` for eight consecutive Montgomery-form elements below `p`.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA; `a` and `b` must hold exactly eight elements.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn mont_mul_assign_8(a: &mut [U384], b: &[U384], p: &U384, inv: u64) {
    debug_assert!(a.len() == 8 && b.len() == 8);
    // SAFETY: the caller guarantees the features; `a` and `b` hold eight six-word elements, the
    // 48 words the transposing loads and the store touch.
    unsafe {
        let pa = a.as_mut_ptr().cast::<i64>();
        let pb = b.as_ptr().cast::<i64>();
        let mut p6 = [_mm512_setzero_si512(); 6];
        for (v, &w) in p6.iter_mut().zip(p) {
            *v = _mm512_set1_epi64(w as i64);
        }
        let p52 = to_radix52(p6);
        let inv52 = _mm512_set1_epi64((inv & MASK52) as i64);
        let x = to_radix52(load_transposed(pa));
        let y = times_2_32(to_radix52(load_transposed(pb)));
        store_transposed(pa, from_radix52(mont_mul52(x, y, &p52, inv52)));
    }
}
