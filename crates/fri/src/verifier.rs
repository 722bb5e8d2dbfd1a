//! The FRI verifier (plonky2's `fri_challenges` and `verify_fri_proof`), with the proof's
//! shape checked against the parameters before anything is hashed.

use zkaccel_challenger::meets_pow_target;
use zkaccel_codec::ShapeError;
use zkaccel_field::{Algebra, ExtensionField, Field, TwoAdicField};
use zkaccel_merkle::verify_path;
use zkaccel_ntt::reverse_bits;

use crate::proof::FriProof;
use crate::scheme::{Challenger, Digest, FriScheme};
use crate::structure::{FriInstance, FriOpenings};
use crate::{FriError, FriParams, FriRejection, PolynomialsError};

/// The verifier's challenges of a FRI proof (plonky2's `FriChallenges`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriChallenges<S: FriScheme> {
    /// The combination challenge.
    pub alpha: S::E,
    /// One folding challenge per layer.
    pub betas: Vec<S::E>,
    /// The challenge drawn after the witness; its leading zeros are the proof of work.
    pub pow_response: S::F,
    /// The queried codeword positions.
    pub query_indices: Vec<usize>,
}

/// Replays the transcript of [`crate::prove_openings`] on a proof: draws `α`, absorbs each
/// layer's cap and draws its `β`, absorbs the final polynomial and the witness, draws the
/// proof-of-work response and the query indices.
///
/// # Errors
/// [`FriError::ProofShape`] when the proof's numbers of layers or its final polynomial's length
/// differ from the parameters'; [`FriError::Challenger`] for a field too wide to index.
pub fn fri_challenges<S: FriScheme>(
    challenger: &mut Challenger<S>,
    proof: &FriProof<S>,
    params: &FriParams,
) -> Result<FriChallenges<S>, FriError> {
    ShapeError::expect(
        params.reduction_arity_bits.len(),
        proof.commit_phase_caps.len(),
        || "the layer caps",
    )?;
    ShapeError::expect(params.final_poly_len(), proof.final_poly.len(), || {
        "the final polynomial's coefficients"
    })?;
    let alpha = challenger.extension_challenge();
    let betas = proof
        .commit_phase_caps
        .iter()
        .map(|cap| {
            crate::observe_cap::<S>(challenger, cap);
            challenger.extension_challenge()
        })
        .collect();
    challenger.observe_extension_elements(&proof.final_poly);
    challenger.observe_element(proof.pow_witness);
    let pow_response = challenger.challenge();
    let lde_size = params.lde_size();
    let query_indices = (0..params.config.num_query_rounds)
        .map(|_| challenger.index_challenge(lde_size))
        .collect::<Result<_, _>>()?;
    Ok(FriChallenges {
        alpha,
        betas,
        pow_response,
        query_indices,
    })
}

/// Checks a FRI proof of `openings` of the batches committed by `initial_caps` (in the
/// instance's oracle order), with the challenges [`fri_challenges`] drew.
///
/// # Errors
/// [`FriError::ProofShape`] when any part of the proof or of the openings has another shape
/// than the instance and parameters fix (checked first, completely); [`FriError::Rejected`] or
/// [`FriError::Merkle`] (`Mismatch`) when it is well formed but false: the proof of work falls
/// short, a path leads elsewhere than its cap, a layer's value is not the fold of the last,
/// or the final polynomial disagrees.
pub fn verify_fri_proof<S: FriScheme>(
    instance: &FriInstance<S::E>,
    openings: &FriOpenings<S::E>,
    challenges: &FriChallenges<S>,
    initial_caps: &[&[Digest<S>]],
    proof: &FriProof<S>,
    params: &FriParams,
) -> Result<(), FriError> {
    check_instance(instance, params)?;
    check_shape(instance, openings, challenges, initial_caps, proof, params)?;
    if !meets_pow_target(challenges.pow_response, params.config.proof_of_work_bits)? {
        return Err(FriRejection::ProofOfWork {
            bits: params.config.proof_of_work_bits,
        }
        .into());
    }
    // Each batch's claimed values, combined with the powers of α.
    let reduced_openings: Vec<S::E> = openings
        .batches
        .iter()
        .map(|values| reduce(values.iter().copied(), challenges.alpha))
        .collect();
    let lde_bits = params.lde_bits();
    let root = S::base_root();
    let generator = root.exp_power_of_2(S::F::TWO_ADICITY - lde_bits);
    let hasher = S::hasher();
    let levels = lde_bits - params.config.cap_height;
    for (&x_index, round) in challenges.query_indices.iter().zip(&proof.query_rounds) {
        for (opening, cap) in round.initial_trees.iter().zip(initial_caps) {
            verify_path(
                &hasher,
                cap,
                levels,
                x_index as u64,
                &opening.row,
                &opening.merkle_path,
            )?;
        }
        // The queried point: the codeword's leaf x_index is point rev(x_index).
        let mut x = S::coset_shift() * generator.exp_u64(reverse_bits(x_index, lde_bits) as u64);
        let mut value =
            combine_initial::<S>(instance, round, challenges.alpha, x, &reduced_openings);
        let mut index = x_index;
        let mut layer_levels = levels;
        for (k, (&bits, step)) in params
            .reduction_arity_bits
            .iter()
            .zip(&round.steps)
            .enumerate()
        {
            let arity = 1usize << bits;
            let coset_index = index >> bits;
            let within = index & (arity - 1);
            if step.evals[within] != value {
                return Err(FriRejection::Fold { x_index, layer: k }.into());
            }
            value = fold_coset::<S>(x, within, bits, &step.evals, challenges.betas[k], root);
            let mut leaf = Vec::with_capacity(arity * <S::E as ExtensionField<S::F>>::DEGREE);
            for e in &step.evals {
                leaf.extend_from_slice(e.as_base_slice());
            }
            layer_levels -= bits;
            verify_path(
                &hasher,
                &proof.commit_phase_caps[k],
                layer_levels,
                coset_index as u64,
                &leaf,
                &step.merkle_path,
            )?;
            x = x.exp_power_of_2(bits);
            index = coset_index;
        }
        let x = S::E::from_base(x);
        let at_x = proof
            .final_poly
            .iter()
            .rev()
            .fold(S::E::ZERO, |acc, &c| acc * x + c);
        if at_x != value {
            return Err(FriRejection::FinalPolynomial { x_index }.into());
        }
    }
    Ok(())
}

/// `Σ_j α^j v_j` (plonky2's `ReducingFactor::reduce`).
fn reduce<E: Field>(values: impl DoubleEndedIterator<Item = E>, alpha: E) -> E {
    values.rev().fold(E::ZERO, |acc, v| acc * alpha + v)
}

/// The combined quotient's value at the queried point `x`, from the opened rows:
/// `Σ_batches α^{…}·(Σ_j α^j f_j(x) − Σ_j α^j v_j) / (x − z)`, later batches added after the
/// earlier sum is scaled by `α^{#polynomials}` (plonky2's `fri_combine_initial`).
fn combine_initial<S: FriScheme>(
    instance: &FriInstance<S::E>,
    round: &crate::proof::FriQueryRound<S>,
    alpha: S::E,
    x: S::F,
    reduced_openings: &[S::E],
) -> S::E {
    let x = S::E::from_base(x);
    let mut sum = S::E::ZERO;
    for (batch, &reduced) in instance.batches.iter().zip(reduced_openings) {
        let evals = batch
            .polynomials
            .iter()
            .map(|p| S::E::from_base(round.initial_trees[p.oracle_index].row[p.polynomial_index]));
        let numerator = reduce(evals, alpha) - reduced;
        // A point on the coset (x = z) makes the term zero instead of a division by zero;
        // the layer checks that follow then fail unless the values happen to agree.
        let denominator = x - batch.point;
        sum *= alpha.exp_u64(batch.polynomials.len() as u64);
        sum += numerator * denominator.try_inverse().unwrap_or(S::E::ZERO);
    }
    sum
}

/// The folded value at `x^arity` from the coset's values: the polynomial through the points
/// `(coset_start·g^j, evals[rev(j)])` evaluated at `β` (plonky2's `compute_evaluation`), by
/// Lagrange interpolation.
fn fold_coset<S: FriScheme>(
    x: S::F,
    within: usize,
    arity_bits: usize,
    evals: &[S::E],
    beta: S::E,
    root: S::F,
) -> S::E {
    let arity = 1usize << arity_bits;
    let g = root.exp_power_of_2(S::F::TWO_ADICITY - arity_bits);
    let rev_within = reverse_bits(within, arity_bits);
    let coset_start = x * g.exp_u64((arity - rev_within) as u64);
    let points: Vec<S::E> = std::iter::successors(Some(coset_start), |p| Some(*p * g))
        .take(arity)
        .map(S::E::from_base)
        .collect();
    let values: Vec<S::E> = (0..arity)
        .map(|j| evals[reverse_bits(j, arity_bits)])
        .collect();
    if let Some(j) = points.iter().position(|&p| p == beta) {
        return values[j];
    }
    let mut result = S::E::ZERO;
    for (j, (&xj, &yj)) in points.iter().zip(&values).enumerate() {
        let mut numerator = S::E::ONE;
        let mut denominator = S::E::ONE;
        for (k, &xk) in points.iter().enumerate() {
            if k != j {
                numerator *= beta - xk;
                denominator *= xj - xk;
            }
        }
        result += yj * numerator * denominator.inverse();
    }
    result
}

/// Checks that an instance is well formed: at least one oracle and one batch, no empty batch,
/// and every polynomial it names exists. (Whether the points lie off the evaluation coset is
/// the caller's protocol's business: a STARK draws them from the extension.)
pub(crate) fn check_instance<E>(
    instance: &FriInstance<E>,
    _params: &FriParams,
) -> Result<(), FriError> {
    if instance.oracles.is_empty() || instance.batches.is_empty() {
        return Err(PolynomialsError::EmptyInstance.into());
    }
    for (b, batch) in instance.batches.iter().enumerate() {
        if batch.polynomials.is_empty() {
            return Err(PolynomialsError::EmptyBatch { batch: b }.into());
        }
        for p in &batch.polynomials {
            let ok = instance
                .oracles
                .get(p.oracle_index)
                .is_some_and(|o| p.polynomial_index < o.num_polys);
            if !ok {
                return Err(PolynomialsError::NoSuchPolynomial {
                    batch: b,
                    oracle: p.oracle_index,
                    polynomial: p.polynomial_index,
                }
                .into());
            }
        }
    }
    Ok(())
}

fn check_shape<S: FriScheme>(
    instance: &FriInstance<S::E>,
    openings: &FriOpenings<S::E>,
    challenges: &FriChallenges<S>,
    initial_caps: &[&[Digest<S>]],
    proof: &FriProof<S>,
    params: &FriParams,
) -> Result<(), FriError> {
    let cap_len = 1usize << params.config.cap_height;
    ShapeError::expect(instance.oracles.len(), initial_caps.len(), || {
        "the commitments (one per committed batch)"
    })?;
    for (k, cap) in initial_caps.iter().enumerate() {
        ShapeError::expect(cap_len, cap.len(), || {
            format!("commitment {k}'s cap digests")
        })?;
    }
    for (k, cap) in proof.commit_phase_caps.iter().enumerate() {
        ShapeError::expect(cap_len, cap.len(), || format!("layer {k}'s cap digests"))?;
    }
    ShapeError::expect(instance.batches.len(), openings.batches.len(), || {
        "the opened batches"
    })?;
    for (k, (values, batch)) in openings.batches.iter().zip(&instance.batches).enumerate() {
        ShapeError::expect(batch.polynomials.len(), values.len(), || {
            format!("batch {k}'s opened values (one per polynomial)")
        })?;
    }
    let layers = params.reduction_arity_bits.len();
    ShapeError::expect(layers, proof.commit_phase_caps.len(), || "the layer caps")?;
    ShapeError::expect(layers, challenges.betas.len(), || "the folding challenges")?;
    ShapeError::expect(params.final_poly_len(), proof.final_poly.len(), || {
        "the final polynomial's coefficients"
    })?;
    let rounds = params.config.num_query_rounds;
    ShapeError::expect(rounds, proof.query_rounds.len(), || "the query rounds")?;
    ShapeError::expect(rounds, challenges.query_indices.len(), || {
        "the query indices"
    })?;
    let levels = params.lde_bits() - params.config.cap_height;
    for (r, round) in proof.query_rounds.iter().enumerate() {
        ShapeError::expect(instance.oracles.len(), round.initial_trees.len(), || {
            format!("round {r}'s opened batches")
        })?;
        for (k, (opening, oracle)) in round
            .initial_trees
            .iter()
            .zip(&instance.oracles)
            .enumerate()
        {
            ShapeError::expect(oracle.num_polys, opening.row.len(), || {
                format!("round {r}, batch {k}: the row's values")
            })?;
            ShapeError::expect(levels, opening.merkle_path.len(), || {
                format!("round {r}, batch {k}: the Merkle path's digests")
            })?;
        }
        ShapeError::expect(layers, round.steps.len(), || format!("round {r}'s layers"))?;
        let mut layer_levels = levels;
        for (l, (step, &bits)) in round
            .steps
            .iter()
            .zip(&params.reduction_arity_bits)
            .enumerate()
        {
            layer_levels -= bits;
            ShapeError::expect(1 << bits, step.evals.len(), || {
                format!("round {r}, layer {l}: the coset's values")
            })?;
            ShapeError::expect(layer_levels, step.merkle_path.len(), || {
                format!("round {r}, layer {l}: the Merkle path's digests")
            })?;
        }
    }
    if let Some(&index) = challenges
        .query_indices
        .iter()
        .find(|&&i| i >= params.lde_size())
    {
        return Err(ShapeError {
            what: "a query index (the codeword's points bound it)".into(),
            expected: params.lde_size() as u64,
            got: index as u64,
        }
        .into());
    }
    Ok(())
}
