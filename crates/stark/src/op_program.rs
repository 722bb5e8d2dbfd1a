//! Field elements that log their operations, for the per-point programs of kernel traces:
//! the prover's own code is run once over [`Counted`] elements, which log every field
//! operation in order and whether its operands vary from point to point (the trace values
//! and row filters) or are the same for every point (challenges, public inputs, constants).

use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use std::cell::RefCell;

use zkaccel_field::{Algebra, Field};
use zkaccel_kernel_trace::{VectorForm, VectorOp, VectorOpKind};

thread_local! {
    static LOG: RefCell<Vec<VectorOp>> = const { RefCell::new(Vec::new()) };
}

/// A field element that logs the operations it takes part in.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Counted<F> {
    value: F,
    varying: bool,
}

impl<F: Field> Counted<F> {
    /// A value that is the same at every point.
    pub(crate) fn constant(value: F) -> Self {
        Self {
            value,
            varying: false,
        }
    }

    /// A value that changes from point to point.
    pub(crate) fn varying(value: F) -> Self {
        Self {
            value,
            varying: true,
        }
    }

    fn log(op: VectorOpKind, a: Self, b: Self, value: F) -> Self {
        let form = if a.varying && b.varying {
            VectorForm::Vv
        } else {
            VectorForm::Vs
        };
        LOG.with(|l| l.borrow_mut().push(VectorOp { op, form, ext: 1 }));
        Self {
            value,
            varying: a.varying || b.varying,
        }
    }
}

impl<F: fmt::Debug> fmt::Debug for Counted<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<F: fmt::Display> fmt::Display for Counted<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<F: Field> Add for Counted<F> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self::log(VectorOpKind::Add, self, rhs, self.value + rhs.value)
    }
}

impl<F: Field> Sub for Counted<F> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self::log(VectorOpKind::Sub, self, rhs, self.value - rhs.value)
    }
}

impl<F: Field> Mul for Counted<F> {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        Self::log(VectorOpKind::Mul, self, rhs, self.value * rhs.value)
    }
}

impl<F: Field> Neg for Counted<F> {
    type Output = Self;
    fn neg(self) -> Self {
        // A negation is a subtraction from zero.
        Self::log(
            VectorOpKind::Sub,
            Self::constant(F::ZERO),
            self,
            -self.value,
        )
    }
}

impl<F: Field> AddAssign for Counted<F> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<F: Field> SubAssign for Counted<F> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<F: Field> MulAssign for Counted<F> {
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

impl<F: Field> Sum for Counted<F> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::constant(F::ZERO), |a, b| a + b)
    }
}

impl<F: Field> Product for Counted<F> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::constant(F::ONE), |a, b| a * b)
    }
}

impl<F: Field> Algebra for Counted<F> {}

impl<F: Field> Field for Counted<F> {
    const ZERO: Self = Self {
        value: F::ZERO,
        varying: false,
    };
    const ONE: Self = Self {
        value: F::ONE,
        varying: false,
    };
    const TWO: Self = Self {
        value: F::TWO,
        varying: false,
    };
    const NEG_ONE: Self = Self {
        value: F::NEG_ONE,
        varying: false,
    };
    const GENERATOR: Self = Self {
        value: F::GENERATOR,
        varying: false,
    };

    fn from_u64_reduced(v: u64) -> Self {
        Self::constant(F::from_u64_reduced(v))
    }

    fn is_zero(&self) -> bool {
        self.value.is_zero()
    }

    fn try_inverse(&self) -> Option<Self> {
        let inverse = self.value.try_inverse()?;
        Some(Self::log(VectorOpKind::Inv, *self, *self, inverse))
    }

    fn sqrt(&self) -> Option<Self> {
        // Not a vector operation the traces name; constraints have no use for it.
        self.value.sqrt().map(|value| Self {
            value,
            varying: self.varying,
        })
    }

    fn multiplicative_group_order() -> Vec<u64> {
        F::multiplicative_group_order()
    }
}

/// The operations `f` runs over [`Counted`] elements, in order.
pub(crate) fn logged(f: impl FnOnce()) -> Vec<VectorOp> {
    LOG.with(|l| l.borrow_mut().clear());
    f();
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// What `more` runs beyond `fewer` (a multiset difference, in `more`'s order): one more
/// point's share of a loop that also runs once per call.
pub(crate) fn marginal(more: &[VectorOp], fewer: &[VectorOp]) -> Vec<VectorOp> {
    let mut left = fewer.to_vec();
    more.iter()
        .filter(|op| match left.iter().position(|o| o == *op) {
            Some(at) => {
                left.swap_remove(at);
                false
            }
            None => true,
        })
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quotient::{point_program, row_program};
    use crate::FibonacciAir;
    use zkaccel_goldilocks::Goldilocks;

    const fn op(op: VectorOpKind, form: VectorForm) -> VectorOp {
        VectorOp { op, form, ext: 1 }
    }

    /// The expectation is written from the quotient's definition, not from the code: per
    /// point, `x·ω`, the denominators `n(x − 1)` and `n(gx − 1)`, three products of each
    /// one's share of the batch inversion, `x − g^{-1}`, two selector products with `Z_H`;
    /// then each constraint times its filter folded into the accumulator (`acc·α + c`, the
    /// accumulator starting as the constant zero), and the product with `1/Z_H`.
    #[test]
    fn fibonacci_costs_what_its_five_constraints_spell_out() {
        use VectorForm::{Vs, Vv};
        use VectorOpKind::{Add, Mul, Sub};
        let ops = point_program::<_, Goldilocks>(&FibonacciAir, 1);
        let count = |o: VectorOp| ops.iter().filter(|&&x| x == o).count();
        // Selectors: x·ω, n(x−1) (sub, mul), n(gx−1) (mul, sub, mul), 6 of the inversion,
        // x − g^{-1}, 2 with Z_H; constraints: 3 boundary (sub, mul by filter, mul by α,
        // add), 2 transitions (one sub and two subs), then 1/Z_H.
        // n(x − 1), n(gx − 1), x − g^{-1}; the three boundary constraints' differences.
        assert_eq!(count(op(Sub, Vs)), 3 + 3, "{ops:?}");
        assert_eq!(count(op(Sub, Vv)), 3, "{ops:?}");
        let muls = ops.iter().filter(|o| o.op == Mul).count();
        assert_eq!(muls, 1 + 1 + 2 + 6 + 2 + 5 * 2 + 1, "{ops:?}");
        assert_eq!(
            count(op(Add, Vs)),
            1,
            "the first accumulation adds to a constant zero"
        );
        assert_eq!(count(op(Add, Vv)), 4);
        assert!(ops.iter().all(|o| o.op != VectorOpKind::Inv), "{ops:?}");
    }

    #[test]
    fn each_challenge_adds_a_combination_per_constraint() {
        let one = point_program::<_, Goldilocks>(&FibonacciAir, 1).len();
        let two = point_program::<_, Goldilocks>(&FibonacciAir, 2).len();
        // Five constraints, each one more multiply-add, and one more product with 1/Z_H.
        assert_eq!(two, one + 5 * 2 + 1);
        // A row check: the constraints with their filters, nothing combined: three boundary
        // (sub, filter), one transition (sub, filter), one of two subs (and the filter).
        assert_eq!(
            row_program::<_, Goldilocks>(&FibonacciAir).len(),
            3 * 2 + 2 + 3
        );
    }

    #[test]
    fn the_marginal_program_is_a_multiset_difference() {
        use VectorForm::{Vs, Vv};
        use VectorOpKind::{Add, Inv, Mul};
        let more = [op(Mul, Vs), op(Inv, Vv), op(Mul, Vs), op(Add, Vv)];
        let fewer = [op(Inv, Vv), op(Mul, Vs)];
        assert_eq!(marginal(&more, &fewer), [op(Mul, Vs), op(Add, Vv)]);
        assert!(marginal(&fewer, &more).is_empty());
    }
}
