//! One width-12 state in three 256-bit registers ([`Goldilocks12Ifma`]): lanes 0–3, 4–7 and
//! 8–11, on a CPU with AVX-512VL and IFMA.
//!
//! A single permutation (a sponge absorbing, a Merkle path, a challenger) has only its own
//! twelve lanes to spread over SIMD. Held as one 512-bit register of eight lanes and one of
//! four, a third of the work runs on lanes no output reads; on cores that split 512-bit
//! operations into two 256-bit halves (AMD Zen 4), that third costs as much as the rest.
//! Three 256-bit registers waste nothing, and AVX-512VL gives them the unsigned compares and
//! masked corrections of the 512-bit code.
//!
//! A circulant layer's rotations also get cheaper: lanes `(4i + k) … (4i + k + 3) mod 12`,
//! rotation `k`'s output chunk `i`, lie in at most two chunks, so each is one `valignq` of
//! two registers (and no instruction at all when `k` is a multiple of four), where the
//! eight-and-four layout needs a two-source permute per rotation and output register.

use core::arch::x86_64::*;
use core::ops::{Add, Mul};

use super::Avx512Ifma;
use zkaccel_field::Field;

use crate::field::EPSILON;
use crate::Goldilocks;

/// Twelve Goldilocks lanes in three 256-bit registers, on a CPU with AVX-512F, AVX-512VL and
/// IFMA (see the module documentation). Lanes hold the same possibly non-canonical words as
/// [`Goldilocks`].
#[derive(Clone, Copy, Debug)]
pub struct Goldilocks12Ifma([__m256i; 3]);

/// A 12×12 matrix `M[r][j] = circ[(j − r) mod 12] + [r = j]·diag[r]` with small entries,
/// prepared for [`Goldilocks12Ifma::circulant_small_add`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallCirculant12 {
    circ: [u64; 12],
    diag: [[u64; 4]; 3],
}

impl SmallCirculant12 {
    /// The matrix of `circ` and `diag`, when every row's entries sum below `2^20`
    /// (`Σ circ + max diag < 2^20`), the bound under which a product of a 32-bit half by an
    /// entry, and a row's sum of them, stay exact in IFMA's 52-bit multiply-adds.
    pub fn new(circ: &[u32; 12], diag: &[u32; 12]) -> Option<Self> {
        let bound = circ.iter().map(|&c| u64::from(c)).sum::<u64>()
            + diag.iter().map(|&d| u64::from(d)).max().unwrap_or(0);
        (bound < 1 << 20).then(|| Self {
            circ: circ.map(u64::from),
            diag: core::array::from_fn(|i| core::array::from_fn(|j| u64::from(diag[4 * i + j]))),
        })
    }
}

/// Twelve constants split into 32-bit halves, to be added into a layer's unreduced sums
/// ([`Goldilocks12Ifma::circulant_small_add`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitConstants12 {
    lo: [[u64; 4]; 3],
    hi: [[u64; 4]; 3],
}

impl SplitConstants12 {
    /// The halves of `c`'s canonical words.
    pub fn new(c: &[Goldilocks; 12]) -> Self {
        let word = |i: usize, j: usize| c[4 * i + j].as_canonical_u64();
        Self {
            lo: core::array::from_fn(|i| core::array::from_fn(|j| word(i, j) & EPSILON)),
            hi: core::array::from_fn(|i| core::array::from_fn(|j| word(i, j) >> 32)),
        }
    }
}

impl Goldilocks12Ifma {
    /// The twelve lanes of `v`.
    #[inline(always)]
    pub fn from_array(_cpu: Avx512Ifma, v: &[Goldilocks; 12]) -> Self {
        // SAFETY: `_cpu` proves AVX-512F, VL and IFMA (hence AVX); each load reads four of
        // `v`'s twelve words (`Goldilocks` is a `u64`).
        unsafe {
            let p = v.as_ptr().cast::<__m256i>();
            Self([
                _mm256_loadu_si256(p),
                _mm256_loadu_si256(p.add(1)),
                _mm256_loadu_si256(p.add(2)),
            ])
        }
    }

    /// The lanes as field elements.
    #[inline(always)]
    pub fn to_array(self) -> [Goldilocks; 12] {
        let mut out = [Goldilocks::ZERO; 12];
        // SAFETY: a value of this type exists only if AVX-512F, VL and IFMA were detected;
        // each store writes four of `out`'s twelve words.
        unsafe {
            let p = out.as_mut_ptr().cast::<__m256i>();
            for (i, x) in self.0.iter().enumerate() {
                _mm256_storeu_si256(p.add(i), *x);
            }
        }
        out
    }

    /// Every lane squared (three 32×32-bit products a lane, not four).
    #[inline(always)]
    pub fn square(self) -> Self {
        let [a, b, c] = self.0;
        // SAFETY: a value of this type exists only if AVX-512F, VL and IFMA were detected.
        // (No closures here or below: they would not inherit the caller's target features,
        // and the intrinsics would stop inlining.)
        unsafe { Self([square4(a), square4(b), square4(c)]) }
    }

    /// `M·self + c` for a small circulant `M` ([`SmallCirculant12`]), reduced once a lane:
    /// each lane's 32-bit halves are multiplied by the entries with IFMA's 52-bit
    /// multiply-adds into sums that start at `c`'s halves (so adding `c` costs nothing), two
    /// sums per half, so that each chain of dependent multiply-adds is half a row long.
    #[inline(always)]
    pub fn circulant_small_add(self, m: &SmallCirculant12, c: &SplitConstants12) -> Self {
        // SAFETY: a value of this type exists only if AVX-512F, VL and IFMA were detected; the
        // loads read four-word arrays of `m` and `c`. Exactness: every product is a 32-bit
        // half times an entry below 2^20, so below 2^52, which `madd52lo` adds whole; each sum
        // is a 32-bit constant half plus products of a row whose entries sum below 2^20, so
        // below 2^53: nothing wraps.
        unsafe {
            let mask32 = _mm256_set1_epi64x(EPSILON as i64);
            let [x0, x1, x2] = self.0;
            let lo = [
                _mm256_and_si256(x0, mask32),
                _mm256_and_si256(x1, mask32),
                _mm256_and_si256(x2, mask32),
            ];
            let hi = [
                _mm256_srli_epi64::<32>(x0),
                _mm256_srli_epi64::<32>(x1),
                _mm256_srli_epi64::<32>(x2),
            ];
            let zero = _mm256_setzero_si256();
            // acc[i][h][chain]: chunk i, half h (0 low, 1 high), one of two chains.
            let mut acc = [[[zero; 2]; 2]; 3];
            for i in 0..3 {
                acc[i][0][0] = _mm256_loadu_si256(c.lo[i].as_ptr().cast());
                acc[i][1][0] = _mm256_loadu_si256(c.hi[i].as_ptr().cast());
                let d = _mm256_loadu_si256(m.diag[i].as_ptr().cast());
                acc[i][0][1] = _mm256_madd52lo_epu64(zero, lo[i], d);
                acc[i][1][1] = _mm256_madd52lo_epu64(zero, hi[i], d);
            }
            // Written out: a loop over `k` is not unrolled, and the sums would live in memory.
            rotation_terms::<0>(&mut acc, &lo, &hi, m);
            rotation_terms::<1>(&mut acc, &lo, &hi, m);
            rotation_terms::<2>(&mut acc, &lo, &hi, m);
            rotation_terms::<3>(&mut acc, &lo, &hi, m);
            rotation_terms::<4>(&mut acc, &lo, &hi, m);
            rotation_terms::<5>(&mut acc, &lo, &hi, m);
            rotation_terms::<6>(&mut acc, &lo, &hi, m);
            rotation_terms::<7>(&mut acc, &lo, &hi, m);
            rotation_terms::<8>(&mut acc, &lo, &hi, m);
            rotation_terms::<9>(&mut acc, &lo, &hi, m);
            rotation_terms::<10>(&mut acc, &lo, &hi, m);
            rotation_terms::<11>(&mut acc, &lo, &hi, m);
            let mut out = [zero; 3];
            for i in 0..3 {
                out[i] = reduce_lo_hi32(
                    _mm256_add_epi64(acc[i][0][0], acc[i][0][1]),
                    _mm256_add_epi64(acc[i][1][0], acc[i][1][1]),
                );
            }
            Self(out)
        }
    }
}

impl Add for Goldilocks12Ifma {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        let ([a, b, c], [x, y, z]) = (self.0, rhs.0);
        // SAFETY: a value of this type exists only if AVX-512F, VL and IFMA were detected.
        unsafe { Self([add4(a, x), add4(b, y), add4(c, z)]) }
    }
}

impl Mul for Goldilocks12Ifma {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        let ([a, b, c], [x, y, z]) = (self.0, rhs.0);
        // SAFETY: a value of this type exists only if AVX-512F, VL and IFMA were detected.
        unsafe { Self([mul4(a, x), mul4(b, y), mul4(c, z)]) }
    }
}

/// Rotation `K`'s terms of a circulant layer: entry `circ[K]` times lanes `i + K (mod 12)`
/// of both halves, into sums `acc[chunk][half][K mod 2]`.
#[inline(always)]
unsafe fn rotation_terms<const K: usize>(
    acc: &mut [[[__m256i; 2]; 2]; 3],
    lo: &[__m256i; 3],
    hi: &[__m256i; 3],
    m: &SmallCirculant12,
) {
    // SAFETY: the caller runs on a CPU with AVX-512F, VL and IFMA.
    unsafe {
        let e = _mm256_set1_epi64x(m.circ[K] as i64);
        for (i, sums) in acc.iter_mut().enumerate() {
            sums[0][K % 2] = _mm256_madd52lo_epu64(sums[0][K % 2], rotated::<K>(lo, i), e);
            sums[1][K % 2] = _mm256_madd52lo_epu64(sums[1][K % 2], rotated::<K>(hi, i), e);
        }
    }
}

/// Lanes `4i + K … 4i + K + 3 (mod 12)` of the twelve lanes in `x`: chunks `i + ⌊K/4⌋` and
/// the one after it, shifted down by `K mod 4` lanes.
#[inline(always)]
unsafe fn rotated<const K: usize>(x: &[__m256i; 3], i: usize) -> __m256i {
    let low = x[(i + K / 4) % 3];
    let high = x[(i + K / 4 + 1) % 3];
    // SAFETY: the caller runs on a CPU with AVX-512F and VL.
    unsafe {
        match K % 4 {
            0 => low,
            1 => _mm256_alignr_epi64::<1>(high, low),
            2 => _mm256_alignr_epi64::<2>(high, low),
            _ => _mm256_alignr_epi64::<3>(high, low),
        }
    }
}

/// `a + b` with both corrections (any words in, a word out).
#[inline(always)]
unsafe fn add4(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs on a CPU with AVX-512F and VL.
    unsafe {
        let eps = _mm256_set1_epi64x(EPSILON as i64);
        let s = _mm256_add_epi64(a, b);
        let s2 = _mm256_mask_add_epi64(s, _mm256_cmplt_epu64_mask(s, a), s, eps);
        _mm256_mask_add_epi64(s2, _mm256_cmplt_epu64_mask(s2, s), s2, eps)
    }
}

/// Each lane's high 32 bits copied into its low half.
#[inline(always)]
unsafe fn high_halves(x: __m256i) -> __m256i {
    // SAFETY: the caller runs on a CPU with AVX.
    unsafe { _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x))) }
}

/// Each lane's low 32 bits copied into its high half.
#[inline(always)]
unsafe fn low_halves_up(x: __m256i) -> __m256i {
    // SAFETY: the caller runs on a CPU with AVX.
    unsafe { _mm256_castps_si256(_mm256_moveldup_ps(_mm256_castsi256_ps(x))) }
}

/// The 128-bit lanes `hi·2^64 + lo` of `(a1·2^32 + a0)(b1·2^32 + b0)` from the partial
/// products `ll = a0·b0`, `lh = a0·b1`, `hl = a1·b0`, `hh = a1·b1`.
#[inline(always)]
unsafe fn combine(ll: __m256i, lh: __m256i, hl: __m256i, hh: __m256i) -> (__m256i, __m256i) {
    // SAFETY: the caller runs on a CPU with AVX-512F and VL.
    unsafe {
        let mask32 = _mm256_set1_epi64x(EPSILON as i64);
        let t = _mm256_add_epi64(hl, _mm256_srli_epi64::<32>(ll));
        let u = _mm256_add_epi64(lh, _mm256_and_si256(t, mask32));
        // lo = (u mod 2^32)·2^32 + (ll mod 2^32).
        let lo = _mm256_mask_blend_epi32(0x55, low_halves_up(u), ll);
        let hi = _mm256_add_epi64(
            _mm256_add_epi64(hh, _mm256_srli_epi64::<32>(t)),
            _mm256_srli_epi64::<32>(u),
        );
        (hi, lo)
    }
}

/// `a·b` on four lanes.
#[inline(always)]
unsafe fn mul4(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs on a CPU with AVX-512F and VL.
    unsafe {
        let (a_hi, b_hi) = (high_halves(a), high_halves(b));
        let (hi, lo) = combine(
            _mm256_mul_epu32(a, b),
            _mm256_mul_epu32(a, b_hi),
            _mm256_mul_epu32(a_hi, b),
            _mm256_mul_epu32(a_hi, b_hi),
        );
        reduce128(hi, lo)
    }
}

/// `a²` on four lanes.
#[inline(always)]
unsafe fn square4(a: __m256i) -> __m256i {
    // SAFETY: the caller runs on a CPU with AVX-512F and VL.
    unsafe {
        let a_hi = high_halves(a);
        let cross = _mm256_mul_epu32(a, a_hi);
        let (hi, lo) = combine(
            _mm256_mul_epu32(a, a),
            cross,
            cross,
            _mm256_mul_epu32(a_hi, a_hi),
        );
        reduce128(hi, lo)
    }
}

/// Reduces the 128-bit lanes `hi·2^64 + lo`: `lo − hi_hi` (borrow ⇒ −ε) + `hi_lo·ε` (carry ⇒ +ε).
#[inline(always)]
unsafe fn reduce128(hi: __m256i, lo: __m256i) -> __m256i {
    // SAFETY: the caller runs on a CPU with AVX-512F and VL.
    unsafe {
        let eps = _mm256_set1_epi64x(EPSILON as i64);
        let hi_hi = _mm256_srli_epi64::<32>(hi);
        let t0 = _mm256_sub_epi64(lo, hi_hi);
        let t0 = _mm256_mask_sub_epi64(t0, _mm256_cmplt_epu64_mask(lo, hi_hi), t0, eps);
        let t1 = _mm256_sub_epi64(_mm256_slli_epi64::<32>(hi), _mm256_and_si256(hi, eps));
        let r = _mm256_add_epi64(t0, t1);
        _mm256_mask_add_epi64(r, _mm256_cmplt_epu64_mask(r, t1), r, eps)
    }
}

/// Reduces `lo + hi·2^32` (two 64-bit words a lane).
#[inline(always)]
unsafe fn reduce_lo_hi32(lo: __m256i, hi: __m256i) -> __m256i {
    // SAFETY: the caller runs on a CPU with AVX-512F and VL.
    unsafe {
        let low = _mm256_add_epi64(lo, _mm256_slli_epi64::<32>(hi));
        let carry = _mm256_cmplt_epu64_mask(low, lo);
        let high = _mm256_srli_epi64::<32>(hi);
        let high = _mm256_mask_add_epi64(high, carry, high, _mm256_set1_epi64x(1));
        reduce128(high, low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Words where a correction could go wrong (non-canonical ones up to `2^64 − 1`), then
    /// random words.
    fn states(n: usize) -> Vec<[Goldilocks; 12]> {
        let p = crate::ORDER;
        let edges = [
            0,
            1,
            p - 1,
            p,
            p + 1,
            u64::MAX,
            1 << 63,
            (1 << 32) - 1,
            1 << 32,
        ];
        let mut rng = StdRng::seed_from_u64(12);
        (0..n)
            .map(|case| {
                core::array::from_fn(|i| {
                    Goldilocks(if case < edges.len() {
                        edges[(case + i) % edges.len()]
                    } else {
                        rng.gen()
                    })
                })
            })
            .collect()
    }

    fn canonical(v: [Goldilocks; 12]) -> [u64; 12] {
        v.map(|x| x.as_canonical_u64())
    }

    #[test]
    fn products_squares_and_sums_match_the_scalar_field() {
        let Some(cpu) = Avx512Ifma::detect() else {
            eprintln!("no AVX-512 IFMA on this CPU (or ZKACCEL_SIMD=off): skipped");
            return;
        };
        let xs = states(200);
        for (x, y) in xs.iter().zip(xs.iter().rev()) {
            let (a, b) = (
                Goldilocks12Ifma::from_array(cpu, x),
                Goldilocks12Ifma::from_array(cpu, y),
            );
            assert_eq!(
                canonical((a * b).to_array()),
                core::array::from_fn(|i| (x[i] * y[i]).as_canonical_u64()),
                "{x:?} · {y:?}"
            );
            assert_eq!(
                canonical((a + b).to_array()),
                core::array::from_fn(|i| (x[i] + y[i]).as_canonical_u64()),
                "{x:?} + {y:?}"
            );
            assert_eq!(
                canonical(a.square().to_array()),
                core::array::from_fn(|i| (x[i] * x[i]).as_canonical_u64()),
                "{x:?}²"
            );
        }
    }

    /// `M·x + c` against the scalar sum of the matrix's entries, with the entries drawn up to
    /// the bound (plonky2's matrix lies well inside it) and `c` from the edge words.
    #[test]
    fn circulant_layer_matches_the_scalar_matrix_product() {
        let Some(cpu) = Avx512Ifma::detect() else {
            eprintln!("no AVX-512 IFMA on this CPU (or ZKACCEL_SIMD=off): skipped");
            return;
        };
        let mut rng = StdRng::seed_from_u64(13);
        let xs = states(120);
        for (case, x) in xs.iter().enumerate() {
            // Entries summing to just below 2^20 in some cases, small in others.
            let top = if case % 2 == 0 {
                (1 << 20) / 13 - 1
            } else {
                64
            };
            let circ: [u32; 12] = core::array::from_fn(|_| rng.gen_range(0..=top));
            let diag: [u32; 12] = core::array::from_fn(|_| rng.gen_range(0..=top));
            let m = SmallCirculant12::new(&circ, &diag).expect("within the bound");
            let c = xs[(case + 7) % xs.len()].map(|w| Goldilocks::new_reduced(w.0 % crate::ORDER));
            let got = Goldilocks12Ifma::from_array(cpu, x)
                .circulant_small_add(&m, &SplitConstants12::new(&c));
            let want: [u64; 12] = core::array::from_fn(|r| {
                let mut sum = c[r] + x[r] * Goldilocks::new_reduced(u64::from(diag[r]));
                for (j, xj) in x.iter().enumerate() {
                    sum += *xj * Goldilocks::new_reduced(u64::from(circ[(j + 12 - r) % 12]));
                }
                sum.as_canonical_u64()
            });
            assert_eq!(canonical(got.to_array()), want, "case {case}");
        }
    }

    #[test]
    fn entries_past_the_bound_are_refused() {
        let mut circ = [0u32; 12];
        circ[3] = (1 << 20) - 1;
        assert!(SmallCirculant12::new(&circ, &[0; 12]).is_some());
        assert!(SmallCirculant12::new(&circ, &[1; 12]).is_none());
        circ[4] = 1;
        assert!(SmallCirculant12::new(&circ, &[0; 12]).is_none());
        assert!(SmallCirculant12::new(&[u32::MAX; 12], &[u32::MAX; 12]).is_none());
    }
}
