//! The optimised permutation as **uniform rounds**, the form a hardware engine runs: every
//! round `r` is
//!
//! ```text
//! y = s + c_r;   z = S(y) on every lane (full rounds) or lane 0 (partial rounds);   s' = L_r·z
//! ```
//!
//! with one constant vector per round and a linear layer `L_r` that is the dense MDS matrix `M`
//! (full rounds), `D·M` (the last full round of the first half, `D = diag(1, M̂)` from the
//! sparse factorisation) or the sparse matrix of a partial round:
//!
//! ```text
//! s'_0 = Σ_j row_j·z_j,    s'_j = z_j + v_{j−1}·z_0   (j ≥ 1)
//! ```
//!
//! — `2t − 1` multiplications instead of `t²`, the reason an engine can reach Table I's rates
//! at t = 9 and 12 (AcclMT). It is the kernels' sparse form ([`crate::kernels`]) with the
//! constants moved so that each round adds one vector before its S-box: the scalar a kernel
//! adds after partial round `i`'s S-box becomes `scalar_i·L_r·e_0` in round `r + 1`'s
//! constants, and the constant vector added before the partial rounds becomes `D·first` in
//! the first partial round's. Same permutation, checked against the textbook one on every
//! preset.

use zkaccel_field::PrimeField;
use zkaccel_symmetric::sbox::pow_sbox;

use crate::error::PoseidonError;
use crate::matrix::Matrix;
use crate::params::PoseidonParams;
use crate::permutation::KernelConstants;

/// A round's linear layer ([`UniformRounds::linear`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinearLayer<'a, F> {
    /// A dense `t × t` matrix, `s'_i = Σ_j m[i][j]·z_j`.
    Dense(&'a Matrix<F>),
    /// A partial round's sparse matrix: `s'_0 = Σ_j row[j]·z_j`,
    /// `s'_j = z_j + v[j − 1]·z_0` for `j ≥ 1`.
    Sparse {
        /// The first row, `t` entries (`row[0] = M[0][0]`).
        row: &'a [F],
        /// The first column below the diagonal, `t − 1` entries.
        v: &'a [F],
    },
}

impl<F: PrimeField> LinearLayer<'_, F> {
    /// The layer's matrix entry `(i, j)`.
    pub fn get(&self, i: usize, j: usize) -> F {
        match *self {
            Self::Dense(m) => m.get(i, j),
            Self::Sparse { row, v } => match (i, j) {
                (0, _) => row[j],
                (_, 0) => v[i - 1],
                _ if i == j => F::ONE,
                _ => F::ZERO,
            },
        }
    }

    /// `L·z`.
    pub fn apply(&self, z: &[F]) -> Vec<F> {
        match *self {
            Self::Dense(m) => m.apply(z),
            Self::Sparse { row, v } => {
                let first = row.iter().zip(z).fold(F::ZERO, |acc, (&r, &x)| acc + r * x);
                core::iter::once(first)
                    .chain(z[1..].iter().zip(v).map(|(&x, &c)| x + c * z[0]))
                    .collect()
            }
        }
    }
}

/// The permutation as uniform rounds (the module's documentation).
#[derive(Debug, Clone)]
pub struct UniformRounds<F> {
    width: usize,
    alpha: u64,
    full_rounds: usize,
    partial_rounds: usize,
    /// `c_r`, `(R_F + R_P)·t`, round-major.
    constants: Vec<F>,
    mds: Matrix<F>,
    /// `D·M`, the last first-half full round's layer (`M` without partial rounds).
    mds_into_partial: Matrix<F>,
    /// Per partial round: its sparse matrix's first row (`t`), then `v` (`t − 1`).
    sparse: Vec<F>,
}

impl<F: PrimeField> UniformRounds<F> {
    /// Derives the uniform rounds from the textbook parameters (through the kernels' sparse
    /// factorisation).
    ///
    /// # Errors
    /// [`PoseidonError::MdsSingular`] when a submatrix of `M` is singular (never for a true
    /// MDS matrix).
    pub fn derive(p: &PoseidonParams<F>) -> Result<Self, PoseidonError> {
        let k = KernelConstants::derive(p)?;
        let t = p.width();
        let half = p.full_rounds() / 2;
        let rp = p.partial_rounds();
        let rc = |r: usize| &p.round_constants()[r * t..(r + 1) * t];
        let n = t - 1;
        // D = diag(1, M̂) in column form: D[c][r] = init[r − 1][c − 1].
        let d = if rp == 0 {
            Matrix::identity(t)
        } else {
            Matrix::from_fn(t, |c, r| match (c, r) {
                (0, 0) => F::ONE,
                (0, _) | (_, 0) => F::ZERO,
                _ => k.init[(r - 1) * n + (c - 1)],
            })
        };
        let sparse: Vec<F> = (0..rp)
            .flat_map(|i| {
                core::iter::once(k.m00)
                    .chain(k.w_hat[i * n..(i + 1) * n].iter().copied())
                    .chain(k.v[i * n..(i + 1) * n].iter().copied())
            })
            .collect();
        let mut constants = Vec::with_capacity((p.full_rounds() + rp) * t);
        for r in 0..half {
            constants.extend_from_slice(rc(r));
        }
        if rp > 0 {
            constants.extend(d.apply(&k.first));
        }
        // Round h + i + 1 adds scalar_i times partial round i's first column (s0's image).
        for i in 0..rp {
            let column = core::iter::once(k.m00).chain(k.v[i * n..(i + 1) * n].iter().copied());
            let scaled = column.map(|c| c * k.scalars[i]);
            if i + 1 < rp {
                constants.extend(scaled);
            } else if half > 0 {
                let base = rc(half + rp);
                constants.extend(base.iter().zip(scaled).map(|(&b, s)| b + s));
            }
        }
        let second_half_from = if rp > 0 && half > 0 { 1 } else { 0 };
        for r in half + rp + second_half_from..p.full_rounds() + rp {
            constants.extend_from_slice(rc(r));
        }
        debug_assert_eq!(constants.len(), (p.full_rounds() + rp) * t);
        Ok(Self {
            width: t,
            alpha: p.alpha(),
            full_rounds: p.full_rounds(),
            partial_rounds: rp,
            constants,
            mds: p.mds().clone(),
            mds_into_partial: d.mul(p.mds()),
            sparse,
        })
    }

    /// Width `t`.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The S-box exponent `α`.
    pub fn alpha(&self) -> u64 {
        self.alpha
    }

    /// `R_F`.
    pub fn full_rounds(&self) -> usize {
        self.full_rounds
    }

    /// `R_P`.
    pub fn partial_rounds(&self) -> usize {
        self.partial_rounds
    }

    /// `R_F + R_P`.
    pub fn rounds(&self) -> usize {
        self.full_rounds + self.partial_rounds
    }

    /// Whether round `r` is a full round.
    pub fn is_full(&self, r: usize) -> bool {
        let half = self.full_rounds / 2;
        r < half || r >= half + self.partial_rounds
    }

    /// Round `r`'s constants `c_r` (`t` entries), added before its S-box.
    ///
    /// # Panics
    /// When `r ≥ R_F + R_P`.
    pub fn constants(&self, r: usize) -> &[F] {
        &self.constants[r * self.width..(r + 1) * self.width]
    }

    /// Round `r`'s linear layer.
    ///
    /// # Panics
    /// When `r ≥ R_F + R_P`.
    pub fn linear(&self, r: usize) -> LinearLayer<'_, F> {
        assert!(r < self.rounds(), "round {r} of {}", self.rounds());
        let half = self.full_rounds / 2;
        let t = self.width;
        if self.is_full(r) {
            if r + 1 == half && self.partial_rounds > 0 {
                LinearLayer::Dense(&self.mds_into_partial)
            } else {
                LinearLayer::Dense(&self.mds)
            }
        } else {
            let i = r - half;
            let at = i * (2 * t - 1);
            LinearLayer::Sparse {
                row: &self.sparse[at..at + t],
                v: &self.sparse[at + t..at + 2 * t - 1],
            }
        }
    }

    /// Permutes one state round by round in this form (a reference for engines that run it).
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when `state.len() ≠ t`.
    pub fn permute(&self, state: &mut [F]) -> Result<(), PoseidonError> {
        if state.len() != self.width {
            return Err(PoseidonError::InputLength {
                expected: self.width,
                actual: state.len(),
            });
        }
        for r in 0..self.rounds() {
            for (s, &c) in state.iter_mut().zip(self.constants(r)) {
                *s += c;
            }
            let lanes = if self.is_full(r) { self.width } else { 1 };
            for s in &mut state[..lanes] {
                *s = pow_sbox(*s, self.alpha);
            }
            let next = self.linear(r).apply(state);
            state.copy_from_slice(&next);
        }
        Ok(())
    }
}
