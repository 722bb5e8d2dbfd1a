//! One plonky2 Poseidon permutation with its twelve lanes in two AVX-512 registers: the
//! latency path ([`super::plonky2::Plonky2Poseidon::permute`]) on CPUs with AVX-512F.
//!
//! A batch spreads independent states over the SIMD lanes; a single permutation (a sponge
//! absorbing, a Merkle path, the challenger) has only its own twelve lanes. Scalar, a full
//! round is 48 products for the S-boxes and 144 for the MDS layer; here the S-boxes are four
//! products on each of two vectors (lanes 0–7 and 8–11), and the circulant MDS layer is
//! `Σ_k CIRC[k]·rot_k(s) + DIAG·s` with the rotations as lane permutations and the products
//! of 32-bit halves summed unreduced ([`P::circulant12_small`]). Measured on a 2-core Zen 4
//! (`perf`-free timing of a dependent chain): the eight full rounds went from about 1.08 µs
//! scalar to 0.79 µs; the partial rounds touch one lane per round and stay scalar.

use zkaccel_field::Field;
use zkaccel_goldilocks::x86_64::{Avx512, Avx512Ifma, PackedGoldilocksAvx512 as P};
use zkaccel_goldilocks::Goldilocks;

use super::plonky2::{MDS_CIRC, MDS_DIAG, WIDTH};
use super::plonky2_partial::PartialRounds12;
use crate::permutation::KernelConstants;

/// Whether the kernel's full rounds are what this module computes: width 12, `x^7`, and the
/// MDS rows as small integers equal to plonky2's circulant-plus-diagonal matrix.
pub(crate) fn applies(k: &KernelConstants<Goldilocks>) -> bool {
    let Some(small) = k.mds_small.as_deref() else {
        return false;
    };
    k.width == WIDTH
        && k.alpha == 7
        && small.len() == WIDTH * WIDTH
        && (0..WIDTH * WIDTH).all(|i| {
            let (r, j) = (i / WIDTH, i % WIDTH);
            let d = if r == j { MDS_DIAG[r] } else { 0 };
            u64::from(small[i]) == MDS_CIRC[(j + WIDTH - r) % WIDTH] + d
        })
        // Only lane 0 has a diagonal term (used below).
        && MDS_DIAG[1..].iter().all(|&d| d == 0)
}

/// `x^7` on every lane.
#[inline(always)]
fn sbox(x: P) -> P {
    let x2 = x * x;
    let x3 = x2 * x;
    let x4 = x2 * x2;
    x3 * x4
}

/// The MDS layer's constants as `u32`s.
const CIRC: [u32; WIDTH] = small(MDS_CIRC);
const DIAG: [u32; WIDTH] = small(MDS_DIAG);

const fn small(v: [u64; WIDTH]) -> [u32; WIDTH] {
    let mut out = [0u32; WIDTH];
    let mut k = 0;
    while k < WIDTH {
        out[k] = v[k] as u32;
        k += 1;
    }
    out
}

/// Eight lanes from `s[at..at + 8]`.
#[inline(always)]
fn lanes(cpu: Avx512, s: &[Goldilocks], at: usize) -> P {
    P::from_array(cpu, s[at..at + 8].try_into().expect("eight lanes"))
}

/// How a full round's MDS layer runs: on AVX-512F alone, or with IFMA's fused 52-bit
/// multiply-adds ([`P::circulant12_small_ifma`]: fewer instructions per term).
trait MdsLayer: Copy {
    fn apply(self, a: P, b: P) -> (P, P);
}

/// [`P::circulant12_small`].
#[derive(Clone, Copy)]
struct PlainMds;

impl MdsLayer for PlainMds {
    #[inline(always)]
    fn apply(self, a: P, b: P) -> (P, P) {
        P::circulant12_small(a, b, &CIRC, &DIAG)
    }
}

/// [`P::circulant12_small_ifma`].
#[derive(Clone, Copy)]
struct IfmaMds(Avx512Ifma);

impl MdsLayer for IfmaMds {
    #[inline(always)]
    fn apply(self, a: P, b: P) -> (P, P) {
        P::circulant12_small_ifma(self.0, a, b, &CIRC, &DIAG)
    }
}

/// One full round on lanes `a` (0–7) and `b` (8–11; lanes 12–15 of `b` carry values no output
/// depends on): constants, S-boxes, MDS. (No closures: they would not inherit the caller's
/// `#[target_feature]`, and the packed operators would stop inlining.)
#[inline(always)]
fn full_round(mds: impl MdsLayer, a: &mut P, b: &mut P, rc_a: P, rc_b: P) {
    let x = sbox(*a + rc_a);
    let y = sbox(*b + rc_b);
    (*a, *b) = mds.apply(x, y);
}

/// One permutation of `state`.
///
/// # Safety
/// None beyond `cpu` (which proves AVX-512F), [`applies`] holding for `k` and `partial`
/// holding `k`'s partial rounds; the function is `unsafe` only because it is compiled with
/// `#[target_feature]`.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute(
    cpu: Avx512,
    k: &KernelConstants<Goldilocks>,
    partial: &PartialRounds12,
    state: &mut [Goldilocks; WIDTH],
) {
    permute_with(cpu, PlainMds, k, partial, state);
}

/// [`permute`] with the MDS layers on IFMA.
///
/// # Safety
/// As for [`permute`] (`cpu` proves AVX-512F and IFMA).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn permute_ifma(
    cpu: Avx512Ifma,
    k: &KernelConstants<Goldilocks>,
    partial: &PartialRounds12,
    state: &mut [Goldilocks; WIDTH],
) {
    permute_with(cpu.avx512(), IfmaMds(cpu), k, partial, state);
}

/// The permutation with full rounds on `mds`.
#[inline(always)]
fn permute_with(
    cpu: Avx512,
    mds: impl MdsLayer,
    k: &KernelConstants<Goldilocks>,
    partial: &PartialRounds12,
    state: &mut [Goldilocks; WIDTH],
) {
    debug_assert!(applies(k));
    let t = WIDTH;
    let half = k.half_full_rounds;
    let (mut a, mut b) = split(cpu, state);
    for r in 0..half {
        let (rc_a, rc_b) = split(cpu, k.full[r * t..(r + 1) * t].try_into().expect("a round"));
        full_round(mds, &mut a, &mut b, rc_a, rc_b);
    }
    join(a, b, state);
    partial.apply(state);
    let (mut a, mut b) = split(cpu, state);
    for r in 0..half {
        let at = (half + r) * t;
        let (rc_a, rc_b) = split(cpu, k.full[at..at + t].try_into().expect("a round"));
        full_round(mds, &mut a, &mut b, rc_a, rc_b);
    }
    join(a, b, state);
}

/// The state as lanes 0–7 and 8–11 (lanes 12–15 zero).
#[inline(always)]
fn split(cpu: Avx512, s: &[Goldilocks; WIDTH]) -> (P, P) {
    let mut hi = [Goldilocks::ZERO; 8];
    hi[..4].copy_from_slice(&s[8..]);
    (lanes(cpu, s, 0), P::from_array(cpu, hi))
}

/// The inverse of [`split`].
#[inline(always)]
fn join(a: P, b: P, s: &mut [Goldilocks; WIDTH]) {
    s[..8].copy_from_slice(&a.to_array());
    s[8..].copy_from_slice(&b.to_array()[..4]);
}
