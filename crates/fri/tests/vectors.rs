//! Byte equality with plonky2 1.1.0 on stable Rust: `vectors/fri.json` holds plonky2's FRI
//! proofs (written by `peers/tests/plonky2_fri.rs`, which also checks that they still are
//! plonky2's); this rebuilds each case's inputs and transcript and proves it with zkaccel.

use serde_json::Value;
use zkaccel_field::Field;
use zkaccel_fri::{
    evaluate, fri_challenges, observe_cap, prove_openings, verify_fri_proof, FriBatchInfo,
    FriConfig, FriInstance, FriOpenings, FriOracleInfo, FriPolynomialInfo, FriProof,
    FriReductionStrategy, FriScheme, PolynomialBatch,
};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_kernel_trace::NoTrace;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_plonky2::{FriProofCodec as _, Plonky2Encoding as _};

type S = Plonky2Goldilocks;

/// Coefficient `i` of polynomial `j` is `(i + 1)^3 + 1000·j + 7` (the peers test's formula).
fn polys(count: usize, first: usize, n: usize) -> Vec<Vec<Goldilocks>> {
    (first..first + count)
        .map(|j| {
            (0..n as u64)
                .map(|i| Goldilocks::from_u64_reduced((i + 1).pow(3) + 1000 * j as u64 + 7))
                .collect()
        })
        .collect()
}

fn strategy(v: &Value) -> FriReductionStrategy {
    if let Some(a) = v.get("constant_arity_bits") {
        FriReductionStrategy::ConstantArityBits(
            a[0].as_u64().unwrap() as usize,
            a[1].as_u64().unwrap() as usize,
        )
    } else if let Some(a) = v.get("fixed") {
        FriReductionStrategy::Fixed(
            a.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect(),
        )
    } else {
        let m = v["min_size"].as_u64().unwrap() as usize;
        FriReductionStrategy::MinSize((m > 0).then_some(m))
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn our_proofs_are_plonky2s_bytes() {
    let file: Value =
        serde_json::from_str(include_str!("../../../vectors/fri.json")).expect("valid JSON");
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() >= 2);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let field = |k: &str| case[k].as_u64().unwrap() as usize;
        let config = FriConfig {
            rate_bits: field("rate_bits"),
            cap_height: field("cap_height"),
            proof_of_work_bits: field("proof_of_work_bits") as u32,
            reduction_strategy: strategy(&case["reduction_strategy"]),
            num_query_rounds: field("num_query_rounds"),
        };
        let degree_bits = field("degree_bits");
        let want = unhex(case["proof_hex"].as_str().unwrap());
        let n = 1 << degree_bits;
        let (pa, pb) = (polys(3, 0, n), polys(2, 3, n));
        let params = config.params(degree_bits, S::max_lde_bits()).unwrap();
        let a = PolynomialBatch::<S>::from_coeffs(pa.clone(), config.rate_bits, config.cap_height)
            .unwrap();
        let b = PolynomialBatch::<S>::from_coeffs(pb.clone(), config.rate_bits, config.cap_height)
            .unwrap();
        let mut transcript = S::challenger();
        observe_cap::<S>(&mut transcript, a.cap());
        observe_cap::<S>(&mut transcript, b.cap());
        let z: Goldilocks2 = transcript.extension_challenge();
        let g = Goldilocks::plonky2_two_adic_generator(degree_bits).unwrap();
        let gz = z * g;
        let at = |ps: &[Vec<Goldilocks>], x| ps.iter().map(|p| evaluate(p, x)).collect::<Vec<_>>();
        let openings = FriOpenings {
            batches: vec![[at(&pa, z), at(&pb, z)].concat(), at(&pa, gz)],
        };
        for v in openings.batches.concat() {
            transcript.observe_extension_element(&v);
        }
        let instance = FriInstance {
            oracles: vec![
                FriOracleInfo { num_polys: 3 },
                FriOracleInfo { num_polys: 2 },
            ],
            batches: vec![
                FriBatchInfo {
                    point: z,
                    polynomials: [
                        FriPolynomialInfo::from_range(0, 0..3),
                        FriPolynomialInfo::from_range(1, 0..2),
                    ]
                    .concat(),
                },
                FriBatchInfo {
                    point: gz,
                    polynomials: FriPolynomialInfo::from_range(0, 0..3),
                },
            ],
        };
        let verifier_transcript = transcript.clone();
        let proof = prove_openings(
            &instance,
            &[&a, &b],
            &mut transcript,
            &params,
            &mut NoTrace,
            &[],
        )
        .unwrap();
        let got = proof.to_bytes().unwrap();
        assert_eq!(got.len(), want.len(), "{name}");
        assert!(got == want, "{name}: our proof differs from plonky2's");
        // The stored proof verifies.
        let stored = FriProof::<S>::from_bytes(&want, &params, &[3, 2]).unwrap();
        let mut t = verifier_transcript;
        let challenges = fri_challenges(&mut t, &stored, &params).unwrap();
        verify_fri_proof(
            &instance,
            &openings,
            &challenges,
            &[a.cap(), b.cap()],
            &stored,
            &params,
        )
        .unwrap();
    }
}
