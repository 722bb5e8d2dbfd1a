//! The prover and verifier on their own terms (byte equality with starky is in `peers/` and
//! `tests/vectors.rs`): proofs verify; the verifier is attacked with every flipped byte of a
//! proof, truncations, wrong public inputs, another trace length, another AIR and random
//! bytes, and answers each with an error, never a panic; bad traces and configurations are
//! typed errors of the prover (starky panics on an unsatisfied trace).

use rand::{Rng, SeedableRng};
use zkaccel_field::Field;
use zkaccel_fri::FriError;
use zkaccel_fri::{FriConfig, FriReductionStrategy};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::NoTrace;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_plonky2::{decode_stark_proof, Plonky2Encoding as _};
use zkaccel_stark::{
    prove, verify, Air, FactorialAir, FibonacciAir, StarkConfig, StarkError, VerifyMode,
};

type S = Plonky2Goldilocks;

fn g(v: u64) -> Goldilocks {
    Goldilocks::from_u64_reduced(v)
}

fn small() -> StarkConfig {
    StarkConfig {
        fri_config: FriConfig {
            rate_bits: 1,
            cap_height: 1,
            proof_of_work_bits: 2,
            reduction_strategy: FriReductionStrategy::ConstantArityBits(2, 1),
            num_query_rounds: 3,
        },
        security_bits: 5,
        num_challenges: 2,
    }
}

fn check<A: Air>(
    air: &A,
    config: &StarkConfig,
    log_rows: usize,
    bytes: &[u8],
) -> Result<(), StarkError> {
    let proof = decode_stark_proof::<_, S>(air, config, log_rows, bytes)?;
    verify(air, config, log_rows, &proof, VerifyMode::Strict)
}

#[test]
fn proofs_verify_for_both_airs_and_presets() {
    for config in [
        StarkConfig::standard_fast(),
        StarkConfig::small_proofs(),
        small(),
    ] {
        let (trace, pis) = FibonacciAir::trace(1 << 6, g(3), g(4)).unwrap();
        let proof = prove::<_, S>(&FibonacciAir, &config, trace, &pis, &mut NoTrace).unwrap();
        check(&FibonacciAir, &config, 6, &proof.to_bytes().unwrap()).unwrap();
        verify(
            &FibonacciAir,
            &config,
            6,
            &proof,
            VerifyMode::StarkyCompatible,
        )
        .unwrap();
        let (trace, pis) = FactorialAir::trace(1 << 6).unwrap();
        let proof = prove::<_, S>(&FactorialAir, &config, trace, &pis, &mut NoTrace).unwrap();
        check(&FactorialAir, &config, 6, &proof.to_bytes().unwrap()).unwrap();
    }
}

/// Domains smaller than a packing and not a multiple of it: the quotient's lanes fall back
/// to one point at a time for the tail (2 and 4 rows; Factorial doubles the domain), and the
/// verifier, which evaluates the constraints through another builder, accepts every proof.
#[test]
fn traces_shorter_than_a_packing_prove_and_verify() {
    let config = small();
    for log_rows in 1..=4 {
        let (trace, pis) = FibonacciAir::trace(1 << log_rows, g(5), g(8)).unwrap();
        let proof = prove::<_, S>(&FibonacciAir, &config, trace, &pis, &mut NoTrace).unwrap();
        check(&FibonacciAir, &config, log_rows, &proof.to_bytes().unwrap()).unwrap();
        let (trace, pis) = FactorialAir::trace(1 << log_rows).unwrap();
        let proof = prove::<_, S>(&FactorialAir, &config, trace, &pis, &mut NoTrace).unwrap();
        check(&FactorialAir, &config, log_rows, &proof.to_bytes().unwrap()).unwrap();
    }
}

#[test]
fn every_flipped_byte_truncation_and_extension_is_rejected() {
    let config = small();
    let (trace, pis) = FibonacciAir::trace(1 << 4, g(0), g(1)).unwrap();
    let bytes = prove::<_, S>(&FibonacciAir, &config, trace, &pis, &mut NoTrace)
        .unwrap()
        .to_bytes()
        .unwrap();
    check(&FibonacciAir, &config, 4, &bytes).unwrap();
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x01;
        assert!(
            check(&FibonacciAir, &config, 4, &b).is_err(),
            "byte {i} of {}",
            bytes.len()
        );
        b[i] ^= 0x81;
        assert!(
            check(&FibonacciAir, &config, 4, &b).is_err(),
            "byte {i} of {}",
            bytes.len()
        );
    }
    for len in 0..bytes.len() {
        assert!(matches!(
            check(&FibonacciAir, &config, 4, &bytes[..len]),
            Err(StarkError::Decode(_) | StarkError::Fri(_))
        ));
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 8]);
    assert!(check(&FibonacciAir, &config, 4, &longer).is_err());
}

#[test]
fn the_statement_is_bound() {
    let config = small();
    let (trace, pis) = FibonacciAir::trace(1 << 5, g(0), g(1)).unwrap();
    let proof = prove::<_, S>(&FibonacciAir, &config, trace, &pis, &mut NoTrace).unwrap();
    // Another public input (the claimed result, a seed).
    for k in 0..3 {
        let mut p = proof.clone();
        p.public_inputs[k] += Goldilocks::ONE;
        let err = verify(&FibonacciAir, &config, 5, &p, VerifyMode::Strict).unwrap_err();
        assert!(err.is_rejection(), "{err}");
    }
    // Another trace length, another AIR, another configuration.
    for other in [4, 6, 1, 0, 40] {
        assert!(verify(&FibonacciAir, &config, other, &proof, VerifyMode::Strict).is_err());
    }
    assert!(verify(&FactorialAir, &config, 5, &proof, VerifyMode::Strict).is_err());
    let bytes = proof.to_bytes().unwrap();
    for huge in [33, 64, usize::MAX] {
        assert!(matches!(
            decode_stark_proof::<_, S>(&FibonacciAir, &config, huge, &bytes),
            Err(StarkError::Fri(FriError::Config(_)))
        ));
        assert!(matches!(
            verify(&FibonacciAir, &config, huge, &proof, VerifyMode::Strict),
            Err(StarkError::Fri(FriError::Config(_)))
        ));
    }
    assert!(decode_stark_proof::<_, S>(&FibonacciAir, &config, 5, &[]).is_err());
    let other = StarkConfig {
        num_challenges: 1,
        ..small()
    };
    assert!(verify(&FibonacciAir, &other, 5, &proof, VerifyMode::Strict).is_err());
    let mut other = small();
    other.fri_config.num_query_rounds = 0;
    assert!(matches!(
        verify(&FibonacciAir, &other, 5, &proof, VerifyMode::Strict),
        Err(StarkError::Fri(FriError::Config(_)))
    ));
    other.fri_config.num_query_rounds = 3;
    other.fri_config.rate_bits = 0;
    assert!(matches!(
        verify(&FibonacciAir, &other, 5, &proof, VerifyMode::Strict),
        Err(StarkError::Fri(FriError::Config(_)))
    ));
    // Forged shapes.
    let mut p = proof.clone();
    p.quotient_values.pop();
    let want = proof.quotient_values.len() as u64;
    assert!(matches!(
        verify(&FibonacciAir, &config, 5, &p, VerifyMode::Strict),
        Err(StarkError::ProofShape(zkaccel_codec::ShapeError { what, expected, got }))
            if what == "the quotient openings" && expected == want && got == want - 1
    ));
    let mut p = proof.clone();
    p.opening_proof.query_rounds.clear();
    assert!(verify(&FibonacciAir, &config, 5, &p, VerifyMode::Strict).is_err());
    let mut p = proof;
    p.opening_proof.query_rounds[0].initial_trees[0]
        .merkle_path
        .pop();
    assert!(verify(&FibonacciAir, &config, 5, &p, VerifyMode::Strict).is_err());
}

#[test]
fn random_bytes_never_panic() {
    let config = small();
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let (trace, pis) = FactorialAir::trace(1 << 4).unwrap();
    let bytes = prove::<_, S>(&FactorialAir, &config, trace, &pis, &mut NoTrace)
        .unwrap()
        .to_bytes()
        .unwrap();
    for _ in 0..1000 {
        let mut b = bytes.clone();
        for _ in 0..rng.gen_range(1..8) {
            let i = rng.gen_range(0..b.len());
            b[i] = rng.gen();
        }
        let cut = rng.gen_range(0..=b.len());
        if rng.gen_bool(0.2) {
            b.truncate(cut);
        }
        assert!(b == bytes || check(&FactorialAir, &config, 4, &b).is_err());
    }
}

#[test]
fn bad_traces_and_inputs_are_typed_errors() {
    let config = small();
    let (mut trace, pis) = FibonacciAir::trace(1 << 4, g(0), g(1)).unwrap();
    trace[1][7] += Goldilocks::ONE;
    assert!(matches!(
        prove::<_, S>(&FibonacciAir, &config, trace, &pis, &mut NoTrace),
        // Row 6's second transition, F_8 − F_6 − F_7, reads the changed value first.
        Err(StarkError::Unsatisfied {
            constraint: 4,
            row: 6,
            rows: 16
        })
    ));
    let (trace, mut pis) = FibonacciAir::trace(1 << 4, g(0), g(1)).unwrap();
    pis[2] += Goldilocks::ONE;
    assert!(matches!(
        prove::<_, S>(&FibonacciAir, &config, trace.clone(), &pis, &mut NoTrace),
        // The last row's boundary constraint on the claimed result.
        Err(StarkError::Unsatisfied {
            constraint: 2,
            row: 15,
            rows: 16
        })
    ));
    assert!(matches!(
        prove::<_, S>(
            &FibonacciAir,
            &config,
            trace.clone(),
            &pis[..2],
            &mut NoTrace
        ),
        Err(StarkError::PublicInputCount {
            expected: 3,
            got: 2
        })
    ));
    assert!(matches!(
        prove::<_, S>(
            &FibonacciAir,
            &config,
            trace[..1].to_vec(),
            &pis,
            &mut NoTrace
        ),
        Err(StarkError::TraceShape(_))
    ));
    let uneven = vec![trace[0].clone(), trace[1][..8].to_vec()];
    assert!(matches!(
        prove::<_, S>(&FibonacciAir, &config, uneven, &pis, &mut NoTrace),
        Err(StarkError::TraceShape(_))
    ));
    let odd = vec![vec![Goldilocks::ONE; 6]; 2];
    assert!(matches!(
        prove::<_, S>(&FibonacciAir, &config, odd, &pis, &mut NoTrace),
        Err(StarkError::TraceRows { rows: 6 })
    ));
    assert!(FibonacciAir::trace::<Goldilocks>(6, g(0), g(1)).is_err());
    assert!(FactorialAir::trace::<Goldilocks>(1).is_err());
    // Degree 3 needs rate bits 1 at least (it has them); a configuration below its security.
    let weak = StarkConfig {
        security_bits: 100,
        ..small()
    };
    let (trace, pis) = FibonacciAir::trace(1 << 4, g(0), g(1)).unwrap();
    assert!(matches!(
        prove::<_, S>(&FibonacciAir, &weak, trace, &pis, &mut NoTrace),
        Err(StarkError::BelowTarget {
            target_bits: 100,
            ..
        })
    ));
    let none = StarkConfig {
        num_challenges: 0,
        ..small()
    };
    let (trace, pis) = FibonacciAir::trace(1 << 4, g(0), g(1)).unwrap();
    assert!(matches!(
        prove::<_, S>(&FibonacciAir, &none, trace, &pis, &mut NoTrace),
        Err(StarkError::OutOfRange {
            what: "the number of challenges",
            got: 0,
            ..
        })
    ));
}
