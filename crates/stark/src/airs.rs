//! The AIRs zkaccel ships: starky's Fibonacci and UniZK's Factorial, with their traces.

use zkaccel_field::Field;

use crate::air::{Air, ConstraintBuilder};
use crate::StarkError;

/// starky's `FibonacciStark`: two columns `[x0, x1]`, row `k` = `[F_k, F_{k+1}]` of the
/// sequence seeded with the public inputs `x0, x1`; the third public input is the last row's
/// `x1`. Degree 2 (the transition filter times a linear constraint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FibonacciAir;

impl FibonacciAir {
    /// The trace of `rows` rows from `x0, x1` (column-major) and its public inputs.
    ///
    /// # Errors
    /// [`StarkError::TraceRows`] unless `rows` is a power of two of at least 2.
    pub fn trace<F: Field>(rows: usize, x0: F, x1: F) -> Result<(Vec<Vec<F>>, Vec<F>), StarkError> {
        check_rows(rows)?;
        let mut a = Vec::with_capacity(rows);
        let mut b = Vec::with_capacity(rows);
        let (mut u, mut v) = (x0, x1);
        for _ in 0..rows {
            a.push(u);
            b.push(v);
            (u, v) = (v, u + v);
        }
        let result = b[rows - 1];
        Ok((vec![a, b], vec![x0, x1, result]))
    }
}

impl Air for FibonacciAir {
    fn columns(&self) -> usize {
        2
    }
    fn public_inputs(&self) -> usize {
        3
    }
    fn constraint_degree(&self) -> usize {
        2
    }
    #[inline(always)]
    fn eval<B: ConstraintBuilder>(&self, b: &mut B) {
        let (l, n, p) = (b.local(), b.next(), b.public_inputs());
        let (l0, l1, n0, n1) = (l[0], l[1], n[0], n[1]);
        let (p0, p1, p2) = (p[0], p[1], p[2]);
        b.constraint_first_row(l0 - p0);
        b.constraint_first_row(l1 - p1);
        b.constraint_last_row(l1 - p2);
        b.constraint_transition(n0 - l1);
        b.constraint_transition(n1 - l0 - l1);
    }
}

/// UniZK's `FactorialStark`: two columns, row `k` = `[k + 2, (k + 1)!]`; the public input is
/// the last row's second column, `n!` for `n` rows. Transitions `next₀ = cur₀ + 1` and
/// `next₁ = cur₀·cur₁`, degree 3. As in UniZK, the first row is not constrained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FactorialAir;

impl FactorialAir {
    /// The trace of `rows` rows (column-major) and its public input.
    ///
    /// # Errors
    /// [`StarkError::TraceRows`] unless `rows` is a power of two of at least 2.
    pub fn trace<F: Field>(rows: usize) -> Result<(Vec<Vec<F>>, Vec<F>), StarkError> {
        check_rows(rows)?;
        let mut a = Vec::with_capacity(rows);
        let mut b = Vec::with_capacity(rows);
        let (mut i, mut acc) = (F::TWO, F::ONE);
        for _ in 0..rows {
            a.push(i);
            b.push(acc);
            (i, acc) = (i + F::ONE, i * acc);
        }
        let result = b[rows - 1];
        Ok((vec![a, b], vec![result]))
    }
}

impl Air for FactorialAir {
    fn columns(&self) -> usize {
        2
    }
    fn public_inputs(&self) -> usize {
        1
    }
    fn constraint_degree(&self) -> usize {
        3
    }
    #[inline(always)]
    fn eval<B: ConstraintBuilder>(&self, b: &mut B) {
        let (l, n, p) = (b.local(), b.next(), b.public_inputs());
        let (l0, l1, n0, n1, p0) = (l[0], l[1], n[0], n[1], p[0]);
        let one = b.one();
        b.constraint_last_row(l1 - p0);
        b.constraint_transition(n0 - l0 - one);
        b.constraint_transition(n1 - l0 * l1);
    }
}

fn check_rows(rows: usize) -> Result<(), StarkError> {
    if rows < 2 || !rows.is_power_of_two() {
        return Err(StarkError::TraceRows { rows });
    }
    Ok(())
}
