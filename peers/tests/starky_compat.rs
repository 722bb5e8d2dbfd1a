//! zkaccel's STARK prover against starky 1.1.0 (built without `parallel`, so its
//! proof-of-work witness is the smallest): for starky's Fibonacci AIR and UniZK's Factorial
//! AIR (written here against starky's `Stark` trait, constraints in the same order), the same
//! trace, public inputs and configuration give the same proof byte for byte under the
//! canonical encoding E (`docs/notes/starky-1.1.0.md` §2), over a sweep of
//! configurations; zkaccel's verifier accepts starky's proofs and rejects them mutated.

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::polynomial::PolynomialValues;
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2::util::timing::TimingTree;
use starky::stark::Stark;
use zkaccel_field::Field;
use zkaccel_fri::{FriConfig, FriReductionStrategy};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_kernel_trace::NoTrace;
use zkaccel_peers::starky_airs::{encode, their_config, to_starky, FactorialStark, FibonacciStark};
use zkaccel_peers::to_plonky2;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_plonky2::{decode_stark_proof, Plonky2Encoding as _};
use zkaccel_stark::{prove, verify, Air, FactorialAir, FibonacciAir, StarkConfig, VerifyMode};

type F = GoldilocksField;
type C = PoseidonGoldilocksConfig;
const D: usize = 2;
type S = Plonky2Goldilocks;

/// Proves with both and compares; returns the common encoding.
fn both<A: Air, T: Stark<F, D> + Copy>(
    air: &A,
    theirs: T,
    config: &StarkConfig,
    trace: Vec<Vec<Goldilocks>>,
    public_inputs: Vec<Goldilocks>,
) -> Vec<u8> {
    let degree_bits = trace[0].len().trailing_zeros() as usize;
    let their_trace: Vec<PolynomialValues<F>> = trace
        .iter()
        .map(|c| PolynomialValues::new(c.iter().map(|&x| to_plonky2(x)).collect()))
        .collect();
    let their_pis: Vec<F> = public_inputs.iter().map(|&x| to_plonky2(x)).collect();
    let tc = their_config(config);
    let their_proof = starky::prover::prove::<F, C, T, D>(
        theirs,
        &tc,
        their_trace,
        &their_pis,
        None,
        &mut TimingTree::default(),
    )
    .unwrap();
    let want = encode(&their_proof);
    starky::verifier::verify_stark_proof(theirs, their_proof, &tc, None).unwrap();

    let ours = prove::<A, S>(air, config, trace, &public_inputs, &mut NoTrace).unwrap();
    let got = ours.to_bytes().unwrap();
    assert_eq!(got.len(), want.len(), "{config:?} 2^{degree_bits}");
    assert!(got == want, "{config:?} 2^{degree_bits}: the proofs differ");

    // Our verifier accepts starky's proof, decoded from its bytes, in both modes.
    let decoded = decode_stark_proof::<A, S>(air, config, degree_bits, &want).unwrap();
    assert_eq!(decoded, ours);
    verify(air, config, degree_bits, &decoded, VerifyMode::Strict).unwrap();
    verify(
        air,
        config,
        degree_bits,
        &decoded,
        VerifyMode::StarkyCompatible,
    )
    .unwrap();
    // And starky's verifier accepts ours, handed over as its own proof struct.
    starky::verifier::verify_stark_proof(theirs, to_starky(&ours), &tc, None).unwrap();
    let mut forged = ours.clone();
    forged.local_values[0] += Goldilocks2::ONE;
    assert!(starky::verifier::verify_stark_proof(theirs, to_starky(&forged), &tc, None).is_err());
    want
}

fn g(v: u64) -> Goldilocks {
    Goldilocks::from_u64_reduced(v)
}

fn fibonacci(config: &StarkConfig, log_rows: usize, x0: u64, x1: u64) -> Vec<u8> {
    let (trace, pis) = FibonacciAir::trace(1 << log_rows, g(x0), g(x1)).unwrap();
    both(
        &FibonacciAir,
        FibonacciStark::<F, D>::default(),
        config,
        trace,
        pis,
    )
}

fn factorial(config: &StarkConfig, log_rows: usize) -> Vec<u8> {
    let (trace, pis) = FactorialAir::trace(1 << log_rows).unwrap();
    both(
        &FactorialAir,
        FactorialStark::<F, D>::default(),
        config,
        trace,
        pis,
    )
}

#[test]
fn fibonacci_standard_fast_equals_starky_with_the_expected_sizes() {
    let config = StarkConfig::standard_fast();
    assert!(!fibonacci(&config, 3, 0, 1).is_empty());
    assert_eq!(fibonacci(&config, 5, 0, 1).len(), 15_280);
    assert_eq!(fibonacci(&config, 10, 0, 1).len(), 72_836);
    fibonacci(&config, 6, 2, 7);
}

#[test]
fn factorial_standard_fast_equals_starky() {
    let config = StarkConfig::standard_fast();
    factorial(&config, 5);
    factorial(&config, 10);
}

#[test]
fn a_sweep_of_configurations_stays_byte_identical() {
    let base = StarkConfig {
        fri_config: FriConfig {
            num_query_rounds: 12,
            proof_of_work_bits: 4,
            ..FriConfig::standard_fast()
        },
        security_bits: 10,
        num_challenges: 2,
    };
    let with = |f: &dyn Fn(&mut StarkConfig)| {
        let mut c = base.clone();
        f(&mut c);
        c
    };
    let configs = [
        with(&|c| c.fri_config.rate_bits = 2),
        with(&|c| c.fri_config.rate_bits = 3),
        with(&|c| c.fri_config.cap_height = 0),
        with(&|c| c.fri_config.cap_height = 2),
        with(&|c| c.fri_config.proof_of_work_bits = 0),
        with(&|c| c.fri_config.proof_of_work_bits = 8),
        with(&|c| c.num_challenges = 1),
        with(&|c| c.num_challenges = 3),
        with(&|c| c.security_bits = 11),
        with(&|c| c.fri_config.reduction_strategy = FriReductionStrategy::ConstantArityBits(3, 3)),
        with(&|c| c.fri_config.reduction_strategy = FriReductionStrategy::Fixed(vec![2, 3])),
        with(&|c| c.fri_config.reduction_strategy = FriReductionStrategy::MinSize(None)),
    ];
    for config in &configs {
        fibonacci(config, 8, 0, 1);
        factorial(config, 8);
    }
}

#[test]
fn mutated_starky_proofs_are_rejected() {
    let config = StarkConfig {
        fri_config: FriConfig {
            num_query_rounds: 4,
            proof_of_work_bits: 2,
            cap_height: 1,
            ..FriConfig::standard_fast()
        },
        security_bits: 6,
        num_challenges: 2,
    };
    let bytes = fibonacci(&config, 4, 0, 1);
    let air = FibonacciAir;
    for i in (0..bytes.len()).step_by(3) {
        let mut b = bytes.clone();
        b[i] ^= 1;
        let ok = decode_stark_proof::<_, S>(&air, &config, 4, &b)
            .and_then(|p| verify(&air, &config, 4, &p, VerifyMode::Strict));
        assert!(ok.is_err(), "flipping byte {i} went unnoticed");
    }
    // The statement's length is bound: the proof does not decode or verify for another.
    for other in [3, 5] {
        let ok = decode_stark_proof::<_, S>(&air, &config, other, &bytes)
            .and_then(|p| verify(&air, &config, other, &p, VerifyMode::Strict));
        assert!(ok.is_err());
    }
}

/// `vectors/starky.json`: starky's proofs (E encoding) for the cases
/// `crates/stark/tests/vectors.rs` rebuilds, so the stable workspace checks byte equality
/// without nightly Rust: small proofs in full, larger ones by their SHA3-256. With
/// `ZKACCEL_WRITE_VECTORS=1` the file is (re)written; otherwise it must equal what starky
/// produces today.
#[test]
fn exported_vectors_are_starkys_proofs() {
    use sha3::{Digest, Sha3_256};
    let small = StarkConfig {
        fri_config: FriConfig {
            rate_bits: 2,
            cap_height: 2,
            proof_of_work_bits: 4,
            reduction_strategy: FriReductionStrategy::ConstantArityBits(2, 2),
            num_query_rounds: 10,
        },
        security_bits: 24,
        num_challenges: 1,
    };
    let fast = StarkConfig::standard_fast();
    let cases: Vec<(&str, &str, usize, StarkConfig, bool)> = vec![
        ("fibonacci", "standard_fast", 3, fast.clone(), true),
        ("fibonacci", "standard_fast", 5, fast.clone(), true),
        ("factorial", "standard_fast", 5, fast.clone(), true),
        ("fibonacci", "small", 6, small.clone(), true),
        ("factorial", "small", 6, small, true),
        ("fibonacci", "standard_fast", 10, fast.clone(), false),
        ("factorial", "standard_fast", 10, fast.clone(), false),
        ("fibonacci", "standard_fast", 16, fast, false),
    ];
    let mut json = String::from(
        "{\n  \"provenance\": \"starky 1.1.0 (crates.io, default-features = false, features = [std]; \
         its proof-of-work witness is then the smallest): prover::prove on the AIRs of \
         peers/tests/starky_compat.rs (starky's FibonacciStark with x0 = 0, x1 = 1; UniZK's \
         FactorialStark), encoded as E (docs/notes/starky-1.1.0.md section 2) with plonky2's \
         Write; 'small' = rate_bits 2, cap_height 2, 4 pow bits, ConstantArityBits(2, 2), 10 \
         queries, 1 challenge, 24 security bits\",\n  \"cases\": [\n",
    );
    for (k, (air, config_name, log_rows, config, full)) in cases.iter().enumerate() {
        let bytes = match *air {
            "fibonacci" => fibonacci(config, *log_rows, 0, 1),
            _ => factorial(config, *log_rows),
        };
        let hex = |b: &[u8]| b.iter().map(|b| format!("{b:02x}")).collect::<String>();
        let body = if *full {
            format!("\"proof_hex\": \"{}\"", hex(&bytes))
        } else {
            format!("\"proof_sha3_256\": \"{}\"", hex(&Sha3_256::digest(&bytes)))
        };
        json += &format!(
            "    {{\"air\": \"{air}\", \"config\": \"{config_name}\", \"log_rows\": {log_rows}, \"size\": {}, {body}}}{}\n",
            bytes.len(),
            if k + 1 < cases.len() { "," } else { "" }
        );
    }
    json += "  ]\n}\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/starky.json");
    if std::env::var("ZKACCEL_WRITE_VECTORS").as_deref() == Ok("1") {
        std::fs::write(path, &json).unwrap();
    }
    let stored = std::fs::read_to_string(path)
        .expect("vectors/starky.json (ZKACCEL_WRITE_VECTORS=1 writes it)");
    assert!(
        stored == json,
        "vectors/starky.json differs from starky's proofs today"
    );
}
