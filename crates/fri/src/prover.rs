//! The FRI prover (plonky2's `prove_openings` and `fri_proof`).

use std::time::Instant;

use rayon::prelude::*;
use zkaccel_field::{ExtensionField, Field};
use zkaccel_kernel_trace::{
    Kernel, KernelId, KernelSink, LeafLayout, NttLayout, NttOrder, Phase, VectorForm, VectorOp,
    VectorOpKind,
};
use zkaccel_merkle::MerkleTree;
use zkaccel_merkle::TreeHasher;
use zkaccel_ntt::{bit_reverse, Layout, LdeInput, NttPlan};

use crate::batch::PolynomialBatch;
use crate::proof::{FriInitialOpening, FriProof, FriQueryRound, FriQueryStep};
use crate::scheme::{Challenger, FriScheme};
use crate::structure::FriInstance;
use crate::verifier::check_instance;
use crate::{record_challenger, FriError, FriParams, PolynomialsError};

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
/// Its kernels go to `sink` ([`zkaccel_kernel_trace::NoTrace`] keeps nothing): the combined
/// quotient (phase `fri-commit`, depending on the oracles' coefficients and on `deps`, what
/// drew the transcript to here), the codeword and each folding layer's tree, fold and
/// transform, the challenger's work, the proof of work (`fri-pow`) and the query openings
/// (`fri-query`). Record the oracles' own kernels into the same sink first
/// ([`PolynomialBatch::record_kernels`]): FRI's records depend on their ids.
///
/// # Errors
/// [`FriError::Polynomials`] when the oracles do not match the instance or the parameters
/// (count, widths, lengths, blowup), or an index is out of range; errors of the transforms,
/// the trees and the challenger; [`FriError::Untraceable`] when recording kernels over a
/// field traces do not name.
pub fn prove_openings<S: FriScheme>(
    instance: &FriInstance<S::E>,
    oracles: &[&PolynomialBatch<S>],
    challenger: &mut Challenger<S>,
    params: &FriParams,
    sink: &mut impl KernelSink,
    deps: &[KernelId],
) -> Result<FriProof<S>, FriError> {
    check_instance(instance, params)?;
    check_oracles(instance, oracles, params)?;
    let n = 1usize << params.degree_bits;
    let names = crate::TraceNames::of::<S>(sink)?;
    let (base_field, ext_field) = (names.base, names.extension);
    let ext_bytes = ext_field.element_bytes();
    let base_bytes = base_field.element_bytes();
    let op = |op, form| VectorOp { op, form, ext: 2 };
    let (mul_vs, add_vv) = (
        op(VectorOpKind::Mul, VectorForm::Vs),
        op(VectorOpKind::Add, VectorForm::Vv),
    );

    // 1. The combined quotient.
    let (before, started) = (challenger.counts(), Instant::now());
    let alpha: S::E = challenger.extension_challenge();
    let alpha_id =
        record_challenger::<S>(sink, Phase::CHALLENGER, deps, challenger, before, started);
    let mut final_poly: Vec<S::E> = Vec::new();
    let mut combined_id = None;
    for batch in &instance.batches {
        let started = Instant::now();
        let polys: Vec<&[S::F]> = batch
            .polynomials
            .iter()
            .map(|p| oracles[p.oracle_index].polynomials()[p.polynomial_index].as_slice())
            .collect();
        let composition = combine(&polys, alpha, n);
        let mut batch_deps: Vec<KernelId> = batch
            .polynomials
            .iter()
            .flat_map(|p| {
                oracles[p.oracle_index]
                    .kernels()
                    .coefficients
                    .iter()
                    .copied()
            })
            .chain([alpha_id])
            .collect();
        batch_deps.sort_unstable();
        batch_deps.dedup();
        // Per coefficient: Σ α^j·f_j, one multiply-add per polynomial.
        let combination_id =
            sink.record(Phase::FRI_COMMIT, &batch_deps, started, || Kernel::Vector {
                field: base_field,
                len: n as u64,
                ops: [mul_vs, add_vv].repeat(polys.len()),
                in_bytes: polys.len() as u64 * base_bytes * n as u64,
                out_bytes: ext_bytes * n as u64,
                gather_bytes: 0,
                gathers: Vec::new(),
                scan: false,
                gates: Vec::new(),
            });
        let started = Instant::now();
        let mut quotient = divide_by_linear(&composition, batch.point);
        quotient.push(S::E::ZERO);
        // Ruffini's division by X − z: each quotient coefficient is the next one times z plus
        // a coefficient — a scan, not independent lanes.
        let division_id = sink.record(Phase::FRI_COMMIT, &[combination_id], started, || {
            Kernel::Vector {
                field: base_field,
                len: n as u64,
                ops: vec![mul_vs, add_vv],
                in_bytes: ext_bytes * n as u64,
                out_bytes: ext_bytes * n as u64,
                gather_bytes: 0,
                gathers: Vec::new(),
                scan: true,
                gates: Vec::new(),
            }
        });
        let started = Instant::now();
        let scale = alpha.exp_u64(polys.len() as u64);
        final_poly.iter_mut().for_each(|c| *c *= scale);
        if final_poly.len() < quotient.len() {
            final_poly.resize(quotient.len(), S::E::ZERO);
        }
        final_poly
            .iter_mut()
            .zip(&quotient)
            .for_each(|(c, q)| *c += *q);
        // The running sum, scaled by α^{#polynomials}.
        let mut sum_deps: Vec<KernelId> = [division_id].into_iter().chain(combined_id).collect();
        sum_deps.sort_unstable();
        combined_id = Some(
            sink.record(Phase::FRI_COMMIT, &sum_deps, started, || Kernel::Vector {
                field: base_field,
                len: n as u64,
                ops: vec![mul_vs, add_vv],
                in_bytes: 2 * ext_bytes * n as u64,
                out_bytes: ext_bytes * n as u64,
                gather_bytes: 0,
                gathers: Vec::new(),
                scan: false,
                gates: Vec::new(),
            }),
        );
    }

    // 2. The commit phase.
    let lde_bits = params.lde_bits();
    let plan = S::base_plan(lde_bits)?;
    let started = Instant::now();
    let mut coeffs = final_poly;
    coeffs.resize(1 << lde_bits, S::E::ZERO);
    let mut shift = S::coset_shift();
    let mut values = coset_evaluations(&plan, &coeffs, params.config.rate_bits, shift)?;
    let coset_ntt = |log_n: usize| Kernel::Ntt {
        field: ext_field,
        log_n: log_n as u32,
        batch: 1,
        inverse: false,
        coset: true,
        order: NttOrder::Nn,
        layout: NttLayout::PolyMajor,
        zero_log: params.config.rate_bits as u32,
    };
    let mut codeword_id = sink.record(
        Phase::FRI_COMMIT,
        &Vec::from_iter(combined_id),
        started,
        || coset_ntt(lde_bits),
    );
    let mut coeffs_id = combined_id.unwrap_or(alpha_id);
    let mut transcript_id = alpha_id;
    let hasher = S::hasher();
    let layers = params.reduction_arity_bits.len();
    let mut trees = Vec::with_capacity(layers);
    for (layer, &arity_bits) in params.reduction_arity_bits.iter().enumerate() {
        let arity = 1usize << arity_bits;
        let started = Instant::now();
        bit_reverse(&mut values, 1)?;
        let degree = <S::E as ExtensionField<S::F>>::DEGREE;
        let mut leaves = Vec::with_capacity(values.len() * degree);
        for v in &values {
            leaves.extend_from_slice(v.as_base_slice());
        }
        let layout_id = sink.record(Phase::FRI_COMMIT, &[codeword_id], started, || {
            Kernel::Copy {
                bytes: 2 * values.len() as u64 * ext_bytes,
            }
        });
        let started = Instant::now();
        let tree = MerkleTree::new(
            hasher.clone(),
            leaves,
            arity * degree,
            params.config.cap_height,
        )?;
        let tree_id = sink.record(Phase::FRI_COMMIT, &[layout_id], started, || {
            Kernel::Merkle {
                hash: names.hash.clone(),
                log_leaves: (values.len().trailing_zeros() - arity_bits as u32),
                leaf_width: (arity * degree) as u64,
                cap_height: params.config.cap_height as u32,
                arity: 2,
                leaf_layout: LeafLayout::Rows,
            }
        });
        let (before, started) = (challenger.counts(), Instant::now());
        crate::observe_cap::<S>(challenger, tree.cap());
        trees.push(tree);
        let beta: S::E = challenger.extension_challenge();
        transcript_id = record_challenger::<S>(
            sink,
            Phase::CHALLENGER,
            &[transcript_id, tree_id],
            challenger,
            before,
            started,
        );
        let started = Instant::now();
        let folded_len = coeffs.len() / arity;
        coeffs = coeffs
            .par_chunks_exact(arity)
            .map(|chunk| {
                chunk
                    .iter()
                    .rev()
                    .fold(S::E::ZERO, |acc, &c| acc * beta + c)
            })
            .collect();
        coeffs_id = sink.record(
            Phase::FRI_COMMIT,
            &[coeffs_id, transcript_id],
            started,
            || Kernel::Vector {
                field: base_field,
                len: folded_len as u64,
                ops: [mul_vs, add_vv].repeat(arity),
                in_bytes: (folded_len * arity) as u64 * ext_bytes,
                out_bytes: folded_len as u64 * ext_bytes,
                gather_bytes: 0,
                gathers: Vec::new(),
                scan: false,
                gates: Vec::new(),
            },
        );
        shift = shift.exp_u64(arity as u64);
        if layer + 1 < layers {
            // The next layer's codeword (after the last layer only the coefficients count).
            let started = Instant::now();
            values = coset_evaluations(&plan, &coeffs, params.config.rate_bits, shift)?;
            codeword_id = sink.record(Phase::FRI_COMMIT, &[coeffs_id], started, || {
                coset_ntt(values.len().trailing_zeros() as usize)
            });
        }
    }
    let (before, started) = (challenger.counts(), Instant::now());
    coeffs.truncate(coeffs.len() >> params.config.rate_bits);
    challenger.observe_extension_elements(&coeffs);
    transcript_id = record_challenger::<S>(
        sink,
        Phase::CHALLENGER,
        &[transcript_id, coeffs_id],
        challenger,
        before,
        started,
    );

    // 3. Grinding and queries.
    let (before, started) = (challenger.counts(), Instant::now());
    let pow_witness = challenger.grind(params.config.proof_of_work_bits)?;
    let pow_id = sink.record(Phase::FRI_POW, &[transcript_id], started, || {
        Kernel::Grind {
            hash: names.hash.clone(),
            pow_bits: params.config.proof_of_work_bits,
            permutations: challenger.counts().grind_permutations - before.grind_permutations,
        }
    });
    let (before, started) = (challenger.counts(), Instant::now());
    let lde_size = params.lde_size();
    let indices = (0..params.config.num_query_rounds)
        .map(|_| challenger.index_challenge(lde_size))
        .collect::<Result<Vec<_>, _>>()?;
    let queries_id = record_challenger::<S>(
        sink,
        Phase::CHALLENGER,
        &[pow_id],
        challenger,
        before,
        started,
    );
    let started = Instant::now();
    let query_rounds = indices
        .par_iter()
        .map(|&x| query_round::<S>(oracles, &trees, x, params))
        .collect::<Result<Vec<_>, _>>()?;
    let mut query_deps: Vec<KernelId> = oracles
        .iter()
        .map(|o| o.kernels().tree)
        .chain([queries_id])
        .collect();
    query_deps.sort_unstable();
    query_deps.dedup();
    sink.record(Phase::FRI_QUERY, &query_deps, started, || {
        // The elements the rounds opened: rows, layer cosets and Merkle paths.
        let digest = oracles
            .first()
            .and_then(|o| o.cap().first())
            .map_or(0, |d| S::Hasher::digest_elements(d).len());
        let opened: usize = query_rounds
            .iter()
            .map(|r: &FriQueryRound<S>| {
                r.initial_trees
                    .iter()
                    .map(|t| t.row.len() + t.merkle_path.len() * digest)
                    .chain(r.steps.iter().map(|s| {
                        s.evals.len() * <S::E as ExtensionField<S::F>>::DEGREE
                            + s.merkle_path.len() * digest
                    }))
                    .sum::<usize>()
            })
            .sum();
        Kernel::Copy {
            bytes: opened.max(1) as u64 * base_bytes,
        }
    });
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
/// The evaluations, natural order, on the coset `shift·⟨ω_n⟩` of the extension polynomial with
/// these `n` coefficients, over the base field: the twiddles and the shift lie in the base
/// field, so the transform acts on each coordinate of the extension alone: `D` base-field
/// transforms, a base product per butterfly instead of an extension product. Coefficients past
/// `n / 2^log_blowup` are zero in every FRI layer (the codeword's rate), which the base plan's
/// LDE skips; where they are not, the whole transform runs.
///
/// # Errors
/// As [`NttPlan::lde_batch_in_place`].
fn coset_evaluations<F: zkaccel_ntt::NttField, E: ExtensionField<F>>(
    plan: &NttPlan<F>,
    coeffs: &[E],
    log_blowup: usize,
    shift: F,
) -> Result<Vec<E>, FriError> {
    let degree = <E as ExtensionField<F>>::DEGREE;
    let n = coeffs.len();
    let zero_tail = (0..=log_blowup.min(n.trailing_zeros() as usize))
        .rev()
        .find(|&b| coeffs[n >> b..].iter().all(|c| *c == E::ZERO))
        .unwrap_or(0);
    let m = n >> zero_tail;
    // Coordinate-major: each coordinate's coefficients in a run of their own.
    let mut columns = Vec::with_capacity(m * degree);
    for k in 0..degree {
        columns.extend(coeffs[..m].iter().map(|c| c.as_base_slice()[k]));
    }
    // The columns grow into their own extension: peak memory is the evaluations alone.
    let mut evaluations = columns;
    plan.lde_batch_in_place(
        &mut evaluations,
        degree,
        Layout::PolynomialMajor,
        zero_tail,
        shift,
        LdeInput::Coefficients,
    )?;
    const RUN: usize = 1 << 12;
    let mut values = vec![E::ZERO; n];
    values
        .par_chunks_mut(RUN)
        .enumerate()
        .try_for_each(|(run, out)| {
            let mut point = vec![F::ZERO; degree];
            for (j, value) in out.iter_mut().enumerate() {
                let i = run * RUN + j;
                for (k, x) in point.iter_mut().enumerate() {
                    *x = evaluations[k * n + i];
                }
                *value = E::from_base_slice(&point)?;
            }
            Ok(())
        })
        .map_err(PolynomialsError::ExtensionCoordinates)?;
    Ok(values)
}

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
        return Err(PolynomialsError::OracleCount {
            expected: instance.oracles.len(),
            got: oracles.len(),
        }
        .into());
    }
    for (batch, (o, info)) in oracles.iter().zip(&instance.oracles).enumerate() {
        let shape = [
            ("polynomials", info.num_polys, o.polynomials().len()),
            ("degree bits", params.degree_bits, o.degree_log()),
            ("rate bits", params.config.rate_bits, o.rate_bits()),
            (
                "cap height",
                params.config.cap_height,
                o.tree().cap_height(),
            ),
        ];
        if let Some(&(what, expected, got)) = shape.iter().find(|(_, e, g)| e != g) {
            return Err(PolynomialsError::OracleShape {
                batch,
                what,
                expected,
                got,
            }
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
    use zkaccel_ntt::Order;

    use super::*;
    use zkaccel_field::TwoAdicField;
    use zkaccel_ntt::{Algorithm, NttPlan, DEFAULT_CORE_LOG};

    /// plonky2's conventions (`zkaccel-plonky2` holds the scheme): its generator as the shift,
    /// its root of unity for the base field, a square root of it for the extension.
    fn plans(log_n: usize) -> (NttPlan<Goldilocks>, NttPlan<Goldilocks2>) {
        let algorithm = Algorithm::FourStep {
            core_log: DEFAULT_CORE_LOG,
        };
        let root = Goldilocks::plonky2_two_adic_generator(Goldilocks::TWO_ADICITY).unwrap();
        let ext_root = Goldilocks2::from_base(root).sqrt().unwrap();
        (
            NttPlan::with_two_adic_root(log_n, algorithm, root).unwrap(),
            NttPlan::with_two_adic_root(log_n, algorithm, ext_root).unwrap(),
        )
    }

    /// The base-field route equals the transform over the extension (extension twiddles, the
    /// shift embedded), with and without a zero tail for the LDE to skip.
    #[test]
    fn coset_evaluations_equal_the_extension_transform() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(29);
        let element = |rng: &mut rand::rngs::StdRng| {
            let c = [rng.gen::<u64>(), rng.gen::<u64>()].map(Goldilocks::new_reduced);
            Goldilocks2::from_base_slice(&c).unwrap()
        };
        let shift = Goldilocks::PLONKY2_GENERATOR.exp_u64(3);
        for log_n in 0..=11 {
            let n = 1usize << log_n;
            let (base, ext) = plans(log_n);
            for zero_bits in 0..=log_n.min(3) {
                let mut coeffs: Vec<Goldilocks2> = (0..n).map(|_| element(&mut rng)).collect();
                coeffs[n >> zero_bits..].fill(Goldilocks2::ZERO);
                let mut expected = coeffs.clone();
                ext.coset_forward(&mut expected, Goldilocks2::from_base(shift), Order::NN)
                    .unwrap();
                for log_blowup in 0..=3 {
                    let got = coset_evaluations(&base, &coeffs, log_blowup, shift).unwrap();
                    assert_eq!(
                        got, expected,
                        "2^{log_n}, zero tail {zero_bits}, {log_blowup}"
                    );
                }
            }
        }
    }
}
