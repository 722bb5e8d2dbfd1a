//! zkaccel's challenger and FRI commitments against plonky2 1.1.0's on random inputs: the
//! transcript challenge by challenge, the polynomial batches' caps, and whole FRI proofs
//! byte for byte under plonky2's `write_fri_proof`, over a sweep of configurations; each
//! verifier accepts the other's proof, and ours rejects mutated ones.

use plonky2::field::extension::quadratic::QuadraticExtension;
use plonky2::field::extension::FieldExtension;
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::polynomial::{PolynomialCoeffs, PolynomialValues};
use plonky2::fri::oracle::PolynomialBatch as TheirBatch;
use plonky2::fri::reduction_strategies::FriReductionStrategy as TheirStrategy;
use plonky2::fri::structure::{
    FriBatchInfo as TheirBatchInfo, FriInstanceInfo, FriOracleInfo as TheirOracle,
    FriPolynomialInfo as TheirPoly,
};
use plonky2::fri::FriConfig as TheirConfig;
use plonky2::hash::poseidon::PoseidonHash;
use plonky2::iop::challenger::Challenger as TheirChallenger;
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2::util::serialization::Write;
use plonky2::util::timing::TimingTree;
use rand::{Rng, SeedableRng};
use zkaccel_field::{ExtensionField, Field};
use zkaccel_fri::{
    evaluate, fri_challenges, observe_cap, prove_openings, verify_fri_proof, FriBatchInfo,
    FriConfig, FriInstance, FriOpenings, FriOracleInfo, FriPolynomialInfo, FriProof,
    FriReductionStrategy, FriScheme, PolynomialBatch,
};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_kernel_trace::NoTrace;
use zkaccel_peers::{digest_from_plonky2, from_plonky2, to_plonky2};
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_plonky2::{FriProofCodec as _, Plonky2Encoding as _};

type S = Plonky2Goldilocks;
type C = PoseidonGoldilocksConfig;
type F = GoldilocksField;
type FE = QuadraticExtension<F>;
const D: usize = 2;

fn random(rng: &mut impl Rng, n: usize) -> Vec<Goldilocks> {
    (0..n)
        .map(|_| Goldilocks::new_reduced(rng.gen_range(0..zkaccel_goldilocks::ORDER)))
        .collect()
}

fn ext_to(x: Goldilocks2) -> FE {
    FE::from_basefield_array([to_plonky2(x.0[0]), to_plonky2(x.0[1])])
}

fn ext_from(x: FE) -> Goldilocks2 {
    let [a, b] = x.to_basefield_array();
    Goldilocks2::new(from_plonky2(a), from_plonky2(b))
}

#[test]
fn the_transcript_matches_plonky2_challenge_by_challenge() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut ours = <S as FriScheme>::challenger();
    let mut theirs = TheirChallenger::<F, PoseidonHash>::new();
    for step in 0..400 {
        match rng.gen_range(0..5) {
            0 | 1 => {
                let len = rng.gen_range(0..20);
                let xs = random(&mut rng, len);
                ours.observe_elements(&xs);
                let ys: Vec<F> = xs.iter().map(|&x| to_plonky2(x)).collect();
                theirs.observe_elements(&ys);
            }
            2 => {
                let x = Goldilocks2::new(random(&mut rng, 1)[0], random(&mut rng, 1)[0]);
                ours.observe_extension_element(&x);
                theirs.observe_extension_element::<D>(&ext_to(x));
            }
            3 => {
                let n = rng.gen_range(1..12);
                let a = ours.challenges(n);
                let b: Vec<Goldilocks> = theirs
                    .get_n_challenges(n)
                    .into_iter()
                    .map(from_plonky2)
                    .collect();
                assert_eq!(a, b, "step {step}");
            }
            _ => {
                let a: Goldilocks2 = ours.extension_challenge();
                let b = ext_from(theirs.get_extension_challenge::<D>());
                assert_eq!(a, b, "step {step}");
            }
        }
    }
}

fn their_strategy(s: &FriReductionStrategy) -> TheirStrategy {
    match s {
        FriReductionStrategy::Fixed(v) => TheirStrategy::Fixed(v.clone()),
        &FriReductionStrategy::ConstantArityBits(a, f) => TheirStrategy::ConstantArityBits(a, f),
        &FriReductionStrategy::MinSize(m) => TheirStrategy::MinSize(m),
    }
}

fn their_config(c: &FriConfig) -> TheirConfig {
    TheirConfig {
        rate_bits: c.rate_bits,
        cap_height: c.cap_height,
        proof_of_work_bits: c.proof_of_work_bits,
        reduction_strategy: their_strategy(&c.reduction_strategy),
        num_query_rounds: c.num_query_rounds,
    }
}

#[test]
fn reduction_strategies_choose_plonky2s_arities_and_serialize_alike() {
    let strategies = [
        FriReductionStrategy::ConstantArityBits(4, 5),
        FriReductionStrategy::ConstantArityBits(3, 3),
        FriReductionStrategy::ConstantArityBits(1, 0),
        FriReductionStrategy::MinSize(None),
        FriReductionStrategy::MinSize(Some(3)),
        FriReductionStrategy::Fixed(vec![2, 3]),
    ];
    for s in &strategies {
        let words: Vec<u64> = their_strategy(s)
            .serialize::<F>()
            .iter()
            .map(|x| x.0)
            .collect();
        assert_eq!(s.serialize(), words);
        for degree_bits in 2..=20 {
            for rate_bits in 1..=3 {
                for cap_height in 0..=4 {
                    if let FriReductionStrategy::Fixed(_) = s {
                        continue;
                    }
                    let want = their_strategy(s).reduction_arity_bits(
                        degree_bits,
                        rate_bits,
                        cap_height,
                        28,
                    );
                    let got = s
                        .reduction_arity_bits(degree_bits, rate_bits, cap_height, 28)
                        .unwrap();
                    assert_eq!(
                        got, want,
                        "{s:?} degree {degree_bits} rate {rate_bits} cap {cap_height}"
                    );
                }
            }
        }
    }
}

#[test]
fn polynomial_batches_commit_to_plonky2s_caps() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    for (log_n, width, rate_bits, cap_height) in [
        (3, 1, 1, 4),
        (5, 2, 1, 4),
        (6, 5, 2, 2),
        (8, 3, 3, 0),
        (4, 9, 1, 5),
    ] {
        let values: Vec<Vec<Goldilocks>> =
            (0..width).map(|_| random(&mut rng, 1 << log_n)).collect();
        let ours =
            PolynomialBatch::<S>::from_values(values.clone(), rate_bits, cap_height).unwrap();
        let theirs = TheirBatch::<F, C, D>::from_values(
            values
                .iter()
                .map(|v| PolynomialValues::new(v.iter().map(|&x| to_plonky2(x)).collect()))
                .collect(),
            rate_bits,
            false,
            cap_height,
            &mut TimingTree::default(),
            None,
        );
        let want: Vec<[Goldilocks; 4]> = theirs
            .merkle_tree
            .cap
            .0
            .iter()
            .map(|h| digest_from_plonky2(*h))
            .collect();
        assert_eq!(ours.cap(), want.as_slice(), "log_n {log_n} width {width}");
        for (p, q) in ours.polynomials().iter().zip(&theirs.polynomials) {
            let q: Vec<Goldilocks> = q.coeffs.iter().map(|&x| from_plonky2(x)).collect();
            assert_eq!(p, &q);
        }
        let step = 1 << rate_bits;
        for i in [0, 1, (1 << log_n) - 1] {
            let want: Vec<Goldilocks> = theirs
                .get_lde_values(i, step)
                .iter()
                .map(|&x| from_plonky2(x))
                .collect();
            assert_eq!(ours.lde_values(i, step).unwrap(), want.as_slice());
        }
    }
}

/// One FRI run on both sides: two batches (widths 3 and 2), opened at `z` (all five
/// polynomials) and at `g·z` (the first batch), as a STARK opens its trace and quotient.
fn both_proofs(config: &FriConfig, degree_bits: usize, seed: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let n = 1 << degree_bits;
    let polys_a: Vec<Vec<Goldilocks>> = (0..3).map(|_| random(&mut rng, n)).collect();
    let polys_b: Vec<Vec<Goldilocks>> = (0..2).map(|_| random(&mut rng, n)).collect();
    both_proofs_of(config, degree_bits, polys_a, polys_b);
}

/// As [`both_proofs`] on given polynomials; returns plonky2's encoding (equal to ours).
fn both_proofs_of(
    config: &FriConfig,
    degree_bits: usize,
    polys_a: Vec<Vec<Goldilocks>>,
    polys_b: Vec<Vec<Goldilocks>>,
) -> Vec<u8> {
    let params = config.params(degree_bits, S::max_lde_bits()).unwrap();
    let a = PolynomialBatch::<S>::from_coeffs(polys_a.clone(), config.rate_bits, config.cap_height)
        .unwrap();
    let b = PolynomialBatch::<S>::from_coeffs(polys_b.clone(), config.rate_bits, config.cap_height)
        .unwrap();
    let their_coeffs = |ps: &[Vec<Goldilocks>]| -> Vec<PolynomialCoeffs<F>> {
        ps.iter()
            .map(|p| PolynomialCoeffs::new(p.iter().map(|&x| to_plonky2(x)).collect()))
            .collect()
    };
    let tc = their_config(config);
    let their_params = tc.fri_params(degree_bits, false);
    assert_eq!(
        their_params.reduction_arity_bits,
        params.reduction_arity_bits
    );
    let ta = TheirBatch::<F, C, D>::from_coeffs(
        their_coeffs(&polys_a),
        config.rate_bits,
        false,
        config.cap_height,
        &mut TimingTree::default(),
        None,
    );
    let tb = TheirBatch::<F, C, D>::from_coeffs(
        their_coeffs(&polys_b),
        config.rate_bits,
        false,
        config.cap_height,
        &mut TimingTree::default(),
        None,
    );

    // The transcript before FRI: both caps, a point, the claimed values.
    let mut ours = <S as FriScheme>::challenger();
    let mut theirs = TheirChallenger::<F, PoseidonHash>::new();
    observe_cap::<S>(&mut ours, a.cap());
    observe_cap::<S>(&mut ours, b.cap());
    theirs.observe_cap(&ta.merkle_tree.cap);
    theirs.observe_cap(&tb.merkle_tree.cap);
    let z: Goldilocks2 = ours.extension_challenge();
    assert_eq!(ext_to(z), theirs.get_extension_challenge::<D>());
    let g = Goldilocks2::from_base(Goldilocks::plonky2_two_adic_generator(degree_bits).unwrap());
    let gz = g * z;
    let at = |ps: &[Vec<Goldilocks>], x: Goldilocks2| -> Vec<Goldilocks2> {
        ps.iter().map(|p| evaluate(p, x)).collect()
    };
    let batch0: Vec<Goldilocks2> = [at(&polys_a, z), at(&polys_b, z)].concat();
    let batch1 = at(&polys_a, gz);
    for v in batch0.iter().chain(&batch1) {
        ours.observe_extension_element(v);
        theirs.observe_extension_element::<D>(&ext_to(*v));
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
    let their_instance = FriInstanceInfo::<F, D> {
        oracles: vec![
            TheirOracle {
                num_polys: 3,
                blinding: false,
            },
            TheirOracle {
                num_polys: 2,
                blinding: false,
            },
        ],
        batches: instance
            .batches
            .iter()
            .map(|b| TheirBatchInfo {
                point: ext_to(b.point),
                polynomials: b
                    .polynomials
                    .iter()
                    .map(|p| TheirPoly {
                        oracle_index: p.oracle_index,
                        polynomial_index: p.polynomial_index,
                    })
                    .collect(),
            })
            .collect(),
    };
    let verifier_start = ours.clone();
    let proof =
        prove_openings(&instance, &[&a, &b], &mut ours, &params, &mut NoTrace, &[]).unwrap();
    let their_proof = TheirBatch::<F, C, D>::prove_openings(
        &their_instance,
        &[&ta, &tb],
        &mut theirs,
        &their_params,
        None,
        None,
        &mut TimingTree::default(),
    );
    let mut want = Vec::new();
    want.write_fri_proof::<F, C, D>(&their_proof).unwrap();
    let got = proof.to_bytes().unwrap();
    assert_eq!(got.len(), want.len(), "{config:?} degree {degree_bits}");
    assert!(
        got == want,
        "{config:?} degree {degree_bits}: the encodings differ"
    );
    // Both transcripts end alike.
    assert_eq!(ours.challenge(), from_plonky2(theirs.get_challenge()));

    // Our verifier accepts plonky2's proof, decoded from its bytes.
    let decoded = FriProof::<S>::from_bytes(&want, &params, &[3, 2]).unwrap();
    assert_eq!(decoded, proof);
    let mut v = verifier_start;
    let challenges = fri_challenges(&mut v, &decoded, &params).unwrap();
    let openings = FriOpenings {
        batches: vec![batch0.clone(), batch1.clone()],
    };
    let caps = [a.cap(), b.cap()];
    verify_fri_proof(&instance, &openings, &challenges, &caps, &decoded, &params).unwrap();

    // And rejects a false claim, and every flipped byte of a few sampled positions.
    let mut lie = openings.clone();
    lie.batches[1][0] += Goldilocks2::ONE;
    assert!(verify_fri_proof(&instance, &lie, &challenges, &caps, &decoded, &params).is_err());
    want
}

/// The inputs of the exported vectors, from a formula both sides can evaluate:
/// coefficient `i` of polynomial `j` is `(i + 1)^3 + 1000·j + 7` (mod p).
fn vector_polys(count: usize, first: usize, n: usize) -> Vec<Vec<Goldilocks>> {
    (first..first + count)
        .map(|j| {
            (0..n as u64)
                .map(|i| Goldilocks::from_u64_reduced((i + 1).pow(3) + 1000 * j as u64 + 7))
                .collect()
        })
        .collect()
}

/// `vectors/fri.json`: plonky2's proofs for the cases `crates/fri/tests/vectors.rs` rebuilds,
/// so the stable workspace checks byte equality without nightly Rust. With
/// `ZKACCEL_WRITE_VECTORS=1` the file is (re)written; otherwise it must equal what plonky2
/// produces today.
#[test]
fn exported_vectors_are_plonky2s_proofs() {
    let cases = [
        ("standard_fast, 2^5", FriConfig::standard_fast(), 5usize),
        (
            "rate 2, cap 2, 4 pow bits, Fixed([2, 1]), 8 queries, 2^6",
            FriConfig {
                rate_bits: 2,
                cap_height: 2,
                proof_of_work_bits: 4,
                reduction_strategy: FriReductionStrategy::Fixed(vec![2, 1]),
                num_query_rounds: 8,
            },
            6,
        ),
    ];
    let mut json = String::from("{\n  \"provenance\": \"plonky2 1.1.0 (crates.io, default-features = false, features = [std]): PolynomialBatch::from_coeffs and prove_openings, written with write_fri_proof, by peers/tests/plonky2_fri.rs\",\n  \"cases\": [\n");
    for (k, (name, config, degree_bits)) in cases.iter().enumerate() {
        let n = 1 << degree_bits;
        let bytes = both_proofs_of(
            config,
            *degree_bits,
            vector_polys(3, 0, n),
            vector_polys(2, 3, n),
        );
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let strategy = match &config.reduction_strategy {
            FriReductionStrategy::Fixed(v) => format!("{{\"fixed\": {v:?}}}"),
            FriReductionStrategy::ConstantArityBits(a, f) => {
                format!("{{\"constant_arity_bits\": [{a}, {f}]}}")
            }
            FriReductionStrategy::MinSize(m) => format!("{{\"min_size\": {}}}", m.unwrap_or(0)),
        };
        json += &format!(
            "    {{\"name\": \"{name}\", \"degree_bits\": {degree_bits}, \"rate_bits\": {}, \"cap_height\": {}, \"proof_of_work_bits\": {}, \"reduction_strategy\": {strategy}, \"num_query_rounds\": {}, \"proof_hex\": \"{hex}\"}}{}\n",
            config.rate_bits,
            config.cap_height,
            config.proof_of_work_bits,
            config.num_query_rounds,
            if k + 1 < cases.len() { "," } else { "" }
        );
    }
    json += "  ]\n}\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/fri.json");
    if std::env::var("ZKACCEL_WRITE_VECTORS").as_deref() == Ok("1") {
        std::fs::write(path, &json).unwrap();
    }
    let stored = std::fs::read_to_string(path)
        .expect("vectors/fri.json (ZKACCEL_WRITE_VECTORS=1 writes it)");
    assert!(
        stored == json,
        "vectors/fri.json differs from plonky2's proofs today"
    );
}

#[test]
fn fri_proofs_equal_plonky2s_byte_for_byte() {
    let base = FriConfig {
        proof_of_work_bits: 4,
        num_query_rounds: 6,
        ..FriConfig::standard_fast()
    };
    let mut seed = 10;
    let mut run = |config: FriConfig, degree_bits: usize| {
        seed += 1;
        both_proofs(&config, degree_bits, seed);
    };
    // standard_fast itself at a small size (16 grinding bits, 84 queries).
    run(FriConfig::standard_fast(), 5);
    run(FriConfig::standard_fast(), 10);
    for degree_bits in [3, 4, 6, 9] {
        run(base.clone(), degree_bits);
    }
    for rate_bits in 1..=3 {
        for cap_height in [0, 2, 4] {
            run(
                FriConfig {
                    rate_bits,
                    cap_height,
                    ..base.clone()
                },
                8,
            );
        }
    }
    for pow in [0, 1, 8] {
        run(
            FriConfig {
                proof_of_work_bits: pow,
                ..base.clone()
            },
            7,
        );
    }
    for strategy in [
        FriReductionStrategy::ConstantArityBits(3, 3),
        FriReductionStrategy::ConstantArityBits(1, 0),
        FriReductionStrategy::MinSize(None),
        FriReductionStrategy::Fixed(vec![2, 3]),
    ] {
        run(
            FriConfig {
                reduction_strategy: strategy,
                ..base.clone()
            },
            8,
        );
    }
}
