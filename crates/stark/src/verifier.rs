//! The verifier.

use zkaccel_codec::ShapeError;
use zkaccel_field::{Algebra, Field};
use zkaccel_fri::{fri_challenges, observe_cap, verify_fri_proof, FriScheme};

use crate::air::Air;
use crate::config::StarkConfig;
use crate::proof::{ProofShape, StarkProof};
use crate::transcript::{
    bind_constraints, constraints_at, fri_instance, fri_openings, start, subgroup_generator,
};
use crate::{Rejection, StarkError};

/// How much the verifier asks of a proof beyond what starky checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerifyMode {
    /// The default: the opening point `ζ` must lie outside the trace subgroup (starky checks
    /// this only when proving).
    #[default]
    Strict,
    /// Exactly starky 1.1.0's verifier, for cross-verification.
    StarkyCompatible,
}

/// The shape of a proof of `air` over `2^degree_bits` rows under `config`.
fn shape<A: Air>(air: &A, config: &StarkConfig) -> ProofShape {
    ProofShape {
        columns: air.columns(),
        quotient_polys: air.quotient_degree_factor() * config.num_challenges,
        public_inputs: air.public_inputs(),
        cap_len: 1 << config.fri_config.cap_height,
    }
}

/// Checks that `proof` shows a trace of `2^degree_bits` rows satisfying `air` with the
/// proof's public inputs, under `config`. The number of rows is part of the statement: the
/// caller states it (starky reads it from the proof).
///
/// # Errors
/// [`StarkError::OutOfRange`] / [`StarkError::TraceRows`] / [`StarkError::ProofShape`] when the
/// configuration, the degree, the rows or the proof's shape do not fit; [`StarkError::Rejected`]
/// (or a FRI rejection) when the proof
/// is well formed but false. Never panics, whatever the proof holds.
pub fn verify<A: Air, S: FriScheme>(
    air: &A,
    config: &StarkConfig,
    degree_bits: usize,
    proof: &StarkProof<S>,
    mode: VerifyMode,
) -> Result<(), StarkError> {
    config.check::<S>()?;
    let degree = air.constraint_degree();
    let rate_bits = config.fri_config.rate_bits;
    crate::prover::check_degree(degree, rate_bits)?;
    if degree_bits == 0 {
        return Err(StarkError::TraceRows { rows: 1 });
    }
    let params = config.fri_config.params(degree_bits, S::max_lde_bits())?;
    let expected = shape(air, config);
    let lengths = [
        (
            "the public inputs",
            expected.public_inputs,
            proof.public_inputs.len(),
        ),
        (
            "the trace cap's digests",
            expected.cap_len,
            proof.trace_cap.len(),
        ),
        (
            "the quotient cap's digests",
            expected.cap_len,
            proof.quotient_cap.len(),
        ),
        (
            "the openings at ζ",
            expected.columns,
            proof.local_values.len(),
        ),
        (
            "the openings at gζ",
            expected.columns,
            proof.next_values.len(),
        ),
        (
            "the quotient openings",
            expected.quotient_polys,
            proof.quotient_values.len(),
        ),
    ];
    for (what, want, got) in lengths {
        ShapeError::expect(want, got, || what)?;
    }
    let public_inputs = &proof.public_inputs;
    let mut challenger = start::<S>(config, public_inputs, &proof.trace_cap);
    let alphas = bind_constraints::<A, S>(air, config, &mut challenger, public_inputs, degree_bits);
    observe_cap::<S>(&mut challenger, &proof.quotient_cap);
    let zeta: S::E = challenger.extension_challenge();
    let zeta_n = zeta.exp_power_of_2(degree_bits);
    if mode == VerifyMode::Strict && zeta_n == S::E::ONE {
        return Err(Rejection::ZetaInSubgroup.into());
    }
    let openings = fri_openings(
        &proof.local_values,
        &proof.next_values,
        &proof.quotient_values,
    );
    for batch in &openings.batches {
        challenger.observe_extension_elements(batch);
    }
    let challenges = fri_challenges(&mut challenger, &proof.opening_proof, &params)?;

    // The constraints at ζ equal Z_H(ζ) times the quotient, reassembled from its chunks.
    let vanishing = constraints_at::<A, S>(
        air,
        &proof.local_values,
        &proof.next_values,
        public_inputs,
        &alphas,
        zeta,
        degree_bits,
    );
    let z_h = zeta_n - S::E::ONE;
    let qdf = air.quotient_degree_factor();
    for (j, chunk) in proof.quotient_values.chunks_exact(qdf).enumerate() {
        let quotient = chunk
            .iter()
            .rev()
            .fold(S::E::ZERO, |acc, &c| acc * zeta_n + c);
        if vanishing[j] != z_h * quotient {
            return Err(Rejection::QuotientMismatch { chunk: j }.into());
        }
    }
    let g_zeta = zeta * subgroup_generator::<S>(degree_bits);
    let instance = fri_instance(air.columns(), expected.quotient_polys, zeta, g_zeta);
    verify_fri_proof(
        &instance,
        &openings,
        &challenges,
        &[&proof.trace_cap, &proof.quotient_cap],
        &proof.opening_proof,
        &params,
    )?;
    Ok(())
}
