//! One permutation with its lanes in vector registers: the latency path
//! ([`super::Latency12::permute`]) on CPUs with AVX-512F, for matrices that are circulant plus
//! a diagonal with small entries (plonky2's and Plonky3's).
//!
//! A batch spreads independent states over the SIMD lanes; a single permutation (a sponge
//! absorbing, a Merkle path, the challenger) has only its own twelve lanes. Scalar, a full
//! round is 48 products for the S-boxes and 144 for the MDS layer. Here the circulant MDS
//! layer is `Σ_k CIRC[k]·rot_k(s) + DIAG·s`, with the rotations as lane moves and the products
//! of 32-bit halves summed unreduced.
//! - With IFMA (and so AVX-512VL), [`permute_ifma`]: the twelve lanes in three 256-bit
//!   registers ([`Goldilocks12Ifma`]), rotations as `valignq`, products as fused 52-bit
//!   multiply-adds into sums that start at the next round's constants.
//! - With AVX-512F alone, [`permute`]: lanes 0–7 and 8–11 in two 512-bit registers, rotations
//!   as two-source permutes ([`P::circulant12_small`]).
//!
//! Measured on a 2-core Zen 4 (a dependent chain, one thread): the eight full rounds took
//! about 1.08 µs scalar and 0.79 µs in two 512-bit registers on an earlier day; on
//! 2026-12-05, 0.75 µs in two 512-bit registers against 0.45 µs in three 256-bit ones (Zen 4
//! splits each 512-bit operation in two, so the eight-and-four layout paid for sixteen lanes,
//! and its rotations were twice as many two-source permutes). The partial rounds keep lane 0's chain and the dot products scalar and
//! update lanes 1..12 in two registers ([`PartialRoundsAvx512`]).

use crate::x86_64::{
    Avx512, Avx512Ifma, Goldilocks12Ifma, PackedGoldilocksAvx512 as P, SmallCirculant12,
    SplitConstants12,
};
use zkaccel_field::{Algebra, Field};

use super::partial::{PartialRounds12, LANES};
use super::{PARTIAL_ROUNDS, WIDTH};
use zkaccel_poseidon::{KernelConstants, PoseidonField};

use crate::Goldilocks;

/// A full round's MDS matrix as `M[r][j] = circ[(j − r) mod 12] + [r = j]·diag[r]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SmallCirculant {
    circ: [u32; WIDTH],
    diag: [u32; WIDTH],
}

impl SmallCirculant {
    /// The kernel's MDS matrix in that form, when it has it with entries small enough for
    /// both layers below (`Σ circ + max diag < 2^20`: the IFMA layer's bound, which implies
    /// the plain layer's `2^32`), a width of 12 and `x^7`.
    pub(crate) fn of(k: &KernelConstants<Goldilocks>) -> Option<Self> {
        let small = k.mds_small()?;
        if k.width() != WIDTH || k.alpha() != 7 || small.len() != WIDTH * WIDTH {
            return None;
        }
        let at = |r: usize, j: usize| small[r * WIDTH + j];
        // The diagonal's common part is the circulant's; the rest is `diag`.
        let c0 = (0..WIDTH).map(|r| at(r, r)).min()?;
        let circ: [u32; WIDTH] = core::array::from_fn(|j| if j == 0 { c0 } else { at(0, j) });
        let diag: [u32; WIDTH] = core::array::from_fn(|r| at(r, r) - c0);
        let fits = (0..WIDTH * WIDTH).all(|i| {
            let (r, j) = (i / WIDTH, i % WIDTH);
            let d = if r == j { diag[r] } else { 0 };
            at(r, j) == circ[(j + WIDTH - r) % WIDTH] + d
        });
        let bound = circ.iter().map(|&c| u64::from(c)).sum::<u64>()
            + diag.iter().map(|&d| u64::from(d)).max().unwrap_or(0);
        (fits && bound < 1 << 20).then_some(Self { circ, diag })
    }
}

/// `x^7` on every lane.
#[inline(always)]
fn sbox(x: P) -> P {
    let x2 = x * x;
    let x3 = x2 * x;
    let x4 = x2 * x2;
    x3 * x4
}

/// Eight lanes from `s[at..at + 8]`.
#[inline(always)]
fn lanes(cpu: Avx512, s: &[Goldilocks], at: usize) -> P {
    P::from_array(cpu, s[at..at + 8].try_into().expect("eight lanes"))
}

/// One full round on lanes `a` (0–7) and `b` (8–11; lanes 12–15 of `b` carry values no output
/// depends on): constants, S-boxes, MDS. (No closures: they would not inherit the caller's
/// `#[target_feature]`, and the packed operators would stop inlining.)
#[inline(always)]
fn full_round(mds: &SmallCirculant, a: &mut P, b: &mut P, rc_a: P, rc_b: P) {
    let x = sbox(*a + rc_a);
    let y = sbox(*b + rc_b);
    (*a, *b) = P::circulant12_small(x, y, &mds.circ, &mds.diag);
}

/// One permutation of `state` on AVX-512F alone: the twelve lanes as eight and four, the
/// MDS layers as [`P::circulant12_small`].
///
/// # Safety
/// None beyond `cpu` (which proves AVX-512F), `mds` being [`SmallCirculant::of`]`(k)` and
/// `partial` holding `k`'s partial rounds; the function is `unsafe` only because it is
/// compiled with `#[target_feature]`.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn permute(
    cpu: Avx512,
    k: &KernelConstants<Goldilocks>,
    mds: &SmallCirculant,
    partial: &PartialRoundsAvx512,
    state: &mut [Goldilocks; WIDTH],
) {
    debug_assert!(k.width() == WIDTH && k.alpha() == 7);
    let t = WIDTH;
    let half = k.half_full_rounds();
    let (mut a, mut b) = split(cpu, state);
    for r in 0..half {
        let (rc_a, rc_b) = split(
            cpu,
            k.full_round_constants()[r * t..(r + 1) * t]
                .try_into()
                .expect("a round"),
        );
        full_round(mds, &mut a, &mut b, rc_a, rc_b);
    }
    join(a, b, state);
    partial.apply(state);
    let (mut a, mut b) = split(cpu, state);
    for r in 0..half {
        let at = (half + r) * t;
        let (rc_a, rc_b) = split(
            cpu,
            k.full_round_constants()[at..at + t]
                .try_into()
                .expect("a round"),
        );
        full_round(mds, &mut a, &mut b, rc_a, rc_b);
    }
    join(a, b, state);
}

/// The full rounds' constants for [`permute_ifma`], which holds the twelve lanes in three
/// 256-bit registers ([`Goldilocks12Ifma`]): no lane is wasted (the eight-and-four layout
/// computes sixteen), the MDS rotations are one `valignq` each or none, and each round's
/// constants enter the previous MDS layer's unreduced sums instead of costing an addition.
#[derive(Debug, Clone)]
pub(crate) struct FullRoundsIfma {
    cpu: Avx512Ifma,
    mds: SmallCirculant12,
    /// Each half's first round constants, added before its first S-boxes.
    first: [[Goldilocks; WIDTH]; 2],
    /// Added by round `r`'s MDS layer: round `r + 1`'s constants, zero after each half's last
    /// round (the partial rounds and the output add nothing there).
    next: Vec<SplitConstants12>,
}

impl FullRoundsIfma {
    /// The full rounds of `k`, whose MDS matrix is `mds`.
    pub(crate) fn new(
        cpu: Avx512Ifma,
        k: &KernelConstants<Goldilocks>,
        mds: &SmallCirculant,
    ) -> Option<Self> {
        let half = k.half_full_rounds();
        let round = |r: usize| -> Option<[Goldilocks; WIDTH]> {
            k.full_round_constants()
                .get(r * WIDTH..(r + 1) * WIDTH)?
                .try_into()
                .ok()
        };
        let zero = [Goldilocks::ZERO; WIDTH];
        let next = (0..2 * half)
            .map(|r| {
                let constants = if (r + 1) % half == 0 {
                    zero
                } else {
                    round(r + 1)?
                };
                Some(SplitConstants12::new(&constants))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Self {
            cpu,
            mds: SmallCirculant12::new(&mds.circ, &mds.diag)?,
            first: [round(0)?, round(half)?],
            next,
        })
    }

    /// Half `h` (0 before the partial rounds, 1 after) of the full rounds on `state`.
    #[inline(always)]
    fn half(&self, h: usize, state: &mut [Goldilocks; WIDTH]) {
        let rounds = self.next.len() / 2;
        let mut s = Goldilocks12Ifma::from_array(self.cpu, state)
            + Goldilocks12Ifma::from_array(self.cpu, &self.first[h]);
        for next in &self.next[h * rounds..(h + 1) * rounds] {
            let x2 = s.square();
            let x3 = x2 * s;
            let x4 = x2.square();
            s = (x3 * x4).circulant_small_add(&self.mds, next);
        }
        *state = s.to_array();
    }
}

/// One permutation of `state` with the full rounds on [`FullRoundsIfma`].
///
/// # Safety
/// None beyond `full` (whose token proves AVX-512F, VL and IFMA) and `partial` being the same
/// instance's rounds; the function is `unsafe` only because it is compiled with
/// `#[target_feature]`.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
pub(crate) unsafe fn permute_ifma(
    full: &FullRoundsIfma,
    partial: &PartialRoundsAvx512,
    state: &mut [Goldilocks; WIDTH],
) {
    full.half(0, state);
    partial.apply(state);
    full.half(1, state);
}

/// One partial round's constants for [`PartialRoundsAvx512`].
#[derive(Debug, Clone, Copy)]
struct RoundAvx512 {
    /// Added to the S-box output (zero in the last round).
    scalar: Goldilocks,
    /// The next round's `M[0][0]·scalar` (zero after the last round).
    next_m00_scalar: Goldilocks,
    /// `Σ_c w_next[c]·v[c]` (zero in the last round).
    next_dot_s0: Goldilocks,
    /// `Σ_c w_next[c]·v_prev[c]`, with the previous round's `v` (zero in the first and the
    /// last round).
    next_dot_prev_s0: Goldilocks,
    /// The next round's `ŵ` (zero in the last round).
    w_next: [Goldilocks; LANES],
    /// The sparse matrix's first row without `M[0][0]`: lanes 1–8 and 9–11.
    v_a: P,
    v_b: P,
}

/// [`PartialRounds12`] with lanes 1..12 in two AVX-512 registers (lanes 1–8 and 9–11, the
/// other five zero). Scalar, a round is some 375 integer instructions, and the rounds are
/// bound by the four integer ALUs rather than by lane 0's chain (measured on Zen 4: about 96
/// cycles a round against a chain of about 45); the eleven lane updates (a multiply-add and a
/// reduction each) move to the vector units here. The dot products stay scalar (no sum
/// across lanes on the way back to lane 0), formed from the lanes of two rounds back, so that
/// a round's vector update and its store to the scalar copy are off the chain.
#[derive(Debug, Clone)]
pub(crate) struct PartialRoundsAvx512 {
    cpu: Avx512,
    first: [Goldilocks; WIDTH],
    /// `init_a[r]`, `init_b[r]`: input lane `r + 1`'s column of the dense first matrix, over
    /// output lanes 1–8 and 9–11.
    init_a: [P; LANES],
    init_b: [P; LANES],
    w_first: [Goldilocks; LANES],
    m00: Goldilocks,
    m00_scalar_first: Goldilocks,
    rounds: [RoundAvx512; PARTIAL_ROUNDS],
}

impl PartialRoundsAvx512 {
    /// The vector form of `partial`'s constants.
    pub(crate) fn new(cpu: Avx512, partial: &PartialRounds12) -> Self {
        let column =
            |r: usize| -> [Goldilocks; LANES] { core::array::from_fn(|c| partial.init_t[c][r]) };
        Self {
            cpu,
            first: partial.first,
            init_a: core::array::from_fn(|r| P::from_prefix(cpu, &column(r)[..8])),
            init_b: core::array::from_fn(|r| P::from_prefix(cpu, &column(r)[8..])),
            w_first: partial.w_first,
            m00: partial.m00,
            m00_scalar_first: partial.rounds[0].m00_scalar,
            rounds: core::array::from_fn(|i| {
                let round = &partial.rounds[i];
                let next = partial.rounds.get(i + 1);
                let next_dot_prev_s0 = match (i.checked_sub(1), next) {
                    (Some(prev), Some(_)) => {
                        Goldilocks::dot_product(&round.w_next, &partial.rounds[prev].v)
                    }
                    _ => Goldilocks::ZERO,
                };
                RoundAvx512 {
                    scalar: round.scalar,
                    next_m00_scalar: next.map_or(Goldilocks::ZERO, |n| n.m00_scalar),
                    next_dot_s0: round.next_dot_s0,
                    next_dot_prev_s0,
                    w_next: round.w_next,
                    v_a: P::from_prefix(cpu, &round.v[..8]),
                    v_b: P::from_prefix(cpu, &round.v[8..]),
                }
            }),
        }
    }

    /// The partial rounds on `state`.
    #[inline(always)]
    pub(crate) fn apply(&self, state: &mut [Goldilocks; WIDTH]) {
        let x: [Goldilocks; LANES] = core::array::from_fn(|i| state[i + 1] + self.first[i + 1]);
        let mut a = P::dot_constants16(&self.init_a, &x);
        let mut b = P::dot_constants16(&self.init_b, &x);
        // The lanes before this round's update, as scalars (16 words: two whole stores).
        let mut cur = [Goldilocks::ZERO; 16];
        a.write_prefix(&mut cur[..8]);
        b.write_prefix(&mut cur[8..]);
        let mut lane0 = state[0] + self.first[0];
        let mut acc = Goldilocks::dot_product(&cur[..LANES], &self.w_first) + self.m00_scalar_first;
        let mut prev = cur;
        let mut prev_s0 = Goldilocks::ZERO;
        for r in &self.rounds {
            let x2 = lane0.square();
            let x3 = x2 * lane0;
            let x4 = x2.square();
            let y = x3 * x4;
            lane0 = y.mul_add(self.m00, acc);
            let s0 = y + r.scalar;
            // The next round's dot product over lanes 1..12, from the lanes before the
            // previous round's update (`prev`, so the vector update and its store have two
            // rounds to land), plus the two S-box outputs' terms that the updates since fold in.
            acc = s0.mul_add(r.next_dot_s0, r.next_m00_scalar)
                + prev_s0.mul_add(
                    r.next_dot_prev_s0,
                    Goldilocks::dot_product(&prev[..LANES], &r.w_next),
                );
            prev = cur;
            prev_s0 = s0;
            let s = P::broadcast(self.cpu, s0);
            a += s * r.v_a;
            b += s * r.v_b;
            a.write_prefix(&mut cur[..8]);
            b.write_prefix(&mut cur[8..]);
        }
        state[0] = lane0;
        state[1..].copy_from_slice(&cur[..LANES]);
    }
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
