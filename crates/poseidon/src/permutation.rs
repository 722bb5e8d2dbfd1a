//! The permutation: the textbook form (the definition) and the optimised form that every
//! kernel runs (sparse or linear partial rounds, derived from the textbook parameters), written
//! once over [`PackedField`], so that the scalar field, the portable [`Interleaved`] lanes
//! and every SIMD packing a field names share it.
//!
//! [`Interleaved`]: zkaccel_field::Interleaved

use core::any::Any;
use core::ops::Mul;
use std::sync::{Arc, PoisonError, RwLock};

use arrayvec::ArrayVec;

use zkaccel_field::PrimeField;

use crate::{PoseidonField, PoseidonPacking};
use zkaccel_symmetric::sbox::{pow_sbox, pow_sbox_with, SboxArithmetic};

use crate::error::PoseidonError;
use crate::matrix::Matrix;
use crate::params::PoseidonParams;

/// `x^d` on packed lanes, [`pow_sbox_with`]'s schedules with the squarings on
/// [`PoseidonPacking::square_for_throughput`].
#[inline(always)]
fn pow_lanes<P: PoseidonPacking>(x: P, d: u64) -> P {
    pow_sbox_with(&SboxLane(x), d).0
}

/// A packed value as [`pow_sbox_with`] sees it ([`pow_lanes`]).
#[derive(Clone, Copy)]
struct SboxLane<P>(P);

impl<P: PoseidonPacking> Mul for SboxLane<P> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(self.0 * rhs.0)
    }
}

impl<P: PoseidonPacking> SboxArithmetic for SboxLane<P> {
    #[inline(always)]
    fn sbox_square(&self) -> Self {
        Self(self.0.square_for_throughput())
    }
}

/// The constants of the optimised permutation, in the form a packing multiplies by
/// ([`PoseidonPacking::Constant`]).
#[derive(Debug, Clone)]
pub struct KernelConstants<C> {
    pub(crate) width: usize,
    pub(crate) alpha: u64,
    pub(crate) half_full_rounds: usize,
    pub(crate) partial_rounds: usize,
    /// Full-round constants, `R_F·t`, round-major (first half, then second half).
    pub(crate) full: Vec<C>,
    /// The MDS matrix, row-major.
    mds: Vec<C>,
    /// The MDS rows as small integers, when all entries are small.
    pub(crate) mds_small: Option<Vec<u32>>,
    /// Added to the whole state before the partial rounds.
    pub(crate) first: Vec<C>,
    /// The dense `(t−1)×(t−1)` matrix applied (row-vector form) before the partial rounds.
    pub(crate) init: Vec<C>,
    /// Added to lane 0 after each partial round's S-box (the last one is zero and skipped).
    pub(crate) scalars: Vec<C>,
    /// `M[0][0]`.
    pub(crate) m00: C,
    /// Per partial round: the sparse matrix's first row (without `M[0][0]`), `t − 1` entries.
    pub(crate) v: Vec<C>,
    /// Per partial round: its first column below the diagonal, `t − 1` entries.
    pub(crate) w_hat: Vec<C>,
    /// Per partial round: `[M[0][0], ŵ…]`, the row that computes the new lane 0.
    w_row: Vec<C>,
    /// Per partial round `i`: `M[0][0]·scalars[i]` (zero after the last round), the scalar's
    /// share of the new lane 0 ([`partial_rounds_latency`]).
    pub(crate) m00_scalars: Vec<C>,
    /// Per partial round `i < R − 1`: `Σ_c ŵ_{i+1}[c]·v_i[c]`, the coefficient of round `i`'s
    /// S-box output in round `i + 1`'s dot product ([`partial_rounds_latency`]).
    pub(crate) next_dot_s0: Vec<C>,
    /// Linear form, per partial round `i`: the coefficients of lanes `1..t` of the state
    /// entering the partial rounds in lane 0's new value `d_i`, `t − 1` entries.
    lin_x: Vec<C>,
    /// Linear form: the coefficient of `s0_q` (round `q`'s S-box output plus its scalar) in
    /// `d_i`, for `q < i`; row `i` starts at `i(i−1)/2`.
    lin_s: Vec<C>,
}

/// The partial rounds in the sparse form of the Poseidon paper's appendix B: the state plus
/// [`SparsePartial::first`], lanes `1..t` multiplied by the dense [`SparsePartial::init`], then
/// per round `i` the S-box on lane 0, [`SparsePartial::scalars`]`[i]` added to it, and the sparse
/// matrix `[[m00, v_i], [ŵ_i, I]]`. Per-round vectors are `t − 1` entries, round-major.
#[derive(Debug, Clone, Copy)]
pub struct SparsePartial<'a, C> {
    /// Added to the whole state first.
    pub first: &'a [C],
    /// The dense `(t−1)×(t−1)` matrix applied (row-vector form) to lanes `1..t` first.
    pub init: &'a [C],
    /// Added to lane 0 after each round's S-box (the last one is zero).
    pub scalars: &'a [C],
    /// `M[0][0]`.
    pub m00: &'a C,
    /// Per round: the sparse matrix's first row without `M[0][0]`.
    pub v: &'a [C],
    /// Per round: its first column below the diagonal.
    pub w_hat: &'a [C],
    /// Per round `i`: `M[0][0]·scalars[i]`, the scalar's share of the new lane 0.
    pub m00_scalars: &'a [C],
    /// Per round `i < R − 1`: `Σ_c ŵ_{i+1}[c]·v_i[c]`, the coefficient of round `i`'s S-box
    /// output in round `i + 1`'s dot product.
    pub next_dot_s0: &'a [C],
}

/// The partial rounds written as linear forms of their inputs, for kernels whose long dot
/// products are cheap (one reduction per sum).
///
/// Let `x` be the state entering the partial rounds plus [`LinearPartial::first`], and `s0_i`
/// the S-box output of round `i` plus `scalars[i]` (none after the last round), the S-box input
/// being `x_0` for round 0 and `d_{i−1}` after. Then
/// `d_i = m00·s0_i + Σ_{r≥1} x_coeffs[i][r−1]·x_r + Σ_{q<i} s0_coeffs[i][q]·s0_q`, the output
/// lane 0 is `d_{R−1}` and lane `c ≥ 1` is `Σ_{r≥1} init[r−1][c−1]·x_r + Σ_q v[q][c−1]·s0_q`.
#[derive(Debug, Clone, Copy)]
pub struct LinearPartial<'a, C> {
    /// Added to the whole state first.
    pub first: &'a [C],
    /// Added to `S(·)` in rounds `0..R−1`.
    pub scalars: &'a [C],
    /// `M[0][0]`.
    pub m00: &'a C,
    /// `R × (t−1)`, row-major.
    pub x_coeffs: &'a [C],
    /// Triangular: row `i` (`i` entries) starts at `i(i−1)/2`.
    pub s0_coeffs: &'a [C],
    /// `(t−1) × (t−1)`, row-major (row = input lane − 1).
    pub init: &'a [C],
    /// `R × (t−1)`, row-major.
    pub v: &'a [C],
}

impl<F: PrimeField> KernelConstants<F> {
    /// Derives the optimised form from the textbook parameters.
    ///
    /// Partial round `r` is `s ← S₀(s + c_r)·B` with `B = Mᵀ` (row-vector form). Constants are
    /// pushed backwards through `B⁻¹`: all but lane 0 of `c_{r+1}·B⁻¹` join `c_r`, lane 0
    /// becomes a scalar added after round `r`'s S-box. Matrices are factored from the last
    /// round backwards, `X = diag(1, M̂)·S` with `S` sparse (`[[x₀₀, v], [M̂⁻¹w, I]]`); the
    /// `diag(1, M̂)` factor commutes with `S₀` and merges into the previous round's `B`.
    ///
    /// # Errors
    /// [`PoseidonError::MdsSingular`] when a submatrix `M̂` is singular.
    pub fn derive(p: &PoseidonParams<F>) -> Result<Self, PoseidonError> {
        let t = p.width;
        let half = p.full_rounds / 2;
        let rp = p.partial_rounds;
        let rc = |r: usize| &p.round_constants[r * t..(r + 1) * t];
        let mut full = Vec::with_capacity(p.full_rounds * t);
        full.extend_from_slice(&p.round_constants[..half * t]);
        full.extend_from_slice(&p.round_constants[(half + rp) * t..]);
        let mds_small = small_entries(p.mds.entries(), t);

        let b = p.mds.transpose();
        let (mut first, mut init, mut scalars, mut v, mut w_hat) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        if rp > 0 {
            let b_inv = b.inverse()?;
            scalars = vec![F::ZERO; rp];
            let mut u = rc(half + rp - 1).to_vec();
            for r in (half + 1..half + rp).rev() {
                let pushed = b_inv.apply_left(&u);
                scalars[r - half - 1] = pushed[0];
                u = rc(r - 1).to_vec();
                for k in 1..t {
                    u[k] += pushed[k];
                }
            }
            first = u;

            v = vec![F::ZERO; rp * (t - 1)];
            w_hat = vec![F::ZERO; rp * (t - 1)];
            let mut x = b.clone();
            let mut m_hat = x.minor_00();
            for i in (0..rp).rev() {
                m_hat = x.minor_00();
                let w: Vec<F> = (1..t).map(|k| x.get(k, 0)).collect();
                let wh = m_hat.inverse()?.apply(&w);
                for k in 0..t - 1 {
                    v[i * (t - 1) + k] = x.get(0, k + 1);
                    w_hat[i * (t - 1) + k] = wh[k];
                }
                let diag = Matrix::from_fn(t, |r, c| match (r, c) {
                    (0, 0) => F::ONE,
                    (0, _) | (_, 0) => F::ZERO,
                    _ => m_hat.get(r - 1, c - 1),
                });
                x = b.mul(&diag);
            }
            init = m_hat.entries().to_vec();
        }
        let (lin_x, lin_s) = linear_partial_coefficients(t, rp, &init, &v, &w_hat);
        let m00 = b.get(0, 0);
        let m00_scalars = scalars.iter().map(|&c| m00 * c).collect();
        // Row `i + 1` of the triangular `lin_s` starts at `(i + 1)·i/2`; entry `q = i`.
        let next_dot_s0 = (0..rp.saturating_sub(1))
            .map(|i| lin_s[(i + 1) * i / 2 + i])
            .collect();
        Ok(Self {
            width: t,
            alpha: p.alpha,
            half_full_rounds: half,
            partial_rounds: rp,
            full,
            mds: p.mds.entries().to_vec(),
            mds_small,
            first,
            init,
            scalars,
            m00,
            w_row: (0..rp)
                .flat_map(|i| {
                    core::iter::once(b.get(0, 0))
                        .chain(w_hat[i * (t - 1)..(i + 1) * (t - 1)].iter().copied())
                })
                .collect(),
            m00_scalars,
            next_dot_s0,
            v,
            w_hat,
            lin_x,
            lin_s,
        })
    }

    /// The same constants in another representation (e.g. prepared for a SIMD broadcast).
    pub fn map<C: Copy>(&self, f: impl Fn(F) -> C) -> KernelConstants<C> {
        let m = |v: &Vec<F>| v.iter().map(|&x| f(x)).collect::<Vec<C>>();
        KernelConstants {
            width: self.width,
            alpha: self.alpha,
            half_full_rounds: self.half_full_rounds,
            partial_rounds: self.partial_rounds,
            full: m(&self.full),
            mds: m(&self.mds),
            mds_small: self.mds_small.clone(),
            first: m(&self.first),
            init: m(&self.init),
            scalars: m(&self.scalars),
            m00: f(self.m00),
            v: m(&self.v),
            w_hat: m(&self.w_hat),
            w_row: m(&self.w_row),
            m00_scalars: m(&self.m00_scalars),
            next_dot_s0: m(&self.next_dot_s0),
            lin_x: m(&self.lin_x),
            lin_s: m(&self.lin_s),
        }
    }
}

/// The coefficients of [`LinearPartial`]: with `s^(0) = x·diag(1, INIT)` and
/// `s^(i)_c = s^(0)_c + Σ_{q<i} v_q[c]·s0_q`, `d_i = m00·s0_i + Σ_c ŵ_i[c]·s^(i)_c` expands to
/// `x_coeffs[i][r] = Σ_c INIT[r][c]·ŵ_i[c]` and `s0_coeffs[i][q] = Σ_c ŵ_i[c]·v_q[c]`.
fn linear_partial_coefficients<F: PrimeField>(
    t: usize,
    rp: usize,
    init: &[F],
    v: &[F],
    w_hat: &[F],
) -> (Vec<F>, Vec<F>) {
    let n = t - 1;
    let mut lin_x = Vec::with_capacity(rp * n);
    let mut lin_s = Vec::with_capacity(rp * rp.saturating_sub(1) / 2);
    for i in 0..rp {
        let w = &w_hat[i * n..(i + 1) * n];
        for r in 0..n {
            lin_x.push((0..n).fold(F::ZERO, |acc, c| acc + init[r * n + c] * w[c]));
        }
        for q in 0..i {
            let vq = &v[q * n..(q + 1) * n];
            lin_s.push((0..n).fold(F::ZERO, |acc, c| acc + vq[c] * w[c]));
        }
    }
    (lin_x, lin_s)
}

impl<C> KernelConstants<C> {
    /// Width `t`.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The scalar added to lane 0 after partial round `i`'s S-box.
    pub fn partial_scalars(&self) -> &[C] {
        &self.scalars
    }

    /// Number of partial rounds `R_P`.
    pub fn partial_rounds(&self) -> usize {
        self.partial_rounds
    }

    /// The S-box exponent `α`.
    pub fn alpha(&self) -> u64 {
        self.alpha
    }

    /// Full rounds in each half (`R_F / 2`).
    pub fn half_full_rounds(&self) -> usize {
        self.half_full_rounds
    }

    /// The full rounds' constants, `R_F·t`, round-major (the first half's rounds, then the
    /// second's).
    pub fn full_round_constants(&self) -> &[C] {
        &self.full
    }

    /// The MDS matrix's rows as small integers, when every entry is below 2^20 and every row
    /// sums to less than 2^32 (for kernels that multiply by them without reduction).
    pub fn mds_small(&self) -> Option<&[u32]> {
        self.mds_small.as_deref()
    }

    /// The partial rounds in sparse form (empty slices when `R_P = 0`), for kernels that
    /// schedule them for latency.
    pub fn sparse_partial(&self) -> SparsePartial<'_, C> {
        SparsePartial {
            first: &self.first,
            init: &self.init,
            scalars: &self.scalars,
            m00: &self.m00,
            v: &self.v,
            w_hat: &self.w_hat,
            m00_scalars: &self.m00_scalars,
            next_dot_s0: &self.next_dot_s0,
        }
    }

    /// The partial rounds as linear forms (empty slices when `R_P = 0`).
    pub fn linear_partial(&self) -> LinearPartial<'_, C> {
        LinearPartial {
            first: &self.first,
            scalars: &self.scalars,
            m00: &self.m00,
            x_coeffs: &self.lin_x,
            s0_coeffs: &self.lin_s,
            init: &self.init,
            v: &self.v,
        }
    }
}

/// The entries as `u32` when every entry is below 2^20 and every row sums to less than 2^32
/// (canonical values).
fn small_entries<F: PrimeField>(entries: &[F], width: usize) -> Option<Vec<u32>> {
    let small: Vec<u32> = entries
        .iter()
        .map(|e| {
            let l = e.to_canonical_limbs();
            let l = l.as_ref();
            (l[1..].iter().all(|&w| w == 0) && l[0] < 1 << 20).then_some(l[0] as u32)
        })
        .collect::<Option<_>>()?;
    small
        .chunks(width)
        .all(|row| row.iter().map(|&c| c as u64).sum::<u64>() < 1 << 32)
        .then_some(small)
}

/// The largest width the stack-allocated kernels handle; wider instances use the textbook form.
pub const MAX_KERNEL_WIDTH: usize = 32;

/// One full round: constants, S-box on every lane, MDS (small-integer rows when the matrix
/// has them).
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(clippy::needless_range_loop)] // index loops mirror the round equations
fn full_round<P: PoseidonPacking, const W: usize>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
    tmp: &mut [P; MAX_KERNEL_WIDTH],
    rc: &[P::Constant],
) {
    // No closures here: a closure is a separate function that would not inherit the caller's
    // `#[target_feature]`s, and the SIMD operators would stop inlining.
    let t = width::<W>(k.width);
    for (s, c) in state.iter_mut().zip(rc) {
        *s = pow_lanes(*s + P::broadcast_constant(cpu, c), k.alpha);
    }
    match k.mds_small.as_deref() {
        Some(small) => {
            for i in 0..t {
                tmp[i] = P::dot_small_constants(cpu, state, &small[i * t..(i + 1) * t]);
            }
        }
        None => {
            // A chain of multiply-adds per row: the `t` rows are independent, so the chains
            // overlap (a balanced tree per row, which the partial rounds' lone row wants, ran
            // neptune's and circomlib's dense-matrix batches 10-14% slower on 256-bit fields).
            for i in 0..t {
                let row = &k.mds[i * t..(i + 1) * t];
                let mut acc = state[0] * P::broadcast_constant(cpu, &row[0]);
                for j in 1..t {
                    acc = P::mul_constant_add(cpu, state[j], &row[j], acc);
                }
                tmp[i] = acc;
            }
        }
    }
    state.copy_from_slice(&tmp[..t]);
}

impl<F: PrimeField + PoseidonField> KernelConstants<F> {
    /// Half of the full rounds (the first half, or the second if `second`) on one scalar
    /// state: for kernels that run the partial rounds with a schedule of their own.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] unless `W` is the permutation's width.
    #[inline(always)]
    pub fn full_rounds_half<const W: usize>(
        &self,
        state: &mut [F; W],
        second: bool,
    ) -> Result<(), PoseidonError> {
        if W != self.width || W > MAX_KERNEL_WIDTH {
            return Err(PoseidonError::InputLength {
                expected: self.width,
                actual: W,
            });
        }
        let base = if second { self.half_full_rounds * W } else { 0 };
        let mut tmp = [state[0]; MAX_KERNEL_WIDTH];
        for r in 0..self.half_full_rounds {
            let at = base + r * W;
            full_round::<F, W>(self, (), state, &mut tmp, &self.full[at..at + W]);
        }
        Ok(())
    }
}

/// The width as a compile-time constant when `W > 0` (so loops unroll and the state stays in
/// registers), else the run-time one.
#[inline(always)]
fn width<const W: usize>(runtime: usize) -> usize {
    if W > 0 {
        W
    } else {
        runtime
    }
}

/// How the partial rounds are computed.
#[cfg(feature = "kernels")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartialRounds {
    /// Per round one S-box, one dot product for lane 0 and `t − 1` multiply-adds
    /// ([`partial_rounds_sparse`]).
    Sparse,
    /// Lane 0's value after each round as one sum over the rounds' inputs, reduced once
    /// ([`partial_rounds_linear`]): for packings with [`PoseidonPacking::LAZY_SUMS`].
    Linear,
    /// The sparse rounds rescheduled so that only the S-box and one multiply-add lie on the
    /// chain from round to round ([`partial_rounds_latency`]): one permutation at a time.
    Latency,
}

#[cfg(feature = "kernels")]
impl PartialRounds {
    /// The form a packing `P` runs best.
    #[inline(always)]
    pub fn preferred<P: PoseidonPacking>() -> Self {
        if P::LAZY_SUMS {
            Self::Linear
        } else {
            Self::Sparse
        }
    }
}

/// One permutation of the lanes in `state` (length `t ≤ MAX_KERNEL_WIDTH`), optimised form,
/// with the packing's preferred partial rounds.
///
/// The form is chosen at compile time, so each packing's kernel holds only the form it runs.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn permute_lanes<P: PoseidonPacking>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
) {
    if P::LAZY_SUMS {
        permute_lanes_form::<P, LINEAR>(k, cpu, state);
    } else {
        permute_lanes_form::<P, SPARSE>(k, cpu, state);
    }
}

#[cfg(feature = "kernels")]
/// [`permute_lanes`] with the partial rounds in the form `partial`, whatever the packing
/// prefers (tests run both forms on every packing).
pub fn permute_lanes_with<P: PoseidonPacking>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
    partial: PartialRounds,
) {
    match partial {
        PartialRounds::Linear => permute_lanes_form::<P, LINEAR>(k, cpu, state),
        PartialRounds::Sparse => permute_lanes_form::<P, SPARSE>(k, cpu, state),
        PartialRounds::Latency => permute_lanes_form::<P, LATENCY>(k, cpu, state),
    }
}

/// The partial-round forms as const-generic tags (see [`PartialRounds`]).
const SPARSE: u8 = 0;
const LINEAR: u8 = 1;
const LATENCY: u8 = 2;

/// One permutation with the partial rounds in the form `FORM` (`SPARSE`, `LINEAR` or
/// `LATENCY`).
#[cfg_attr(not(debug_assertions), inline(always))]
fn permute_lanes_form<P: PoseidonPacking, const FORM: u8>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
) {
    match k.width {
        3 => permute_lanes_width::<P, 3, FORM>(k, cpu, state),
        5 => permute_lanes_width::<P, 5, FORM>(k, cpu, state),
        9 => permute_lanes_width::<P, 9, FORM>(k, cpu, state),
        12 => permute_lanes_width::<P, 12, FORM>(k, cpu, state),
        _ => permute_lanes_width::<P, 0, FORM>(k, cpu, state),
    }
}

/// One permutation for a width fixed at compile time (`W = t`), or any width (`W = 0`).
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(clippy::needless_range_loop)] // index loops mirror the round equations
fn permute_lanes_width<P: PoseidonPacking, const W: usize, const FORM: u8>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
) {
    let t = width::<W>(k.width);
    debug_assert_eq!(k.width, t);
    let state = &mut state[..t];
    let mut tmp = [state[0]; MAX_KERNEL_WIDTH];
    for r in 0..k.half_full_rounds {
        full_round::<P, W>(k, cpu, state, &mut tmp, &k.full[r * t..(r + 1) * t]);
    }
    if k.partial_rounds > 0 {
        match FORM {
            LINEAR => partial_rounds_linear::<P, W>(k, cpu, state, &mut tmp),
            LATENCY => partial_rounds_latency::<P, W>(k, cpu, state, &mut tmp),
            _ => partial_rounds_sparse::<P, W>(k, cpu, state, &mut tmp),
        }
    }
    let second = k.half_full_rounds * t;
    for r in 0..k.half_full_rounds {
        full_round::<P, W>(
            k,
            cpu,
            state,
            &mut tmp,
            &k.full[second + r * t..second + (r + 1) * t],
        );
    }
}

/// The partial rounds in sparse form: per round one S-box, one dot product for lane 0 and
/// `t − 1` multiply-adds.
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(clippy::needless_range_loop)] // index loops mirror the round equations
pub fn partial_rounds_sparse<P: PoseidonPacking, const W: usize>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
    tmp: &mut [P; MAX_KERNEL_WIDTH],
) {
    let t = width::<W>(k.width);
    for i in 0..t {
        state[i] += P::broadcast_constant(cpu, &k.first[i]);
    }
    // s ← s·diag(1, INIT)
    for c in 1..t {
        let mut acc = state[1] * P::broadcast_constant(cpu, &k.init[c - 1]);
        for r in 2..t {
            acc += state[r] * P::broadcast_constant(cpu, &k.init[(r - 1) * (t - 1) + c - 1]);
        }
        tmp[c] = acc;
    }
    state[1..t].copy_from_slice(&tmp[1..t]);
    for i in 0..k.partial_rounds {
        let mut s0 = pow_lanes(state[0], k.alpha);
        if i + 1 < k.partial_rounds {
            s0 += P::broadcast_constant(cpu, &k.scalars[i]);
        }
        let v = &k.v[i * (t - 1)..(i + 1) * (t - 1)];
        // d = M[0][0]·s0 + Σ ŵ_j·s_j
        state[0] = s0;
        let d = P::dot_constants(cpu, state, &k.w_row[i * t..(i + 1) * t]);
        for j in 1..t {
            state[j] = P::mul_constant_add(cpu, s0, &v[j - 1], state[j]);
        }
        state[0] = d;
    }
}

/// The partial rounds in sparse form, scheduled for one permutation's latency.
///
/// In [`partial_rounds_sparse`] lane 0's new value `d_i = M[0][0]·s0_i + Σ_c ŵ_i[c]·s_c` waits
/// for the S-box output `s0_i` and then for the whole dot product. Here the dot product over
/// lanes `1..t` is formed a round early, from the lanes before round `i − 1`'s update:
/// `P_i = Σ_c ŵ_i[c]·s_c + s0_{i−1}·Σ_c ŵ_i[c]·v_{i−1}[c]` (the second sum is a constant), and
/// the round's scalar enters as `M[0][0]·scalars[i]`, also a constant. From round to round the
/// chain is then the S-box and one multiply-add, `d_i = M[0][0]·S(d_{i−1}) + (P_i +
/// M[0][0]·scalars[i])`; the lane updates and the next round's dot product run beside it, at
/// the price of one more product per round than the sparse form (which batches, bound by
/// throughput rather than latency, keep).
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(clippy::needless_range_loop)] // index loops mirror the round equations
pub fn partial_rounds_latency<P: PoseidonPacking, const W: usize>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
    tmp: &mut [P; MAX_KERNEL_WIDTH],
) {
    let t = width::<W>(k.width);
    let n = t - 1;
    let rp = k.partial_rounds;
    for i in 0..t {
        state[i] += P::broadcast_constant(cpu, &k.first[i]);
    }
    // s ← s·diag(1, INIT)
    for c in 1..t {
        let mut acc = state[1] * P::broadcast_constant(cpu, &k.init[c - 1]);
        for r in 2..t {
            acc += state[r] * P::broadcast_constant(cpu, &k.init[(r - 1) * n + c - 1]);
        }
        tmp[c] = acc;
    }
    state[1..t].copy_from_slice(&tmp[1..t]);
    // P_0 (lanes 1..t only: the leading 0 of w_row would drop the M[0][0] term anyway).
    let mut dot = P::dot_constants(cpu, &state[1..t], &k.w_hat[..n]);
    for i in 0..rp {
        let y = pow_lanes(state[0], k.alpha);
        let dot_and_scalar = dot + P::broadcast_constant(cpu, &k.m00_scalars[i]);
        let d = P::mul_constant_add(cpu, y, &k.m00, dot_and_scalar);
        let s0 = if i + 1 < rp {
            // Round i + 1's dot product over the lanes before this round's update, plus
            // this round's S-box output times the constant that update folds in.
            let s0 = y + P::broadcast_constant(cpu, &k.scalars[i]);
            let early = P::dot_constants(cpu, &state[1..t], &k.w_hat[(i + 1) * n..(i + 2) * n]);
            dot = P::mul_constant_add(cpu, s0, &k.next_dot_s0[i], early);
            s0
        } else {
            y
        };
        let v = &k.v[i * n..(i + 1) * n];
        for j in 1..t {
            state[j] = P::mul_constant_add(cpu, s0, &v[j - 1], state[j]);
        }
        state[0] = d;
    }
}

/// The most partial rounds [`partial_rounds_linear`] handles (it keeps every round's S-box
/// output); beyond, it runs [`partial_rounds_sparse`].
pub const MAX_LINEAR_PARTIAL_ROUNDS: usize = 64;

/// Partial rounds whose S-box outputs [`partial_rounds_linear`] adds to the later rounds' sums
/// together.
const TRIANGLE_BLOCK: usize = 4;

/// The partial rounds in linear form ([`LinearPartial`]): lane 0's value after each round is
/// one sum of products of the round's inputs ([`PoseidonPacking::accumulate`]), reduced once, so
/// that only the S-box and that reduction lie on the dependency chain from round to round.
/// Falls back to [`partial_rounds_sparse`] beyond [`MAX_LINEAR_PARTIAL_ROUNDS`] rounds or
/// sums longer than the packing's [`PoseidonPacking::MAX_LAZY_TERMS`].
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(clippy::needless_range_loop)] // index loops mirror the round equations
pub fn partial_rounds_linear<P: PoseidonPacking, const W: usize>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    state: &mut [P],
    tmp: &mut [P; MAX_KERNEL_WIDTH],
) {
    let rp = k.partial_rounds;
    // Each sum holds one term per lane 1..t and one per round.
    if rp > MAX_LINEAR_PARTIAL_ROUNDS || k.width - 1 + rp > P::MAX_LAZY_TERMS {
        return partial_rounds_sparse::<P, W>(k, cpu, state, tmp);
    }
    let t = width::<W>(k.width);
    let n = t - 1;
    let lin = k.linear_partial();
    for i in 0..t {
        state[i] += P::broadcast_constant(cpu, &lin.first[i]);
    }
    // A sum whose terms all exist is built at once, in registers: the inputs' terms of every
    // round's sum here, the output lanes' sums at the end. The S-box outputs' terms join the
    // later rounds' sums as they appear (below), so that the only chain from round to round
    // is S-box → `m00` term → reduction. Only the sums in use are set up: arrays of the most
    // were cleared in full on every permutation (about 36 KiB for a pair of IFMA packings,
    // 2 % of a batch).
    let empty = P::empty_sum(cpu);
    let mut xs = ArrayVec::<P::Split, MAX_KERNEL_WIDTH>::new();
    for r in 1..t {
        xs.push(state[r].split(cpu));
    }
    let mut lane0_sums = ArrayVec::<P::Accumulator, MAX_LINEAR_PARTIAL_ROUNDS>::new();
    for i in 0..rp {
        let mut sum = empty;
        for r in 1..t {
            P::accumulate(cpu, &mut sum, &xs[r - 1], &lin.x_coeffs[i * n + r - 1]);
        }
        lane0_sums.push(sum);
    }
    // Round `q`'s S-box output joins the sums of the rounds after it in its block of
    // `TRIANGLE_BLOCK` rounds at once; the sums of later rounds take a whole block's outputs
    // in one pass when the block ends, loaded and stored once for them all.
    let coeff = |i: usize, q: usize| &lin.s0_coeffs[i * (i - 1) / 2 + q];
    let mut s0s = ArrayVec::<P::Split, MAX_LINEAR_PARTIAL_ROUNDS>::new();
    let mut lane0 = state[0];
    let mut block_start = 0;
    for q in 0..rp {
        let mut s0 = pow_lanes(lane0, k.alpha);
        if q + 1 < rp {
            s0 += P::broadcast_constant(cpu, &lin.scalars[q]);
        }
        let s = s0.split(cpu);
        let mut sum = lane0_sums[q];
        P::accumulate(cpu, &mut sum, &s, lin.m00);
        lane0 = P::reduce_sum(sum);
        s0s.push(s);
        let block_end = (block_start + TRIANGLE_BLOCK).min(rp);
        for i in q + 1..block_end {
            P::accumulate(cpu, &mut lane0_sums[i], &s, coeff(i, q));
        }
        if q + 1 == block_end {
            for i in block_end..rp {
                let mut sum = lane0_sums[i];
                for j in block_start..block_end {
                    P::accumulate(cpu, &mut sum, &s0s[j], coeff(i, j));
                }
                lane0_sums[i] = sum;
            }
            block_start = block_end;
        }
    }
    state[0] = lane0;
    for c in 1..t {
        let mut sum = empty;
        for r in 1..t {
            P::accumulate(cpu, &mut sum, &xs[r - 1], &lin.init[(r - 1) * n + c - 1]);
        }
        for q in 0..rp {
            P::accumulate(cpu, &mut sum, &s0s[q], &lin.v[q * n + c - 1]);
        }
        state[c] = P::reduce_sum(sum);
    }
}

/// The textbook permutation, round by round: add the round constants to every lane, apply the
/// S-box to every lane (full rounds) or lane 0 (partial rounds), multiply by `M`. This is the
/// definition the optimised kernels are tested against.
pub fn permute_textbook<F: PrimeField>(p: &PoseidonParams<F>, state: &mut [F]) {
    let t = p.width;
    let half = p.full_rounds / 2;
    for r in 0..p.full_rounds + p.partial_rounds {
        for (s, &c) in state.iter_mut().zip(&p.round_constants[r * t..(r + 1) * t]) {
            *s += c;
        }
        let full = r < half || r >= half + p.partial_rounds;
        let lanes = if full { t } else { 1 };
        for s in &mut state[..lanes] {
            *s = pow_sbox(*s, p.alpha);
        }
        let next = p.mds.apply(state);
        state.copy_from_slice(&next);
    }
}

/// A Poseidon permutation: the textbook parameters and their optimised form.
#[derive(Debug, Clone)]
pub struct Poseidon<F> {
    params: PoseidonParams<F>,
    kernel: KernelConstants<F>,
    converted: ConvertedConstants,
}

/// The kernel constants in the representations SIMD kernels use, one per representation type,
/// each made on first use and kept: converting them (hundreds of constants, thousands with
/// the linear form) can cost more than permuting a small batch. Clones of a permutation
/// share it.
#[derive(Clone, Default)]
struct ConvertedConstants(Arc<RwLock<Vec<Arc<dyn Any + Send + Sync>>>>);

impl core::fmt::Debug for ConvertedConstants {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let n = self.0.read().map_or(0, |v| v.len());
        write!(f, "ConvertedConstants({n} representations)")
    }
}

impl<F: PrimeField + PoseidonField> Poseidon<F> {
    /// Prepares the permutation.
    ///
    /// # Errors
    /// [`PoseidonError::MdsSingular`] when the sparse form cannot be derived (a singular
    /// submatrix of `M`; never for a true MDS matrix).
    pub fn new(params: PoseidonParams<F>) -> Result<Self, PoseidonError> {
        let kernel = KernelConstants::derive(&params)?;
        Ok(Self {
            params,
            kernel,
            converted: ConvertedConstants::default(),
        })
    }

    /// The textbook parameters.
    pub fn params(&self) -> &PoseidonParams<F> {
        &self.params
    }

    /// The optimised-form constants.
    pub fn kernel_constants(&self) -> &KernelConstants<F> {
        &self.kernel
    }

    /// The optimised-form constants converted by `convert` ([`KernelConstants::map`]), made
    /// on the first call for the representation `C` and kept with the permutation, so batch
    /// kernels pay the conversion once rather than on every call. `convert` must be the same
    /// function on every call for one `C` (the representation's only conversion).
    pub fn converted_constants<C>(&self, convert: impl Fn(F) -> C) -> Arc<KernelConstants<C>>
    where
        C: Copy + Send + Sync + 'static,
    {
        let find = |list: &[Arc<dyn Any + Send + Sync>]| {
            list.iter()
                .find_map(|k| Arc::clone(k).downcast::<KernelConstants<C>>().ok())
        };
        // A poisoned lock only means a conversion panicked elsewhere; the list is still whole.
        if let Some(k) = find(
            &self
                .converted
                .0
                .read()
                .unwrap_or_else(PoisonError::into_inner),
        ) {
            return k;
        }
        let mut list = self
            .converted
            .0
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(k) = find(&list) {
            return k;
        }
        let k = Arc::new(self.kernel.map(convert));
        list.push(Arc::clone(&k) as Arc<dyn Any + Send + Sync>);
        k
    }

    /// Width `t`.
    pub fn width(&self) -> usize {
        self.params.width
    }

    /// Permutes one state in place.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when `state.len() ≠ t`.
    pub fn permute(&self, state: &mut [F]) -> Result<(), PoseidonError> {
        self.check_len(state.len(), self.width())?;
        self.permute_unchecked(state);
        Ok(())
    }

    /// Permutes one state whose length the caller guarantees to be `t`.
    #[inline]
    pub(crate) fn permute_unchecked(&self, state: &mut [F]) {
        if self.width() > MAX_KERNEL_WIDTH {
            return permute_textbook(&self.params, state);
        }
        permute_lanes::<F>(&self.kernel, (), state);
    }

    /// Permutes the textbook way (slow; the reference).
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when `state.len() ≠ t`.
    pub fn permute_textbook(&self, state: &mut [F]) -> Result<(), PoseidonError> {
        self.check_len(state.len(), self.width())?;
        permute_textbook(&self.params, state);
        Ok(())
    }

    /// Permutes many states stored back to back (`states.len()` a multiple of `t`) on all
    /// cores, each core on the widest packing of the field its CPU offers
    /// ([`zkaccel_field::Field::run_packed`]).
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when the length is not a multiple of `t` (nothing is
    /// permuted).
    pub fn permute_many(&self, states: &mut [F]) -> Result<(), PoseidonError> {
        crate::batch::permute_many_parallel(self, states)
    }

    /// Checks that `len` elements are whole states.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] (the next multiple of the width expected) otherwise.
    pub(crate) fn check_states(&self, len: usize) -> Result<(), PoseidonError> {
        let t = self.width();
        if !len.is_multiple_of(t) {
            return Err(PoseidonError::InputLength {
                expected: len.div_ceil(t) * t,
                actual: len,
            });
        }
        Ok(())
    }

    /// As [`Poseidon::permute_many`] on the calling thread only.
    ///
    /// # Errors
    /// As [`Poseidon::permute_many`].
    pub fn permute_many_single_thread(&self, states: &mut [F]) -> Result<(), PoseidonError> {
        self.permute_many_within(usize::MAX, states)
    }

    /// As [`Poseidon::permute_many_single_thread`] on packings of at most `max_lanes` lanes
    /// (`0` and `1`: the portable kernel, [`crate::INTERLEAVE`] states advanced together):
    /// the widest such packing takes the whole groups, narrower ones the rest. Tests and
    /// benchmarks compare the packings of [`zkaccel_field::Field::packing_widths`] this way.
    ///
    /// # Errors
    /// As [`Poseidon::permute_many`].
    pub fn permute_many_within(
        &self,
        max_lanes: usize,
        states: &mut [F],
    ) -> Result<(), PoseidonError> {
        self.check_states(states.len())?;
        crate::batch::permute_many_within(self, max_lanes, states);
        Ok(())
    }

    fn check_len(&self, actual: usize, expected: usize) -> Result<(), PoseidonError> {
        if actual != expected {
            return Err(PoseidonError::InputLength { expected, actual });
        }
        Ok(())
    }
}

impl<F: PrimeField + PoseidonField> zkaccel_symmetric::Permutation<F> for Poseidon<F> {
    type Error = PoseidonError;
    fn width(&self) -> usize {
        Poseidon::width(self)
    }
    fn name(&self) -> String {
        format!(
            "poseidon-{}-{}",
            zkaccel_symmetric::name_slug(F::NAME),
            Poseidon::width(self)
        )
    }
    fn permute_mut(&self, state: &mut [F]) -> Result<(), PoseidonError> {
        self.permute(state)
    }
    fn permute_many(&self, states: &mut [F]) -> Result<(), PoseidonError> {
        Poseidon::permute_many(self, states)
    }
}
