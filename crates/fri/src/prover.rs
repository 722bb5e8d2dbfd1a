//! The FRI prover (plonky2's `prove_openings` and `fri_proof`).

use rayon::prelude::*;
use zkaccel_field::{ExtensionField, Field};
use zkaccel_merkle::MerkleTree;
use zkaccel_ntt::{bit_reverse, Order};

use crate::batch::PolynomialBatch;
use crate::proof::{FriInitialOpening, FriProof, FriQueryRound, FriQueryStep};
use crate::scheme::{Challenger, FriScheme};
use crate::structure::FriInstance;
use crate::verifier::check_instance;
use crate::{FriError, FriParams};

/// Proves the openings `instance` names of the committed `oracles` (in the instance's oracle
/// order), continuing the transcript in `challenger` exactly as plonky2 does:
///
/// 1. `α` (an extension challenge); each batch's polynomials are combined as `Σ α^j f_j`,
///    the combination's value at the batch's point is divided out, `(C − C(z))/(X − z)`, and
///    the quotients are summed with the earlier ones scaled by `α^{#polynomials}`;
/// 2. the sum's codeword (rate `2^-rate_bits`, on the coset) is folded layer by layer: each
///    layer's tree (leaves of `2^arity` bit-reversed neighbours) is committed, its cap
///    absorbed, `β` drawn, and `c'_i = Σ_k β^k c_{2^a·i+k}`;
/// 3. the final polynomial is absorbed, the proof-of-work witness ground (the smallest), and
///    the query indices drawn; each round opens every batch's row and each layer's coset.
///
/// The caller has absorbed whatever precedes (the commitments, the claimed openings).
///
/// # Errors
/// [`FriError::Polynomials`] when the oracles do not match the instance or the parameters
/// (count, widths, lengths, blowup), or an index is out of range; errors of the transforms,
/// the trees and the challenger.
pub fn prove_openings<S: FriScheme>(
    instance: &FriInstance<S::E>,
    oracles: &[&PolynomialBatch<S>],
    challenger: &mut Challenger<S>,
    params: &FriParams,
) -> Result<FriProof<S>, FriError> {
    check_instance(instance, params)?;
    check_oracles(instance, oracles, params)?;
    let n = 1usize << params.degree_bits;

    // 1. The combined quotient.
    let alpha: S::E = challenger.extension_challenge();
    let mut final_poly: Vec<S::E> = Vec::new();
    for batch in &instance.batches {
        let polys: Vec<&[S::F]> = batch
            .polynomials
            .iter()
            .map(|p| oracles[p.oracle_index].polynomials()[p.polynomial_index].as_slice())
            .collect();
        let composition = combine(&polys, alpha, n);
        let mut quotient = divide_by_linear(&composition, batch.point);
        quotient.push(S::E::ZERO);
        let scale = alpha.exp_u64(polys.len() as u64);
        final_poly.iter_mut().for_each(|c| *c *= scale);
        if final_poly.len() < quotient.len() {
            final_poly.resize(quotient.len(), S::E::ZERO);
        }
        final_poly
            .iter_mut()
            .zip(&quotient)
            .for_each(|(c, q)| *c += *q);
    }

    // 2. The commit phase.
    let lde_bits = params.lde_bits();
    let plan = S::extension_plan(lde_bits)?;
    let mut coeffs = final_poly;
    coeffs.resize(1 << lde_bits, S::E::ZERO);
    let mut shift = S::coset_shift();
    let mut values = coeffs.clone();
    plan.coset_forward(&mut values, S::E::from_base(shift), Order::NN)?;
    let hasher = S::hasher();
    let mut trees = Vec::with_capacity(params.reduction_arity_bits.len());
    for &arity_bits in &params.reduction_arity_bits {
        let arity = 1usize << arity_bits;
        bit_reverse(&mut values, 1)?;
        let degree = <S::E as ExtensionField<S::F>>::DEGREE;
        let mut leaves = Vec::with_capacity(values.len() * degree);
        for v in &values {
            leaves.extend_from_slice(v.as_base_slice());
        }
        let tree = MerkleTree::new(
            hasher.clone(),
            leaves,
            arity * degree,
            params.config.cap_height,
        )?;
        crate::observe_cap::<S>(challenger, tree.cap());
        trees.push(tree);
        let beta: S::E = challenger.extension_challenge();
        coeffs = coeffs
            .par_chunks_exact(arity)
            .map(|chunk| {
                chunk
                    .iter()
                    .rev()
                    .fold(S::E::ZERO, |acc, &c| acc * beta + c)
            })
            .collect();
        shift = shift.exp_u64(arity as u64);
        values = coeffs.clone();
        plan.coset_forward(&mut values, S::E::from_base(shift), Order::NN)?;
    }
    coeffs.truncate(coeffs.len() >> params.config.rate_bits);
    challenger.observe_extension_elements(&coeffs);

    // 3. Grinding and queries.
    let pow_witness = challenger.grind(params.config.proof_of_work_bits)?;
    let lde_size = params.lde_size();
    let indices = (0..params.config.num_query_rounds)
        .map(|_| challenger.index_challenge(lde_size))
        .collect::<Result<Vec<_>, _>>()?;
    let query_rounds = indices
        .par_iter()
        .map(|&x| query_round::<S>(oracles, &trees, x, params))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FriProof {
        commit_phase_caps: trees.iter().map(|t| t.cap().to_vec()).collect(),
        query_rounds,
        final_poly: coeffs,
        pow_witness,
    })
}

fn query_round<S: FriScheme>(
    oracles: &[&PolynomialBatch<S>],
    trees: &[MerkleTree<S::Hasher>],
    mut x: usize,
    params: &FriParams,
) -> Result<FriQueryRound<S>, FriError> {
    let initial_trees = oracles
        .iter()
        .map(|o| {
            let row = o.tree().leaf(x as u64).expect("x < lde_size").to_vec();
            Ok(FriInitialOpening {
                row,
                merkle_path: o.tree().path(x as u64)?,
            })
        })
        .collect::<Result<Vec<_>, FriError>>()?;
    let mut steps = Vec::with_capacity(trees.len());
    for (tree, &bits) in trees.iter().zip(&params.reduction_arity_bits) {
        x >>= bits;
        let leaf = tree
            .leaf(x as u64)
            .expect("the index shrinks with the tree");
        let evals = leaf
            .chunks_exact(<S::E as ExtensionField<S::F>>::DEGREE)
            .map(|c| S::E::from_base_slice(c).expect("DEGREE coordinates"))
            .collect();
        steps.push(FriQueryStep {
            evals,
            merkle_path: tree.path(x as u64)?,
        });
    }
    Ok(FriQueryRound {
        initial_trees,
        steps,
    })
}

/// `Σ_j α^j f_j` over `n` coefficients (plonky2's `reduce_polys_base`: the first polynomial
/// gets `α^0`).
fn combine<F: Field + Send + Sync, E: ExtensionField<F> + Send + Sync>(
    polys: &[&[F]],
    alpha: E,
    n: usize,
) -> Vec<E> {
    let powers: Vec<E> = std::iter::successors(Some(E::ONE), |p| Some(*p * alpha))
        .take(polys.len())
        .collect();
    let mut out = vec![E::ZERO; n];
    out.par_chunks_mut(1 << 12)
        .enumerate()
        .for_each(|(c, chunk)| {
            let start = c << 12;
            for (poly, &power) in polys.iter().zip(&powers) {
                for (o, &f) in chunk.iter_mut().zip(&poly[start..]) {
                    *o += power * f;
                }
            }
        });
    out
}

/// `(p − p(z)) / (X − z)` by synthetic division (plonky2's `divide_by_linear`): one
/// coefficient shorter than `p`.
fn divide_by_linear<E: Field>(p: &[E], z: E) -> Vec<E> {
    let mut q: Vec<E> = p
        .iter()
        .rev()
        .scan(E::ZERO, |acc, &c| {
            *acc = *acc * z + c;
            Some(*acc)
        })
        .collect();
    q.pop();
    q.reverse();
    q
}

fn check_oracles<S: FriScheme>(
    instance: &FriInstance<S::E>,
    oracles: &[&PolynomialBatch<S>],
    params: &FriParams,
) -> Result<(), FriError> {
    if oracles.len() != instance.oracles.len() {
        return Err(FriError::Polynomials(format!(
            "{} committed batches for an instance of {}",
            oracles.len(),
            instance.oracles.len()
        )));
    }
    for (k, (o, info)) in oracles.iter().zip(&instance.oracles).enumerate() {
        if o.polynomials().len() != info.num_polys
            || o.degree_log() != params.degree_bits
            || o.rate_bits() != params.config.rate_bits
            || o.tree().cap_height() != params.config.cap_height
        {
            return Err(FriError::Polynomials(format!(
                "batch {k} ({} polynomials of 2^{} coefficients at rate bits {}, cap height {}) \
                 does not match the instance and parameters ({} polynomials of 2^{}, rate bits \
                 {}, cap height {})",
                o.polynomials().len(),
                o.degree_log(),
                o.rate_bits(),
                o.tree().cap_height(),
                info.num_polys,
                params.degree_bits,
                params.config.rate_bits,
                params.config.cap_height
            )));
        }
    }
    Ok(())
}
