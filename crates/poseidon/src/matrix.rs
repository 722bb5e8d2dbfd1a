//! Small dense matrices over a field: the MDS layer, its inverse and the submatrices the
//! sparse partial rounds are derived from. Row-major, `n × n`.

use zkaccel_field::Field;

use crate::error::PoseidonError;

/// A square matrix, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix<F> {
    n: usize,
    entries: Vec<F>,
}

impl<F: Field> Matrix<F> {
    /// Wraps `n·n` row-major entries.
    ///
    /// # Errors
    /// [`PoseidonError::MdsShape`] when the entry count is not `n²`.
    pub fn new(n: usize, entries: Vec<F>) -> Result<Self, PoseidonError> {
        if entries.len() != n * n {
            return Err(PoseidonError::MdsShape {
                expected: n * n,
                actual: entries.len(),
            });
        }
        Ok(Self { n, entries })
    }

    /// Builds the matrix entry by entry.
    pub fn from_fn(n: usize, f: impl Fn(usize, usize) -> F) -> Self {
        Self {
            n,
            entries: (0..n * n).map(|k| f(k / n, k % n)).collect(),
        }
    }

    /// The identity.
    pub fn identity(n: usize) -> Self {
        Self::from_fn(n, |i, j| if i == j { F::ONE } else { F::ZERO })
    }

    /// The size `n`.
    pub fn size(&self) -> usize {
        self.n
    }

    /// Entry `(i, j)`.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> F {
        self.entries[i * self.n + j]
    }

    /// The row-major entries.
    pub fn entries(&self) -> &[F] {
        &self.entries
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[F] {
        &self.entries[i * self.n..(i + 1) * self.n]
    }

    /// The transpose.
    pub fn transpose(&self) -> Self {
        Self::from_fn(self.n, |i, j| self.get(j, i))
    }

    /// `self · other`.
    pub fn mul(&self, other: &Self) -> Self {
        Self::from_fn(self.n, |i, j| {
            (0..self.n).fold(F::ZERO, |acc, k| acc + self.get(i, k) * other.get(k, j))
        })
    }

    /// `M · v` (column vector).
    pub fn apply(&self, v: &[F]) -> Vec<F> {
        (0..self.n)
            .map(|i| {
                self.row(i)
                    .iter()
                    .zip(v)
                    .fold(F::ZERO, |acc, (&m, &x)| acc + m * x)
            })
            .collect()
    }

    /// `v · M` (row vector).
    pub fn apply_left(&self, v: &[F]) -> Vec<F> {
        (0..self.n)
            .map(|j| (0..self.n).fold(F::ZERO, |acc, i| acc + v[i] * self.get(i, j)))
            .collect()
    }

    /// The submatrix that drops the first row and column.
    pub fn minor_00(&self) -> Self {
        Self::from_fn(self.n - 1, |i, j| self.get(i + 1, j + 1))
    }

    /// The inverse, by Gauss–Jordan elimination.
    ///
    /// # Errors
    /// [`PoseidonError::MdsSingular`] when the matrix is singular.
    pub fn inverse(&self) -> Result<Self, PoseidonError> {
        let n = self.n;
        let mut a = self.entries.clone();
        let mut inv = Self::identity(n).entries;
        for col in 0..n {
            let pivot = (col..n)
                .find(|&r| !a[r * n + col].is_zero())
                .ok_or(PoseidonError::MdsSingular { size: n })?;
            if pivot != col {
                for k in 0..n {
                    a.swap(pivot * n + k, col * n + k);
                    inv.swap(pivot * n + k, col * n + k);
                }
            }
            let scale = a[col * n + col]
                .try_inverse()
                .ok_or(PoseidonError::MdsSingular { size: n })?;
            for k in 0..n {
                a[col * n + k] *= scale;
                inv[col * n + k] *= scale;
            }
            for r in 0..n {
                let factor = a[r * n + col];
                if r == col || factor.is_zero() {
                    continue;
                }
                for k in 0..n {
                    let (ak, ik) = (a[col * n + k], inv[col * n + k]);
                    a[r * n + k] -= factor * ak;
                    inv[r * n + k] -= factor * ik;
                }
            }
        }
        Ok(Self { n, entries: inv })
    }

    /// The Cauchy matrix `M[i][j] = 1 / (x_i + y_j)`.
    ///
    /// # Errors
    /// [`PoseidonError::MdsSingular`] when some `x_i + y_j = 0`.
    pub fn cauchy(xs: &[F], ys: &[F]) -> Result<Self, PoseidonError> {
        let n = xs.len();
        crate::limits::check("matrix size", n, crate::limits::MAX_WIDTH)?;
        let mut entries = Vec::with_capacity(n * n);
        for &x in xs {
            for &y in ys {
                entries.push(
                    (x + y)
                        .try_inverse()
                        .ok_or(PoseidonError::MdsSingular { size: n })?,
                );
            }
        }
        Ok(Self { n, entries })
    }
}
