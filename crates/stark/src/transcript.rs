//! The parts of the transcript and the algebra the prover and the verifier share.

use std::iter::successors;

use zkaccel_field::{Algebra, ExtensionField, Field, TwoAdicField};
use zkaccel_fri::{
    observe_cap, Challenger, Digest, FriBatchInfo, FriInstance, FriOpenings, FriOracleInfo,
    FriPolynomialInfo, FriScheme,
};

use crate::air::{Air, Combiner};
use crate::config::StarkConfig;

/// The generator of the order-`2^bits` subgroup in the scheme's convention.
pub(crate) fn subgroup_generator<S: FriScheme>(bits: usize) -> S::F {
    S::base_root().exp_power_of_2(S::F::TWO_ADICITY - bits)
}

/// `⌈log2 x⌉`.
pub(crate) fn log2_ceil(x: usize) -> usize {
    x.next_power_of_two().trailing_zeros() as usize
}

/// The transcript up to the trace commitment: public inputs, the configuration (starky 1.1.0
/// observes `security_bits`, `num_challenges`, then the FRI configuration), the trace cap.
pub(crate) fn start<S: FriScheme>(
    config: &StarkConfig,
    public_inputs: &[S::F],
    trace_cap: &[Digest<S>],
) -> Challenger<S> {
    let mut challenger = S::challenger();
    challenger.observe_elements(public_inputs);
    challenger.observe_element(S::F::from_u64_reduced(config.security_bits as u64));
    challenger.observe_element(S::F::from_u64_reduced(config.num_challenges as u64));
    config.fri_config.observe(&mut challenger);
    observe_cap::<S>(&mut challenger, trace_cap);
    challenger
}

/// starky 1.1.0's constraint binding (#1679), after the trace cap: draws `α'`, evaluates the
/// constraints on dummy openings (powers of fresh extension challenges) at a fresh point
/// `ζ'`, absorbs the results, and draws the `α` the quotient is built with.
pub(crate) fn bind_constraints<A: Air, S: FriScheme>(
    air: &A,
    config: &StarkConfig,
    challenger: &mut Challenger<S>,
    public_inputs: &[S::F],
    degree_bits: usize,
) -> Vec<S::F> {
    let alphas_prime = challenger.challenges(config.num_challenges);
    let columns = air.columns();
    let total = 2 * columns;
    let pow_degree = (air.constraint_degree() + 1).max(2);
    let powers = (50 / log2_ceil(pow_degree)).saturating_sub(1).max(1);
    let zetas: Vec<S::E> = challenger.extension_challenges(total.div_ceil(powers));
    let per_zeta = (powers + 1).min(total);
    let dummy: Vec<S::E> = zetas
        .iter()
        .flat_map(|&z| {
            successors(Some(z), move |p| Some(p.exp_u64(pow_degree as u64))).take(per_zeta)
        })
        .collect();
    let zeta_prime: S::E = challenger.extension_challenge();
    let evals = constraints_at::<A, S>(
        air,
        &dummy[..columns],
        &dummy[columns..total],
        public_inputs,
        &alphas_prime,
        zeta_prime,
        degree_bits,
    );
    challenger.observe_extension_elements(&evals);
    challenger.challenges(config.num_challenges)
}

/// The constraints' combinations at an extension point `x` from the openings there and at
/// `g·x` (starky's `compute_eval_vanishing_poly` and the verifier's check).
pub(crate) fn constraints_at<A: Air, S: FriScheme>(
    air: &A,
    local: &[S::E],
    next: &[S::E],
    public_inputs: &[S::F],
    alphas: &[S::F],
    x: S::E,
    degree_bits: usize,
) -> Vec<S::E> {
    let g = subgroup_generator::<S>(degree_bits);
    let n = S::E::from_u64_reduced(1 << degree_bits);
    let z_x = x.exp_power_of_2(degree_bits) - S::E::ONE;
    let inv = |v: S::E| v.try_inverse().unwrap_or(S::E::ZERO);
    let l_first = z_x * inv(n * (x - S::E::ONE));
    let l_last = z_x * inv(n * (x * g - S::E::ONE));
    let z_last = x - S::E::from_base(g.inverse());
    let alphas: Vec<S::E> = alphas.iter().map(|&a| S::E::from_base(a)).collect();
    let public: Vec<S::E> = public_inputs.iter().map(|&p| S::E::from_base(p)).collect();
    let mut accumulators = vec![S::E::ZERO; alphas.len()];
    air.eval(&mut Combiner {
        local,
        next,
        public_inputs: &public,
        alphas: &alphas,
        accumulators: &mut accumulators,
        z_last,
        lagrange_first: l_first,
        lagrange_last: l_last,
        lift: S::E::from_base,
        _field: core::marker::PhantomData::<S::F>,
    });
    accumulators
}

/// What FRI opens (starky's `fri_instance`): the trace at `ζ` and `g·ζ`, the quotient chunks
/// at `ζ`.
pub(crate) fn fri_instance<E: Copy>(
    columns: usize,
    quotient_polys: usize,
    zeta: E,
    g_zeta: E,
) -> FriInstance<E> {
    FriInstance {
        oracles: vec![
            FriOracleInfo { num_polys: columns },
            FriOracleInfo {
                num_polys: quotient_polys,
            },
        ],
        batches: vec![
            FriBatchInfo {
                point: zeta,
                polynomials: [
                    FriPolynomialInfo::from_range(0, 0..columns),
                    FriPolynomialInfo::from_range(1, 0..quotient_polys),
                ]
                .concat(),
            },
            FriBatchInfo {
                point: g_zeta,
                polynomials: FriPolynomialInfo::from_range(0, 0..columns),
            },
        ],
    }
}

/// The claimed values in FRI's order.
pub(crate) fn fri_openings<E: Copy>(local: &[E], next: &[E], quotient: &[E]) -> FriOpenings<E> {
    FriOpenings {
        batches: vec![[local, quotient].concat(), next.to_vec()],
    }
}
