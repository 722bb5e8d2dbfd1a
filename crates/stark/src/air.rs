//! Algebraic intermediate representations: the constraints a trace must satisfy.

use zkaccel_field::Field;

/// A row of the trace and the next one, with the public inputs, as a constraint sees them: in
/// the base field on the LDE coset (the prover's quotient) or in the extension at a challenge
/// point (the openings).
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a, T> {
    /// The current row's columns.
    pub local: &'a [T],
    /// The next row's columns (the first row after the last).
    pub next: &'a [T],
    /// The public inputs.
    pub public_inputs: &'a [T],
}

/// Collects constraint values into one random linear combination per challenge, as starky's
/// `ConstraintConsumer` does (Horner in emission order: the first constraint ends with the
/// highest power of `α`), each multiplied by its row filter.
#[derive(Debug, Clone)]
pub struct ConstraintConsumer<T> {
    alphas: Vec<T>,
    accumulators: Vec<T>,
    z_last: T,
    lagrange_first: T,
    lagrange_last: T,
    /// Checking a row: the number of constraints seen, and the first that did not vanish.
    checking: Option<(usize, Option<usize>)>,
}

impl<T: Field> ConstraintConsumer<T> {
    /// A consumer for the challenges `alphas` at a point `x` where `x − g^{-1}` is `z_last`
    /// and the first and last Lagrange selectors take the given values.
    pub fn new(alphas: Vec<T>, z_last: T, lagrange_first: T, lagrange_last: T) -> Self {
        Self {
            accumulators: vec![T::ZERO; alphas.len()],
            alphas,
            z_last,
            lagrange_first,
            lagrange_last,
            checking: None,
        }
    }

    /// A consumer that checks one row of a trace instead of combining: each constraint's
    /// value (with its filter) must be zero; [`ConstraintConsumer::first_violation`] names
    /// the first that is not.
    pub(crate) fn checking_row(is_first: bool, is_last: bool) -> Self {
        let bit = |b: bool| if b { T::ONE } else { T::ZERO };
        Self {
            alphas: Vec::new(),
            accumulators: Vec::new(),
            z_last: bit(!is_last),
            lagrange_first: bit(is_first),
            lagrange_last: bit(is_last),
            checking: Some((0, None)),
        }
    }

    /// In a row check, the index (in emission order) of the first constraint that did not
    /// vanish.
    pub(crate) fn first_violation(&self) -> Option<usize> {
        self.checking.and_then(|(_, v)| v)
    }

    /// Starts over at another point, keeping the challenges (the prover's quotient loop
    /// reuses one consumer per thread instead of allocating one per point).
    pub(crate) fn reset(&mut self, z_last: T, lagrange_first: T, lagrange_last: T) {
        self.accumulators.iter_mut().for_each(|a| *a = T::ZERO);
        self.z_last = z_last;
        self.lagrange_first = lagrange_first;
        self.lagrange_last = lagrange_last;
    }

    /// The combinations so far, one per challenge.
    pub(crate) fn current(&self) -> &[T] {
        &self.accumulators
    }

    /// The combinations, one per challenge.
    pub fn accumulators(self) -> Vec<T> {
        self.accumulators
    }

    /// A constraint on every row.
    pub fn constraint(&mut self, c: T) {
        if let Some((seen, violation)) = &mut self.checking {
            if violation.is_none() && !c.is_zero() {
                *violation = Some(*seen);
            }
            *seen += 1;
        }
        for (acc, &alpha) in self.accumulators.iter_mut().zip(&self.alphas) {
            *acc = *acc * alpha + c;
        }
    }

    /// A constraint on every row but the last (between a row and the next).
    pub fn constraint_transition(&mut self, c: T) {
        self.constraint(c * self.z_last);
    }

    /// A constraint on the first row.
    pub fn constraint_first_row(&mut self, c: T) {
        self.constraint(c * self.lagrange_first);
    }

    /// A constraint on the last row.
    pub fn constraint_last_row(&mut self, c: T) {
        self.constraint(c * self.lagrange_last);
    }
}

/// An AIR: a trace of [`Air::columns`] columns and `2^k` rows, public inputs, and
/// constraints of degree at most [`Air::constraint_degree`] between a row and the next.
///
/// [`Air::eval`] emits the constraints in a fixed order (the order changes the proof); it is
/// written once and evaluated in the base field (the prover, on the coset) and in the
/// extension (at the challenge points).
pub trait Air: Sync {
    /// Columns of the trace.
    fn columns(&self) -> usize;
    /// Public inputs.
    fn public_inputs(&self) -> usize;
    /// The largest degree of a constraint as a polynomial in the trace values (at least 1;
    /// with the row filters of transitions and boundaries counted, as starky counts them).
    fn constraint_degree(&self) -> usize;
    /// Emits every constraint on `frame` into `consumer`.
    fn eval<T: Field>(&self, frame: &Frame<'_, T>, consumer: &mut ConstraintConsumer<T>);

    /// The quotient's degree as a multiple of the trace length: `max(1, degree − 1)`.
    fn quotient_degree_factor(&self) -> usize {
        self.constraint_degree().saturating_sub(1).max(1)
    }
}
