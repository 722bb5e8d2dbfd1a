//! FRI on its own terms (the comparison with plonky2 is in `peers/`): proofs of random
//! polynomials verify for every strategy; the verifier is attacked with every flipped byte of
//! a proof's encoding, every truncation, trailing bytes, wrong claims, wrong shapes and random
//! bytes, and answers each with an error, never a panic; configurations out of range are typed
//! errors.

use rand::{Rng, SeedableRng};
use zkaccel_codec::{DecodeError, ShapeError};
use zkaccel_field::Field;
use zkaccel_fri::{
    evaluate, fri_challenges, observe_cap, prove_openings, verify_fri_proof, Challenger,
    ConfigError, FriBatchInfo, FriConfig, FriError, FriInstance, FriOpenings, FriOracleInfo,
    FriParams, FriPolynomialInfo, FriProof, FriReductionStrategy, FriRejection, FriScheme,
    PolynomialBatch, PolynomialsError,
};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_kernel_trace::NoTrace;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_plonky2::{FriProofCodec as _, Plonky2Encoding as _};

type S = Plonky2Goldilocks;

/// A proof of two batches opened at `z` (all) and `z + 1` (the first), with what a verifier
/// needs to check it.
struct Case {
    params: FriParams,
    instance: FriInstance<Goldilocks2>,
    openings: FriOpenings<Goldilocks2>,
    caps: Vec<Vec<[Goldilocks; 4]>>,
    transcript: Challenger<S>,
    bytes: Vec<u8>,
}

impl Case {
    fn new(config: &FriConfig, degree_bits: usize, seed: u64) -> Self {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut random = |n: usize| -> Vec<Goldilocks> {
            (0..n)
                .map(|_| Goldilocks::from_u64_reduced(rng.gen()))
                .collect()
        };
        let n = 1 << degree_bits;
        let polys: Vec<Vec<Vec<Goldilocks>>> = vec![
            (0..2).map(|_| random(n)).collect(),
            (0..3).map(|_| random(n)).collect(),
        ];
        let params = config.params(degree_bits, S::max_lde_bits()).unwrap();
        let batches: Vec<PolynomialBatch<S>> = polys
            .iter()
            .map(|p| {
                PolynomialBatch::from_coeffs(p.clone(), config.rate_bits, config.cap_height)
                    .unwrap()
            })
            .collect();
        let mut transcript = S::challenger();
        for b in &batches {
            observe_cap::<S>(&mut transcript, b.cap());
        }
        let z: Goldilocks2 = transcript.extension_challenge();
        let z1 = z + Goldilocks2::ONE;
        let at = |ps: &[Vec<Goldilocks>], x| ps.iter().map(|p| evaluate(p, x)).collect::<Vec<_>>();
        let openings = FriOpenings {
            batches: vec![
                [at(&polys[0], z), at(&polys[1], z)].concat(),
                at(&polys[0], z1),
            ],
        };
        for v in openings.batches.concat() {
            transcript.observe_extension_element(&v);
        }
        let instance = FriInstance {
            oracles: vec![
                FriOracleInfo { num_polys: 2 },
                FriOracleInfo { num_polys: 3 },
            ],
            batches: vec![
                FriBatchInfo {
                    point: z,
                    polynomials: [
                        FriPolynomialInfo::from_range(0, 0..2),
                        FriPolynomialInfo::from_range(1, 0..3),
                    ]
                    .concat(),
                },
                FriBatchInfo {
                    point: z1,
                    polynomials: FriPolynomialInfo::from_range(0, 0..2),
                },
            ],
        };
        let verifier_transcript = transcript.clone();
        let refs: Vec<&PolynomialBatch<S>> = batches.iter().collect();
        let proof = prove_openings(
            &instance,
            &refs,
            &mut transcript,
            &params,
            &mut NoTrace,
            &[],
        )
        .unwrap();
        Self {
            params,
            instance,
            openings,
            caps: batches.iter().map(|b| b.cap().to_vec()).collect(),
            transcript: verifier_transcript,
            bytes: proof.to_bytes().unwrap(),
        }
    }

    /// Decodes and verifies `bytes` with `openings` as the verifier would.
    fn verify(&self, bytes: &[u8], openings: &FriOpenings<Goldilocks2>) -> Result<(), FriError> {
        let proof = FriProof::<S>::from_bytes(bytes, &self.params, &[2, 3])?;
        let mut transcript = self.transcript.clone();
        let challenges = fri_challenges(&mut transcript, &proof, &self.params)?;
        let caps: Vec<&[[Goldilocks; 4]]> = self.caps.iter().map(Vec::as_slice).collect();
        verify_fri_proof(
            &self.instance,
            openings,
            &challenges,
            &caps,
            &proof,
            &self.params,
        )
    }
}

fn small() -> FriConfig {
    FriConfig {
        rate_bits: 1,
        cap_height: 1,
        proof_of_work_bits: 2,
        reduction_strategy: FriReductionStrategy::ConstantArityBits(2, 1),
        num_query_rounds: 3,
    }
}

#[test]
fn proofs_verify_for_every_strategy_rate_and_cap() {
    let mut seed = 0;
    for strategy in [
        FriReductionStrategy::ConstantArityBits(4, 5),
        FriReductionStrategy::ConstantArityBits(1, 0),
        FriReductionStrategy::MinSize(Some(3)),
        FriReductionStrategy::Fixed(vec![3, 1]),
        FriReductionStrategy::Fixed(vec![]),
    ] {
        for (rate_bits, cap_height) in [(1, 0), (2, 3), (3, 1)] {
            seed += 1;
            let config = FriConfig {
                rate_bits,
                cap_height,
                reduction_strategy: strategy.clone(),
                ..small()
            };
            let case = Case::new(&config, 7, seed);
            case.verify(&case.bytes, &case.openings)
                .unwrap_or_else(|e| panic!("{config:?}: {e}"));
        }
    }
}

#[test]
fn every_flipped_byte_and_every_truncation_is_rejected() {
    let case = Case::new(&small(), 5, 42);
    case.verify(&case.bytes, &case.openings).unwrap();
    for i in 0..case.bytes.len() {
        for bit in [0, 7] {
            let mut bytes = case.bytes.clone();
            bytes[i] ^= 1 << bit;
            assert!(
                case.verify(&bytes, &case.openings).is_err(),
                "flipping bit {bit} of byte {i} of {} went unnoticed",
                case.bytes.len()
            );
        }
    }
    for len in 0..case.bytes.len() {
        assert!(matches!(
            case.verify(&case.bytes[..len], &case.openings),
            Err(FriError::Decode(
                DecodeError::Truncated { .. } | DecodeError::Length { .. }
            ))
        ));
    }
    let mut longer = case.bytes.clone();
    longer.push(0);
    assert!(matches!(
        case.verify(&longer, &case.openings),
        Err(FriError::Decode(DecodeError::Trailing { count: 1 }))
    ));
}

#[test]
fn wrong_claims_and_shapes_are_rejected() {
    let case = Case::new(&small(), 5, 7);
    for b in 0..2 {
        for j in 0..case.openings.batches[b].len() {
            let mut lie = case.openings.clone();
            lie.batches[b][j] += Goldilocks2::ONE;
            let err = case.verify(&case.bytes, &lie).unwrap_err();
            assert!(
                matches!(err, FriError::Rejected(FriRejection::Fold { layer: 0, .. })),
                "{err}"
            );
        }
    }
    let mut short = case.openings.clone();
    short.batches[0].pop();
    let want = case.openings.batches[0].len() as u64;
    assert!(matches!(
        case.verify(&case.bytes, &short),
        Err(FriError::ProofShape(ShapeError { ref what, expected, got }))
            if what.starts_with("batch 0") && expected == want && got == want - 1
    ));
    let mut extra = case.openings.clone();
    extra.batches.push(vec![Goldilocks2::ONE]);
    assert!(matches!(
        case.verify(&case.bytes, &extra),
        Err(FriError::ProofShape(_))
    ));
    // Another cap, a cap of another size, another number of commitments.
    let proof = FriProof::<S>::from_bytes(&case.bytes, &case.params, &[2, 3]).unwrap();
    let mut transcript = case.transcript.clone();
    let challenges = fri_challenges(&mut transcript, &proof, &case.params).unwrap();
    let mut caps = case.caps.clone();
    caps[1][0][0] += Goldilocks::ONE;
    let refs: Vec<&[[Goldilocks; 4]]> = caps.iter().map(Vec::as_slice).collect();
    let err = verify_fri_proof(
        &case.instance,
        &case.openings,
        &challenges,
        &refs,
        &proof,
        &case.params,
    )
    .unwrap_err();
    assert!(err.is_rejection(), "{err}");
    let refs: Vec<&[[Goldilocks; 4]]> = vec![&case.caps[0], &case.caps[1][..1]];
    assert!(matches!(
        verify_fri_proof(
            &case.instance,
            &case.openings,
            &challenges,
            &refs,
            &proof,
            &case.params
        ),
        Err(FriError::ProofShape(_))
    ));
    let refs: Vec<&[[Goldilocks; 4]]> = vec![&case.caps[0]];
    assert!(matches!(
        verify_fri_proof(
            &case.instance,
            &case.openings,
            &challenges,
            &refs,
            &proof,
            &case.params
        ),
        Err(FriError::ProofShape(_))
    ));
    // A proof decoded for other parameters does not decode.
    let other = FriConfig {
        num_query_rounds: 4,
        ..small()
    }
    .params(5, 32)
    .unwrap();
    assert!(FriProof::<S>::from_bytes(&case.bytes, &other, &[2, 3]).is_err());
    assert!(FriProof::<S>::from_bytes(&case.bytes, &case.params, &[3, 2]).is_err());
}

#[test]
fn random_bytes_never_panic() {
    let case = Case::new(&small(), 5, 9);
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for _ in 0..2000 {
        let len = rng.gen_range(0..case.bytes.len() + 64);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        if rng.gen_bool(0.5) && len >= case.bytes.len() {
            // Keep the valid prefix's length bytes mostly right: random elements, real shape.
            bytes.truncate(case.bytes.len());
            for (i, b) in case.bytes.iter().enumerate() {
                if rng.gen_bool(0.9) {
                    bytes[i] = *b;
                }
            }
        }
        assert!(case.verify(&bytes, &case.openings).is_err() || bytes == case.bytes);
    }
}

#[test]
fn configurations_out_of_range_are_typed_errors() {
    let bad = [
        FriConfig {
            rate_bits: 0,
            ..small()
        },
        FriConfig {
            rate_bits: 9,
            ..small()
        },
        FriConfig {
            num_query_rounds: 0,
            ..small()
        },
        FriConfig {
            num_query_rounds: 1 << 20,
            ..small()
        },
        FriConfig {
            proof_of_work_bits: 33,
            ..small()
        },
        FriConfig {
            cap_height: 17,
            ..small()
        },
        FriConfig {
            reduction_strategy: FriReductionStrategy::ConstantArityBits(0, 0),
            ..small()
        },
        FriConfig {
            reduction_strategy: FriReductionStrategy::ConstantArityBits(9, 0),
            ..small()
        },
        FriConfig {
            reduction_strategy: FriReductionStrategy::Fixed(vec![0]),
            ..small()
        },
        FriConfig {
            reduction_strategy: FriReductionStrategy::Fixed(vec![4, 4]),
            ..small()
        },
        FriConfig {
            reduction_strategy: FriReductionStrategy::Fixed(vec![1; 40]),
            ..small()
        },
        FriConfig {
            reduction_strategy: FriReductionStrategy::MinSize(Some(0)),
            ..small()
        },
        FriConfig {
            cap_height: 7,
            ..small()
        },
    ];
    for config in bad {
        assert!(
            matches!(
                config.params(5, S::max_lde_bits()),
                Err(FriError::Config(_))
            ),
            "{config:?}"
        );
    }
    // Past the field's two-adicity.
    assert!(matches!(
        small().params(32, 32),
        Err(FriError::Config(ConfigError::BeyondDomain {
            degree_bits: 32,
            max_lde_bits: 32,
            ..
        }))
    ));
    // The errors carry the values that make them.
    assert_eq!(
        FriConfig {
            proof_of_work_bits: 33,
            ..small()
        }
        .params(5, S::max_lde_bits())
        .unwrap_err()
        .to_string(),
        "FRI configuration: proof-of-work bits 33; supported: 0 to 32"
    );
    assert!(matches!(
        FriConfig {
            cap_height: 7,
            ..small()
        }
        .params(5, S::max_lde_bits()),
        Err(FriError::Config(ConfigError::CapBeyondCodeword {
            cap_height: 7,
            ..
        }))
    ));
    assert_eq!(
        FriConfig::standard_fast().conjectured_security_bits(S::extension_bits()),
        100
    );
    assert_eq!(
        FriConfig::standard_recursion().conjectured_security_bits(S::extension_bits()),
        100
    );
    assert_eq!(
        FriConfig {
            num_query_rounds: 200,
            ..FriConfig::standard_recursion()
        }
        .conjectured_security_bits(S::extension_bits()),
        128
    );
    // A hostile count saturates instead of overflowing (found by the CLI's fuzzer).
    assert_eq!(
        FriConfig {
            num_query_rounds: usize::MAX,
            ..FriConfig::standard_recursion()
        }
        .conjectured_security_bits(S::extension_bits()),
        128
    );
}

#[test]
fn batches_refuse_bad_polynomials() {
    let p = vec![Goldilocks::ONE; 8];
    assert!(matches!(
        PolynomialBatch::<S>::from_coeffs(vec![], 1, 0),
        Err(FriError::Polynomials(PolynomialsError::Empty))
    ));
    assert!(matches!(
        PolynomialBatch::<S>::from_coeffs(vec![vec![Goldilocks::ONE; 6]], 1, 0),
        Err(FriError::Polynomials(PolynomialsError::NotPowerOfTwo {
            len: 6
        }))
    ));
    assert!(matches!(
        PolynomialBatch::<S>::from_coeffs(vec![p.clone(), vec![Goldilocks::ONE; 4]], 1, 0),
        Err(FriError::Polynomials(PolynomialsError::MixedLengths {
            first: 8,
            other: 4
        }))
    ));
    assert!(matches!(
        PolynomialBatch::<S>::from_coeffs(vec![p.clone()], 1, 5),
        Err(FriError::Merkle(_))
    ));
    let b = PolynomialBatch::<S>::from_coeffs(vec![p], 1, 0).unwrap();
    assert!(matches!(
        b.lde_values(8, 2),
        Err(FriError::Polynomials(PolynomialsError::PastCodeword {
            index: 8,
            step: 2,
            lde_bits: 4
        }))
    ));
    assert!(b.lde_values(usize::MAX, 2).is_err());
}
