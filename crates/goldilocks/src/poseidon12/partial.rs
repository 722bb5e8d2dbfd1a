//! The 22 partial rounds of a width-12 Goldilocks Poseidon on one state, scheduled for latency: the form of
//! `zkaccel_poseidon::kernels::partial_rounds_latency` (only the S-box and one multiply-add on the
//! chain from round to round; the next round's dot product and the lane updates beside it),
//! with every constant in a fixed-size array, so that the rounds compile to straight-line
//! scalar code with constant offsets and no bounds checks. The constants are the kernel's,
//! derived from the preset's round constants and MDS matrix (`KernelConstants::derive`).

use zkaccel_field::{Algebra, Field};

use super::{PARTIAL_ROUNDS, WIDTH};
use zkaccel_poseidon::{KernelConstants, PoseidonField};

use crate::Goldilocks;

/// Lanes `1..12`.
pub(super) const LANES: usize = WIDTH - 1;

/// One partial round's constants.
#[derive(Debug, Clone, Copy)]
pub(super) struct Round {
    /// Added to the S-box output (zero in the last round).
    pub(super) scalar: Goldilocks,
    /// `M[0][0]·scalar`.
    pub(super) m00_scalar: Goldilocks,
    /// The next round's `ŵ` (zero in the last round).
    pub(super) w_next: [Goldilocks; LANES],
    /// `Σ_c w_next[c]·v[c]` (zero in the last round).
    pub(super) next_dot_s0: Goldilocks,
    /// The sparse matrix's first row without `M[0][0]`.
    pub(super) v: [Goldilocks; LANES],
}

/// The partial rounds' constants in fixed-size arrays.
#[derive(Debug, Clone)]
pub(crate) struct PartialRounds12 {
    /// Added to the state first.
    pub(super) first: [Goldilocks; WIDTH],
    /// The dense matrix applied to lanes `1..12` first, transposed: `init_t[c][r]` multiplies
    /// input lane `r + 1` into output lane `c + 1`.
    pub(super) init_t: [[Goldilocks; LANES]; LANES],
    /// Round 0's `ŵ`.
    pub(super) w_first: [Goldilocks; LANES],
    pub(super) m00: Goldilocks,
    pub(super) rounds: [Round; PARTIAL_ROUNDS],
}

impl PartialRounds12 {
    /// The constants of `k`, when `k` is a width-12, `x^7` permutation with 22 partial rounds.
    pub(crate) fn new(k: &KernelConstants<Goldilocks>) -> Option<Self> {
        if k.width() != WIDTH || k.alpha() != 7 || k.partial_rounds() != PARTIAL_ROUNDS {
            return None;
        }
        let s = k.sparse_partial();
        let lanes = |v: &[Goldilocks], i: usize| -> [Goldilocks; LANES] {
            v[i * LANES..(i + 1) * LANES]
                .try_into()
                .expect("a row of the kernel's constants")
        };
        let zero = [Goldilocks::ZERO; LANES];
        let rounds = core::array::from_fn(|i| {
            let last = i + 1 == PARTIAL_ROUNDS;
            Round {
                scalar: s.scalars[i],
                m00_scalar: s.m00_scalars[i],
                w_next: if last { zero } else { lanes(s.w_hat, i + 1) },
                next_dot_s0: if last {
                    Goldilocks::ZERO
                } else {
                    s.next_dot_s0[i]
                },
                v: lanes(s.v, i),
            }
        });
        Some(Self {
            first: s.first.try_into().ok()?,
            init_t: core::array::from_fn(|c| core::array::from_fn(|r| s.init[r * LANES + c])),
            w_first: lanes(s.w_hat, 0),
            m00: *s.m00,
            rounds,
        })
    }

    /// The partial rounds on `state`.
    #[inline(always)]
    pub(crate) fn apply(&self, state: &mut [Goldilocks; WIDTH]) {
        for (x, c) in state.iter_mut().zip(&self.first) {
            *x += *c;
        }
        let mut lanes: [Goldilocks; LANES] =
            core::array::from_fn(|c| Goldilocks::dot_product(&state[1..], &self.init_t[c]));
        let mut lane0 = state[0];
        // Lane 0's dot product over lanes 1..12 for the coming round, formed a round early.
        let mut dot = Goldilocks::dot_product(&lanes, &self.w_first);
        for r in &self.rounds {
            let x2 = lane0.square();
            let x3 = x2 * lane0;
            let x4 = x2.square();
            let y = x3 * x4;
            lane0 = y.mul_add(self.m00, dot + r.m00_scalar);
            let s0 = y + r.scalar;
            dot = s0.mul_add(r.next_dot_s0, Goldilocks::dot_product(&lanes, &r.w_next));
            for (x, v) in lanes.iter_mut().zip(&r.v) {
                *x = s0.mul_add(*v, *x);
            }
        }
        state[0] = lane0;
        state[1..].copy_from_slice(&lanes);
    }
}
