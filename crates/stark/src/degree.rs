//! The degree checker an AIR runs in its tests (starky's `test_stark_low_degree`, one
//! constraint at a time so that the error names the constraint).

use zkaccel_field::{Field, PrimeField};
use zkaccel_ntt::{NttPlan, Order};

use crate::air::{Air, Recorder};
use crate::StarkError;

/// Rows of the random trace the degrees are measured on (starky's `WITNESS_SIZE`).
pub const DEGREE_CHECK_ROWS: usize = 1 << 5;

/// The largest declared constraint degree the check measures (the LDE then has `2^22`
/// points; starky's prover supports a degree up to the blowup plus one, at most `2^5 + 1`
/// under zkaccel's largest rate).
pub const MAX_CHECKED_DEGREE: usize = 1 << 14;

/// Checks that every constraint of `air` has at most the degree [`Air::constraint_degree`]
/// declares, as starky's `test_stark_low_degree` does but constraint by constraint: on a
/// random trace of [`DEGREE_CHECK_ROWS`] rows, low-degree extended, with random public
/// inputs, each constraint (its row filter applied, the filters being the Lagrange
/// selectors and `x − g^{-1}` as polynomials) is evaluated over the LDE and interpolated; a
/// declared degree `d` allows `rows·d − 1`.
///
/// The LDE is `2^(⌈log2(d + 1)⌉ + 2)` times the trace, so a degree up to four times past
/// the declared one is measured exactly (a higher one may alias, as in starky). `seed` picks
/// the random trace.
///
/// ```
/// use zkaccel_goldilocks::Goldilocks;
/// use zkaccel_stark::{check_constraint_degrees, FactorialAir, FibonacciAir};
///
/// check_constraint_degrees::<_, Goldilocks>(&FibonacciAir, 1)?;
/// check_constraint_degrees::<_, Goldilocks>(&FactorialAir, 1)?;
/// # Ok::<(), zkaccel_stark::StarkError>(())
/// ```
///
/// # Errors
/// [`StarkError::ConstraintDegree`] naming the first constraint (in emission order) of a
/// higher degree; [`StarkError::OutOfRange`] for a declared degree of 0 or above
/// [`MAX_CHECKED_DEGREE`], [`StarkError::BeyondTwoAdicity`] for one too large to measure over
/// this field, and [`StarkError::ConstraintCount`] for an AIR whose number of constraints
/// changes from point to point.
pub fn check_constraint_degrees<A: Air, F: PrimeField + zkaccel_ntt::NttField>(
    air: &A,
    seed: u64,
) -> Result<(), StarkError> {
    let declared = air.constraint_degree();
    let rows = DEGREE_CHECK_ROWS;
    let row_bits = rows.trailing_zeros() as usize;
    if declared == 0 || declared > MAX_CHECKED_DEGREE {
        return Err(StarkError::OutOfRange {
            what: "the constraint degree the degree check measures",
            got: declared as u64,
            min: 1,
            max: MAX_CHECKED_DEGREE as u64,
        });
    }
    let blowup_bits = log2_ceil(declared + 1) + 2;
    if row_bits + blowup_bits > F::TWO_ADICITY {
        return Err(StarkError::BeyondTwoAdicity {
            degree: declared,
            lde_bits: row_bits + blowup_bits,
            two_adicity: F::TWO_ADICITY,
        });
    }
    let lde_bits = row_bits + blowup_bits;
    let size = 1usize << lde_bits;
    let plan = NttPlan::<F>::new(lde_bits).map_err(zkaccel_fri::FriError::from)?;
    let mut random = SplitMix(seed);
    let lde = |mut values: Vec<F>| -> Result<Vec<F>, StarkError> {
        plan.inverse(&mut values, Order::NN)
            .map_err(zkaccel_fri::FriError::from)?;
        values.resize(size, F::ZERO);
        plan.forward(&mut values, Order::NN)
            .map_err(zkaccel_fri::FriError::from)?;
        Ok(values)
    };
    let columns = (0..air.columns())
        .map(|_| lde((0..rows).map(|_| random.element()).collect()))
        .collect::<Result<Vec<_>, _>>()?;
    let selector = |row: usize| {
        let mut values = vec![F::ZERO; rows];
        values[row] = F::ONE;
        lde(values)
    };
    let (first, last) = (selector(0)?, selector(rows - 1)?);
    let public_inputs: Vec<F> = (0..air.public_inputs()).map(|_| random.element()).collect();
    let omega = F::two_adic_generator(lde_bits)?;
    let g_inv = F::two_adic_generator(row_bits)?.inverse();
    // values[k][i]: constraint k at LDE point i.
    let mut values: Vec<Vec<F>> = Vec::new();
    let (mut local, mut next, mut point) = (Vec::new(), Vec::new(), Vec::new());
    let mut x = F::ONE;
    for i in 0..size {
        local.clear();
        next.clear();
        local.extend(columns.iter().map(|c| c[i]));
        next.extend(columns.iter().map(|c| c[(i + (1 << blowup_bits)) % size]));
        let mut recorder = Recorder {
            local: &local,
            next: &next,
            public_inputs: &public_inputs,
            z_last: x - g_inv,
            lagrange_first: first[i],
            lagrange_last: last[i],
            values: &mut point,
        };
        air.eval(&mut recorder);
        if i == 0 {
            values = vec![Vec::with_capacity(size); point.len()];
        } else if point.len() != values.len() {
            return Err(StarkError::ConstraintCount {
                first: values.len(),
                then: point.len(),
            });
        }
        for (k, &v) in point.iter().enumerate() {
            values[k].push(v);
        }
        point.clear();
        x *= omega;
    }
    let allowed = rows * declared - 1;
    for (constraint, mut evaluations) in values.into_iter().enumerate() {
        plan.inverse(&mut evaluations, Order::NN)
            .map_err(zkaccel_fri::FriError::from)?;
        let degree = evaluations.iter().rposition(|c| !c.is_zero()).unwrap_or(0);
        if degree > allowed {
            return Err(StarkError::ConstraintDegree {
                constraint,
                degree,
                rows,
                allowed,
                declared,
                needed: (degree + 1).div_ceil(rows),
            });
        }
    }
    Ok(())
}

fn log2_ceil(n: usize) -> usize {
    n.next_power_of_two().trailing_zeros() as usize
}

/// SplitMix64: a small deterministic generator for the random trace (the check needs no
/// cryptographic randomness, only values no AIR is built around).
struct SplitMix(u64);

impl SplitMix {
    fn element<F: Field>(&mut self) -> F {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        F::from_u64_reduced(z ^ (z >> 31))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConstraintBuilder, FactorialAir, FibonacciAir};
    use zkaccel_goldilocks::Goldilocks;

    /// An AIR that declares degree 2 but multiplies three trace values in a transition
    /// (degree 3 with its filter) after two honest constraints.
    struct UnderDeclared;

    impl Air for UnderDeclared {
        fn columns(&self) -> usize {
            3
        }
        fn public_inputs(&self) -> usize {
            0
        }
        fn constraint_degree(&self) -> usize {
            2
        }
        fn eval<B: ConstraintBuilder>(&self, b: &mut B) {
            let (l, n) = (b.local(), b.next());
            let (a, c, d, e) = (l[0], l[1], l[2], n[0]);
            b.constraint_transition(e - a);
            b.constraint_first_row(c - d);
            b.constraint_transition(e - a * c * d);
        }
    }

    #[test]
    fn shipped_airs_declare_enough() {
        for seed in 0..3 {
            check_constraint_degrees::<_, Goldilocks>(&FibonacciAir, seed).unwrap();
            check_constraint_degrees::<_, Goldilocks>(&FactorialAir, seed).unwrap();
        }
    }

    #[test]
    fn an_under_declared_degree_names_the_constraint() {
        let e = check_constraint_degrees::<_, Goldilocks>(&UnderDeclared, 7).unwrap_err();
        let message = e.to_string();
        // Three trace polynomials of degree 31 and the filter x − g^{-1}: 3·31 + 1 = 94,
        // which a declared degree of 2 (up to 2·32 − 1 = 63) does not allow; 3 does.
        let StarkError::ConstraintDegree {
            constraint,
            degree,
            rows,
            allowed,
            declared,
            needed,
        } = e
        else {
            panic!("{e}")
        };
        assert_eq!(
            (constraint, degree, rows, allowed, declared, needed),
            (2, 94, 32, 63, 2, 3)
        );
        assert!(message.starts_with("constraint 2 "), "{message}");
        assert!(message.contains("declare at least 3"), "{message}");
    }

    /// An AIR declaring any degree gets an answer, not an overflow: 0 and the largest
    /// values are refused before anything is allocated.
    #[test]
    fn hostile_declared_degrees_are_refused() {
        struct Declares(usize);
        impl Air for Declares {
            fn columns(&self) -> usize {
                1
            }
            fn public_inputs(&self) -> usize {
                0
            }
            fn constraint_degree(&self) -> usize {
                self.0
            }
            fn eval<B: ConstraintBuilder>(&self, b: &mut B) {
                let x = b.local()[0];
                b.constraint_transition(x);
            }
        }
        for declared in [0, MAX_CHECKED_DEGREE + 1, usize::MAX / 32, usize::MAX] {
            let e = check_constraint_degrees::<_, Goldilocks>(&Declares(declared), 0);
            assert!(
                matches!(e, Err(StarkError::OutOfRange { .. })),
                "{declared}: {e:?}"
            );
        }
        // The same AIR with an honest degree passes.
        assert!(check_constraint_degrees::<_, Goldilocks>(&Declares(2), 0).is_ok());
    }

    /// A constraint count that changes from point to point is a typed error, not an index
    /// out of bounds.
    #[test]
    fn a_changing_number_of_constraints_is_refused() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        /// Emits one more constraint on its second evaluation than on the others.
        struct Wobbly(AtomicUsize);
        impl Air for Wobbly {
            fn columns(&self) -> usize {
                1
            }
            fn public_inputs(&self) -> usize {
                0
            }
            fn constraint_degree(&self) -> usize {
                2
            }
            fn eval<B: ConstraintBuilder>(&self, b: &mut B) {
                let x = b.local()[0];
                b.constraint_transition(x);
                if self.0.fetch_add(1, Ordering::Relaxed) == 1 {
                    b.constraint_transition(x);
                }
            }
        }
        let e = check_constraint_degrees::<_, Goldilocks>(&Wobbly(AtomicUsize::new(0)), 0);
        assert!(
            matches!(e, Err(StarkError::ConstraintCount { first: 1, then: 2 })),
            "{e:?}"
        );
    }

    /// Starky's Fibonacci declares 2: a declaration of 1 is one short, and the first
    /// boundary constraint (degree 31 + 31 = 62) is the one named.
    #[test]
    fn one_short_is_caught_at_the_first_constraint_that_needs_it() {
        struct Short;
        impl Air for Short {
            fn columns(&self) -> usize {
                FibonacciAir.columns()
            }
            fn public_inputs(&self) -> usize {
                FibonacciAir.public_inputs()
            }
            fn constraint_degree(&self) -> usize {
                1
            }
            fn eval<B: ConstraintBuilder>(&self, b: &mut B) {
                FibonacciAir.eval(b);
            }
        }
        let e = check_constraint_degrees::<_, Goldilocks>(&Short, 0).unwrap_err();
        assert!(
            matches!(
                e,
                StarkError::ConstraintDegree {
                    constraint: 0,
                    degree: 62,
                    needed: 2,
                    ..
                }
            ),
            "{e}"
        );
    }
}
