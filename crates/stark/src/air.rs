//! Algebraic intermediate representations: the constraints a trace must satisfy, and the
//! builders an AIR emits them into.

use zkaccel_field::{Algebra, Field};

/// What an AIR sees while it emits its constraints: a row of the trace and the next one, the
/// public inputs, and four ways to constrain a value to zero (on every row, between a row
/// and the next, on the first row, on the last row).
///
/// One AIR is evaluated through several builders, each with its own [`Self::Expr`]:
/// - the prover's quotient combines the constraints with each challenge on packed lanes of
///   the LDE coset (`Expr` is a SIMD vector of base-field elements);
/// - the verifier and the constraint binding combine them at an extension point (`Expr` is
///   an extension element);
/// - the trace check records each constraint's value on a row of the trace;
/// - the kernel-trace op counter runs the quotient's own code over elements that log their
///   operations;
/// - [`check_constraint_degrees`](crate::check_constraint_degrees) records every
///   constraint over a random low-degree trace and measures its degree.
///
/// The order of the calls is the order of the constraints, which changes the proof (as in
/// starky's `ConstraintConsumer`: Horner in emission order, the first constraint ending with
/// the highest power of each challenge).
pub trait ConstraintBuilder {
    /// The base field: constants and public inputs are its elements.
    type F: Field;
    /// The values constraints are computed in.
    type Expr: Algebra;

    /// The current row's columns.
    fn local(&self) -> &[Self::Expr];
    /// The next row's columns (the first row after the last).
    fn next(&self) -> &[Self::Expr];
    /// The public inputs.
    fn public_inputs(&self) -> &[Self::Expr];
    /// A base-field constant as a value.
    fn constant(&self, c: Self::F) -> Self::Expr;

    /// Constrains `c` to vanish on every row.
    fn constraint(&mut self, c: Self::Expr);
    /// Constrains `c` to vanish on every row but the last (between a row and the next).
    fn constraint_transition(&mut self, c: Self::Expr);
    /// Constrains `c` to vanish on the first row.
    fn constraint_first_row(&mut self, c: Self::Expr);
    /// Constrains `c` to vanish on the last row.
    fn constraint_last_row(&mut self, c: Self::Expr);

    /// The constant one.
    fn one(&self) -> Self::Expr {
        self.constant(Self::F::ONE)
    }
}

/// An AIR: a trace of [`Air::columns`] columns and `2^k` rows, public inputs, and
/// constraints of degree at most [`Air::constraint_degree`] between a row and the next.
///
/// [`Air::eval`] is written once over a [`ConstraintBuilder`]; mark it `#[inline(always)]`:
/// the prover's packed evaluation is compiled with the vector instructions it chose at run
/// time only where the evaluation is inlined into it (left out of line, a packed product is
/// emulated; `PERF.md` has the shipped AIRs' quotient both ways).
/// Run [`check_constraint_degrees`](crate::check_constraint_degrees) in the AIR's tests: it
/// names a constraint whose degree exceeds the declared one.
pub trait Air: Sync {
    /// Columns of the trace.
    fn columns(&self) -> usize;
    /// Public inputs.
    fn public_inputs(&self) -> usize;
    /// The largest degree of a constraint as a polynomial in the trace values (at least 1;
    /// with the row filters of transitions and boundaries counted, as starky counts them).
    fn constraint_degree(&self) -> usize;
    /// Emits every constraint into `builder`, in a fixed order.
    fn eval<B: ConstraintBuilder>(&self, builder: &mut B);

    /// The quotient's degree as a multiple of the trace length: `max(1, degree − 1)`.
    fn quotient_degree_factor(&self) -> usize {
        self.constraint_degree().saturating_sub(1).max(1)
    }
}

/// The builder that combines the constraints into one random linear combination per
/// challenge (starky's `ConstraintConsumer`), each multiplied by its row filter: the
/// prover's quotient (on packed lanes), the verifier's check and the op counter.
#[derive(Debug)]
pub(crate) struct Combiner<'a, F, P, L> {
    pub(crate) local: &'a [P],
    pub(crate) next: &'a [P],
    pub(crate) public_inputs: &'a [P],
    pub(crate) alphas: &'a [P],
    pub(crate) accumulators: &'a mut [P],
    pub(crate) z_last: P,
    pub(crate) lagrange_first: P,
    pub(crate) lagrange_last: P,
    /// A base-field constant as a value of `P`.
    pub(crate) lift: L,
    pub(crate) _field: core::marker::PhantomData<F>,
}

impl<F: Field, P: Algebra, L: Fn(F) -> P> ConstraintBuilder for Combiner<'_, F, P, L> {
    type F = F;
    type Expr = P;

    #[inline(always)]
    fn local(&self) -> &[P] {
        self.local
    }
    #[inline(always)]
    fn next(&self) -> &[P] {
        self.next
    }
    #[inline(always)]
    fn public_inputs(&self) -> &[P] {
        self.public_inputs
    }
    #[inline(always)]
    fn constant(&self, c: F) -> P {
        (self.lift)(c)
    }
    #[inline(always)]
    fn constraint(&mut self, c: P) {
        for (acc, &alpha) in self.accumulators.iter_mut().zip(self.alphas) {
            *acc = *acc * alpha + c;
        }
    }
    #[inline(always)]
    fn constraint_transition(&mut self, c: P) {
        self.constraint(c * self.z_last);
    }
    #[inline(always)]
    fn constraint_first_row(&mut self, c: P) {
        self.constraint(c * self.lagrange_first);
    }
    #[inline(always)]
    fn constraint_last_row(&mut self, c: P) {
        self.constraint(c * self.lagrange_last);
    }
}

/// The builder that records each constraint's value, its row filter applied, in emission
/// order: the trace check (filters 0 or 1 on a row of the trace) and the degree checker
/// (filters as polynomials on an LDE).
#[derive(Debug)]
pub(crate) struct Recorder<'a, F> {
    pub(crate) local: &'a [F],
    pub(crate) next: &'a [F],
    pub(crate) public_inputs: &'a [F],
    pub(crate) z_last: F,
    pub(crate) lagrange_first: F,
    pub(crate) lagrange_last: F,
    /// The values, in emission order (the caller's buffer, reused row after row).
    pub(crate) values: &'a mut Vec<F>,
}

impl<'a, F: Field> Recorder<'a, F> {
    /// A recorder on row `row` of `rows` (the filters are 0 or 1), into `values`, emptied.
    pub(crate) fn on_row(
        local: &'a [F],
        next: &'a [F],
        public_inputs: &'a [F],
        row: usize,
        rows: usize,
        values: &'a mut Vec<F>,
    ) -> Self {
        let bit = |b: bool| if b { F::ONE } else { F::ZERO };
        values.clear();
        Self {
            local,
            next,
            public_inputs,
            z_last: bit(row + 1 != rows),
            lagrange_first: bit(row == 0),
            lagrange_last: bit(row + 1 == rows),
            values,
        }
    }

    /// The index (in emission order) of the first constraint that did not vanish.
    pub(crate) fn first_violation(&self) -> Option<usize> {
        self.values.iter().position(|v| !v.is_zero())
    }
}

impl<F: Field> ConstraintBuilder for Recorder<'_, F> {
    type F = F;
    type Expr = F;

    fn local(&self) -> &[F] {
        self.local
    }
    fn next(&self) -> &[F] {
        self.next
    }
    fn public_inputs(&self) -> &[F] {
        self.public_inputs
    }
    fn constant(&self, c: F) -> F {
        c
    }
    fn constraint(&mut self, c: F) {
        self.values.push(c);
    }
    fn constraint_transition(&mut self, c: F) {
        self.values.push(c * self.z_last);
    }
    fn constraint_first_row(&mut self, c: F) {
        self.values.push(c * self.lagrange_first);
    }
    fn constraint_last_row(&mut self, c: F) {
        self.values.push(c * self.lagrange_last);
    }
}
