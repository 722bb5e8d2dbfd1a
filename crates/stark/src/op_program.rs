//! The per-point program of an AIR's constraint evaluation, for kernel traces: the AIR is
//! evaluated once over [`Counted`] elements, which log every field operation in order and
//! whether its operands vary from point to point (the trace values and row filters) or are
//! the same for every point (challenges, public inputs, constants).

use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use std::cell::RefCell;

use zkaccel_field::{Algebra, Field};
use zkaccel_kernel_trace::{VectorForm, VectorOp, VectorOpKind};

use crate::air::{Air, ConstraintConsumer, Frame};

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
    fn constant(value: F) -> Self {
        Self {
            value,
            varying: false,
        }
    }

    fn varying(value: F) -> Self {
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

/// The operations, in order, that evaluating `air`'s constraints at one point costs, with
/// `alphas` challenges combined (none: a row check, each constraint tested on its own). The
/// frame's values and the row filters vary per point; challenges and public inputs do not.
pub(crate) fn air_program<A: Air, F: Field>(air: &A, alphas: usize) -> Vec<VectorOp> {
    let local = vec![Counted::varying(F::ONE); air.columns()];
    let next = vec![Counted::varying(F::TWO); air.columns()];
    let public_inputs = vec![Counted::constant(F::ONE); air.public_inputs()];
    let filter = Counted::varying(F::ONE);
    let mut consumer = if alphas == 0 {
        ConstraintConsumer::checking_row(false, false)
    } else {
        ConstraintConsumer::new(
            vec![Counted::constant(F::TWO); alphas],
            filter,
            filter,
            filter,
        )
    };
    if alphas == 0 {
        // A row check multiplies by 0/1 filters that vary along the trace.
        consumer.reset(filter, filter, filter);
    }
    LOG.with(|l| l.borrow_mut().clear());
    air.eval(
        &Frame {
            local: &local,
            next: &next,
            public_inputs: &public_inputs,
        },
        &mut consumer,
    );
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FibonacciAir;
    use zkaccel_goldilocks::Goldilocks;

    const fn op(op: VectorOpKind, form: VectorForm) -> VectorOp {
        VectorOp { op, form, ext: 1 }
    }

    #[test]
    fn fibonacci_costs_what_its_five_constraints_spell_out() {
        use VectorForm::{Vs, Vv};
        use VectorOpKind::{Add, Mul, Sub};
        // Each constraint c enters as acc·α + c after its filter product; the accumulator
        // starts as the constant zero, so the first combination is scalar·scalar + vector.
        let mut expected = Vec::new();
        // local[0] − x0 (first row), local[1] − x1 (first row), local[1] − result (last row):
        // a vector minus a public input, times the row filter.
        for k in 0..3 {
            expected.extend([op(Sub, Vs), op(Mul, Vv), op(Mul, Vs)]);
            expected.push(op(Add, if k == 0 { Vs } else { Vv }));
        }
        // next[0] − local[1] (transition).
        expected.extend([op(Sub, Vv), op(Mul, Vv), op(Mul, Vs), op(Add, Vv)]);
        // next[1] − local[0] − local[1] (transition).
        expected.extend([
            op(Sub, Vv),
            op(Sub, Vv),
            op(Mul, Vv),
            op(Mul, Vs),
            op(Add, Vv),
        ]);
        assert_eq!(air_program::<_, Goldilocks>(&FibonacciAir, 1), expected);
    }

    #[test]
    fn each_challenge_adds_a_combination_per_constraint() {
        let one = air_program::<_, Goldilocks>(&FibonacciAir, 1).len();
        let two = air_program::<_, Goldilocks>(&FibonacciAir, 2).len();
        // Five constraints, each one more multiply-add.
        assert_eq!(two, one + 5 * 2);
        // A row check: no combination, just the constraints with their filters.
        assert_eq!(
            air_program::<_, Goldilocks>(&FibonacciAir, 0).len(),
            one - 5 * 2
        );
    }
}
