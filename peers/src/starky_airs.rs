//! The AIRs of zkaccel's STARK tests written against starky 1.1.0's `Stark` trait (starky's
//! Fibonacci AIR is private to its tests, so its five constraints are copied in order; UniZK's
//! Factorial AIR is from its vendored starky), the canonical encoding E of a starky proof, and
//! zkaccel's configuration as starky's.

use core::marker::PhantomData;

use plonky2::field::extension::{Extendable, FieldExtension};
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::packed::PackedField;
use plonky2::field::polynomial::PolynomialCoeffs;
use plonky2::fri::proof::{FriInitialTreeProof, FriProof, FriQueryRound, FriQueryStep};
use plonky2::fri::reduction_strategies::FriReductionStrategy as TheirStrategy;
use plonky2::fri::FriConfig as TheirFriConfig;
use plonky2::hash::hash_types::RichField;
use plonky2::hash::merkle_proofs::MerkleProof;
use plonky2::hash::merkle_tree::MerkleCap;
use plonky2::iop::ext_target::ExtensionTarget;
use plonky2::plonk::circuit_builder::CircuitBuilder;
use plonky2::plonk::config::GenericConfig;
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2::util::serialization::Write;
use starky::config::StarkConfig as TheirConfig;
use starky::constraint_consumer::{ConstraintConsumer, RecursiveConstraintConsumer};
use starky::evaluation_frame::{StarkEvaluationFrame, StarkFrame};
use starky::proof::{StarkOpeningSet, StarkProof as TheirProof, StarkProofWithPublicInputs};
use zkaccel_field::ExtensionField;
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_stark::StarkProof;

use crate::{digest_to_plonky2, to_plonky2};
use starky::stark::Stark;
use zkaccel_fri::FriReductionStrategy;
use zkaccel_stark::StarkConfig;

type F = GoldilocksField;
type C = PoseidonGoldilocksConfig;
const D: usize = 2;

/// starky's `FibonacciStark` (two columns, three public inputs, degree 2).
#[derive(Copy, Clone, Default)]
pub struct FibonacciStark<F: RichField + Extendable<D>, const D: usize>(PhantomData<F>);

impl<F: RichField + Extendable<D>, const D: usize> Stark<F, D> for FibonacciStark<F, D> {
    type EvaluationFrame<FE, P, const D2: usize>
        = StarkFrame<P, P::Scalar, 2, 3>
    where
        FE: FieldExtension<D2, BaseField = F>,
        P: PackedField<Scalar = FE>;
    type EvaluationFrameTarget = StarkFrame<ExtensionTarget<D>, ExtensionTarget<D>, 2, 3>;

    fn eval_packed_generic<FE, P, const D2: usize>(
        &self,
        vars: &Self::EvaluationFrame<FE, P, D2>,
        c: &mut ConstraintConsumer<P>,
    ) where
        FE: FieldExtension<D2, BaseField = F>,
        P: PackedField<Scalar = FE>,
    {
        let (l, n, p) = (
            vars.get_local_values(),
            vars.get_next_values(),
            vars.get_public_inputs(),
        );
        c.constraint_first_row(l[0] - p[0]);
        c.constraint_first_row(l[1] - p[1]);
        c.constraint_last_row(l[1] - p[2]);
        c.constraint_transition(n[0] - l[1]);
        c.constraint_transition(n[1] - l[0] - l[1]);
    }

    fn eval_ext_circuit(
        &self,
        b: &mut CircuitBuilder<F, D>,
        vars: &Self::EvaluationFrameTarget,
        c: &mut RecursiveConstraintConsumer<F, D>,
    ) {
        let (l, n, p) = (
            vars.get_local_values(),
            vars.get_next_values(),
            vars.get_public_inputs(),
        );
        let x = b.sub_extension(l[0], p[0]);
        c.constraint_first_row(b, x);
        let x = b.sub_extension(l[1], p[1]);
        c.constraint_first_row(b, x);
        let x = b.sub_extension(l[1], p[2]);
        c.constraint_last_row(b, x);
        let x = b.sub_extension(n[0], l[1]);
        c.constraint_transition(b, x);
        let t = b.sub_extension(n[1], l[0]);
        let x = b.sub_extension(t, l[1]);
        c.constraint_transition(b, x);
    }

    fn constraint_degree(&self) -> usize {
        2
    }
}

/// UniZK's FactorialStark (its vendored starky's `factorial_stark.rs`).
#[derive(Copy, Clone, Default)]
pub struct FactorialStark<F: RichField + Extendable<D>, const D: usize>(PhantomData<F>);

impl<F: RichField + Extendable<D>, const D: usize> Stark<F, D> for FactorialStark<F, D> {
    type EvaluationFrame<FE, P, const D2: usize>
        = StarkFrame<P, P::Scalar, 2, 1>
    where
        FE: FieldExtension<D2, BaseField = F>,
        P: PackedField<Scalar = FE>;
    type EvaluationFrameTarget = StarkFrame<ExtensionTarget<D>, ExtensionTarget<D>, 2, 1>;

    fn eval_packed_generic<FE, P, const D2: usize>(
        &self,
        vars: &Self::EvaluationFrame<FE, P, D2>,
        c: &mut ConstraintConsumer<P>,
    ) where
        FE: FieldExtension<D2, BaseField = F>,
        P: PackedField<Scalar = FE>,
    {
        let (l, n, p) = (
            vars.get_local_values(),
            vars.get_next_values(),
            vars.get_public_inputs(),
        );
        c.constraint_last_row(l[1] - p[0]);
        c.constraint_transition(n[0] - l[0] - P::ONES);
        c.constraint_transition(n[1] - l[0] * l[1]);
    }

    fn eval_ext_circuit(
        &self,
        b: &mut CircuitBuilder<F, D>,
        vars: &Self::EvaluationFrameTarget,
        c: &mut RecursiveConstraintConsumer<F, D>,
    ) {
        let (l, n, p) = (
            vars.get_local_values(),
            vars.get_next_values(),
            vars.get_public_inputs(),
        );
        let x = b.sub_extension(l[1], p[0]);
        c.constraint_last_row(b, x);
        let one = b.one_extension();
        let t = b.sub_extension(n[0], l[0]);
        let x = b.sub_extension(t, one);
        c.constraint_transition(b, x);
        let m = b.mul_extension(l[0], l[1]);
        let x = b.sub_extension(n[1], m);
        c.constraint_transition(b, x);
    }

    fn constraint_degree(&self) -> usize {
        3
    }
}

/// The canonical encoding E of a starky proof (the layout of UniZK's `to_bytes`, for an AIR
/// without lookups), written with plonky2's `Write`.
pub fn encode(p: &StarkProofWithPublicInputs<F, C, D>) -> Vec<u8> {
    let mut out = Vec::new();
    let proof = &p.proof;
    out.write_merkle_cap(&proof.trace_cap).unwrap();
    out.write_merkle_cap(proof.quotient_polys_cap.as_ref().unwrap())
        .unwrap();
    out.write_field_ext_vec::<F, D>(&proof.openings.local_values)
        .unwrap();
    out.write_field_ext_vec::<F, D>(&proof.openings.next_values)
        .unwrap();
    out.write_field_ext_vec::<F, D>(proof.openings.quotient_polys.as_ref().unwrap())
        .unwrap();
    out.write_fri_proof::<F, C, D>(&proof.opening_proof)
        .unwrap();
    out.write_usize(p.public_inputs.len()).unwrap();
    out.write_field_vec(&p.public_inputs).unwrap();
    out
}

pub fn their_config(c: &StarkConfig) -> TheirConfig {
    let f = &c.fri_config;
    TheirConfig {
        security_bits: c.security_bits,
        num_challenges: c.num_challenges,
        fri_config: TheirFriConfig {
            rate_bits: f.rate_bits,
            cap_height: f.cap_height,
            proof_of_work_bits: f.proof_of_work_bits,
            reduction_strategy: match &f.reduction_strategy {
                FriReductionStrategy::Fixed(v) => TheirStrategy::Fixed(v.clone()),
                &FriReductionStrategy::ConstantArityBits(a, b) => {
                    TheirStrategy::ConstantArityBits(a, b)
                }
                &FriReductionStrategy::MinSize(m) => TheirStrategy::MinSize(m),
            },
            num_query_rounds: f.num_query_rounds,
        },
    }
}

/// Our proof as starky's proof struct, field by field (nothing goes through bytes), so that
/// starky's own verifier can be run on a proof zkaccel made.
pub fn to_starky(p: &StarkProof<Plonky2Goldilocks>) -> StarkProofWithPublicInputs<F, C, D> {
    type H = <C as GenericConfig<D>>::Hasher;
    let ext = |v: &[Goldilocks2]| -> Vec<<F as Extendable<D>>::Extension> {
        v.iter()
            .map(|e| {
                let [a, b] = [e.as_base_slice()[0], e.as_base_slice()[1]];
                <F as Extendable<D>>::Extension::from_basefield_array([
                    to_plonky2(a),
                    to_plonky2(b),
                ])
            })
            .collect()
    };
    let cap = |c: &[[Goldilocks; 4]]| MerkleCap::<F, H>(c.iter().map(digest_to_plonky2).collect());
    let path = |c: &[[Goldilocks; 4]]| MerkleProof::<F, H> {
        siblings: c.iter().map(digest_to_plonky2).collect(),
    };
    let fri = &p.opening_proof;
    StarkProofWithPublicInputs {
        proof: TheirProof {
            trace_cap: cap(&p.trace_cap),
            auxiliary_polys_cap: None,
            quotient_polys_cap: Some(cap(&p.quotient_cap)),
            openings: StarkOpeningSet {
                local_values: ext(&p.local_values),
                next_values: ext(&p.next_values),
                auxiliary_polys: None,
                auxiliary_polys_next: None,
                ctl_zs_first: None,
                quotient_polys: Some(ext(&p.quotient_values)),
            },
            opening_proof: FriProof {
                commit_phase_merkle_caps: fri.commit_phase_caps.iter().map(|c| cap(c)).collect(),
                query_round_proofs: fri
                    .query_rounds
                    .iter()
                    .map(|r| FriQueryRound {
                        initial_trees_proof: FriInitialTreeProof {
                            evals_proofs: r
                                .initial_trees
                                .iter()
                                .map(|t| {
                                    (
                                        t.row.iter().map(|&x| to_plonky2(x)).collect(),
                                        path(&t.merkle_path),
                                    )
                                })
                                .collect(),
                        },
                        steps: r
                            .steps
                            .iter()
                            .map(|s| FriQueryStep {
                                evals: ext(&s.evals),
                                merkle_proof: path(&s.merkle_path),
                            })
                            .collect(),
                    })
                    .collect(),
                final_poly: PolynomialCoeffs::new(ext(&fri.final_poly)),
                pow_witness: to_plonky2(fri.pow_witness),
            },
        },
        public_inputs: p.public_inputs.iter().map(|&x| to_plonky2(x)).collect(),
    }
}
