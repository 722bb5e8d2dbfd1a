//! The checks behind zkaccel's fuzz targets, one function per public decoder of user bytes,
//! and the seed inputs each starts from ([`seeds`]).
//!
//! Every check feeds arbitrary bytes to a decoder and panics (which libFuzzer reports as a
//! crash, with the input saved) when the decoder panics itself, accepts something it must
//! refuse, or decodes something that does not re-encode to the same bytes. Expected values
//! never come from the code under test alone: an accepted proof must be the one valid proof
//! of a fixed statement, an accepted field element must be below the modulus as the
//! reducing decoder sees it, and an accepted Merkle opening must open the original leaves.
//!
//! The targets (`fuzz_targets/`) are thin wrappers; `scripts/fuzz.sh` builds them with
//! SanitizerCoverage on stable Rust, writes the seeds and runs each for a bounded time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use zkaccel_bls12_377::Fq as Bls377Fq;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::{Field, PrimeField};
use zkaccel_fri::{FriConfig, FriParams, FriProof, FriReductionStrategy, FriScheme};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::{read_jsonl, CircuitShape};
use zkaccel_merkle::{
    build_streaming_to_disk, verify, DiskTree, MerkleCommitment, MerkleProof, MerkleTree,
    StreamConfig, TreeHasher,
};
use zkaccel_plonky2::{decode_stark_proof, FriProofCodec as _, Plonky2Encoding as _};
use zkaccel_plonky2::{Plonky2Goldilocks, Plonky2Hasher};
use zkaccel_presets::{CircomHasher, CircomPoseidon};
use zkaccel_stark::{prove, verify as verify_stark, Air, FibonacciAir, StarkConfig, VerifyMode};

type S = Plonky2Goldilocks;

/// The fuzz targets, in the order `scripts/fuzz.sh` runs them.
pub const TARGETS: [&str; 8] = [
    "field_bytes",
    "field_text",
    "merkle_proof",
    "merkle_commitment",
    "merkle_store",
    "fri_proof",
    "stark_proof",
    "model_inputs",
];

/// Runs the check of `target` on `data`.
///
/// # Panics
/// When the check fails (that is the point), or for an unknown target name.
pub fn check(target: &str, data: &[u8]) {
    match target {
        "field_bytes" => field_bytes(data),
        "field_text" => field_text(data),
        "merkle_proof" => merkle_proof(data),
        "merkle_commitment" => merkle_commitment(data),
        "merkle_store" => merkle_store(data),
        "fri_proof" => fri_proof(data),
        "stark_proof" => stark_proof(data),
        "model_inputs" => model_inputs(data),
        _ => panic!("unknown fuzz target {target}"),
    }
}

/// Canonical byte decoding of one element of every field, both byte orders.
pub fn field_bytes(data: &[u8]) {
    one_field_bytes::<Goldilocks>(data);
    one_field_bytes::<Bn>(data);
    one_field_bytes::<Bls>(data);
    one_field_bytes::<Bls377Fq>(data);
}

fn one_field_bytes<F: PrimeField>(data: &[u8]) {
    // The reducing decoder is the reference for "is below p": the canonical decoder must
    // accept exactly the right-length inputs that reduction leaves unchanged.
    let reduced = F::from_bytes_le_reduced(data);
    let below_p = data.len() == F::NUM_BYTES && reduced.to_bytes_le() == data;
    match F::from_bytes_le(data) {
        Ok(x) => {
            assert!(below_p, "{}: accepted a non-canonical encoding", F::NAME);
            assert_eq!(x, reduced, "{}: canonical and reduced disagree", F::NAME);
            assert_eq!(x.to_bytes_le(), data, "{}: no round trip", F::NAME);
        }
        Err(_) => assert!(!below_p, "{}: refused a canonical encoding", F::NAME),
    }
    let mut be = data.to_vec();
    be.reverse();
    assert_eq!(
        F::from_bytes_be(&be).ok(),
        F::from_bytes_le(data).ok(),
        "{}: big-endian is not the reversed little-endian",
        F::NAME
    );
}

/// Text decoding of field elements: the hash inputs of the CLI and of every vector file
/// (decimal and `0x` hexadecimal, canonical or reduced).
pub fn field_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    one_field_text::<Goldilocks>(text);
    one_field_text::<Bn>(text);
    one_field_text::<Bls>(text);
    one_field_text::<Bls377Fq>(text);
}

fn one_field_text<F: PrimeField>(text: &str) {
    let canonical = F::from_str_canonical(text);
    let reduced = F::from_str_reduced(text);
    if let Ok(x) = &canonical {
        assert_eq!(
            reduced.as_ref().ok(),
            Some(x),
            "{}: a canonical value reduces to another",
            F::NAME
        );
        // Its decimal form reads back as itself.
        assert_eq!(F::from_str_canonical(&x.to_string()).ok(), Some(*x));
    }
    if let (Err(_), Ok(r)) = (&canonical, &reduced) {
        // Refused as canonical but read when reduced: the number must be ≥ p, so its
        // reduction's decimal differs from the text (modulo spelling: signs, hex, zeros).
        let spelled = text.trim();
        assert_ne!(
            spelled,
            r.to_string(),
            "{}: refused a canonical value",
            F::NAME
        );
    }
}

/// A fixed Poseidon-Goldilocks tree (plonky2 layout, 32 leaves of 3 elements, cap 4), for
/// the opening and commitment targets.
fn goldilocks_tree() -> &'static MerkleTree<Plonky2Hasher> {
    static TREE: OnceLock<MerkleTree<Plonky2Hasher>> = OnceLock::new();
    TREE.get_or_init(|| {
        let leaves = (0..32u64 * 3)
            .map(|i| Goldilocks::from_u64_reduced(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect();
        MerkleTree::new(Plonky2Hasher, leaves, 3, 2).expect("a valid tree")
    })
}

/// A fixed circomlib-Poseidon BN254 tree (arity 4, 64 leaves of 1 element, cap 1).
fn bn254_tree() -> &'static MerkleTree<CircomHasher> {
    static TREE: OnceLock<MerkleTree<CircomHasher>> = OnceLock::new();
    TREE.get_or_init(|| {
        let hasher = CircomHasher::new(CircomPoseidon::get(5).expect("circomlib has t = 5"));
        let leaves = (0..64u64)
            .map(|i| Bn::from_u64_reduced(i * i + 7))
            .collect();
        MerkleTree::new(hasher, leaves, 1, 1).expect("a valid tree")
    })
}

/// Merkle openings (`MerkleProof::from_bytes`) and their verification against fixed trees.
pub fn merkle_proof(data: &[u8]) {
    one_merkle_proof(goldilocks_tree(), data);
    one_merkle_proof(bn254_tree(), data);
}

fn one_merkle_proof<H: TreeHasher>(tree: &MerkleTree<H>, data: &[u8]) {
    let Ok(proof) = MerkleProof::<H::Digest>::from_bytes::<H>(data) else {
        return;
    };
    assert_eq!(
        proof.to_bytes::<H>(),
        data,
        "a decoded opening re-encodes differently"
    );
    if proof.indices.len() > 64 || proof.indices.iter().any(|&i| i >= tree.num_leaves()) {
        return;
    }
    let rows: Vec<&[H::Element]> = proof
        .indices
        .iter()
        .map(|&i| tree.leaf(i).expect("an index in range"))
        .collect();
    if verify(tree.hasher(), &tree.commitment(), &rows, &proof).is_ok() {
        // The only accepted opening of these leaves is the tree's own.
        let genuine = tree
            .prove(&proof.indices)
            .expect("the tree opens its leaves");
        assert_eq!(proof, genuine, "a forged opening verified");
    }
}

/// Commitment decoding (`MerkleCommitment::from_bytes`).
pub fn merkle_commitment(data: &[u8]) {
    one_commitment(goldilocks_tree().hasher(), data);
    one_commitment(bn254_tree().hasher(), data);
}

fn one_commitment<H: TreeHasher>(hasher: &H, data: &[u8]) {
    if let Ok(c) = MerkleCommitment::<H::Digest>::from_bytes(hasher, data) {
        assert_eq!(
            c.to_bytes::<H>(),
            data,
            "a decoded commitment re-encodes differently"
        );
    }
}

/// The files of a valid on-disk store of [`goldilocks_tree`]'s leaves, by name.
fn store_files() -> &'static Vec<(String, Vec<u8>)> {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let tree = goldilocks_tree();
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let dir = tmp.path().join("store");
        let mut config = StreamConfig::new(tree.num_leaves(), tree.leaf_width());
        config.cap_height = tree.cap_height();
        config.subtree_leaves = 8;
        let mut source = (
            0u64,
            tree.leaf_width(),
            |first: u64, out: &mut [Goldilocks]| {
                for (k, row) in out.chunks_mut(3).enumerate() {
                    row.copy_from_slice(tree.leaf(first + k as u64).expect("in range"));
                }
                Ok(())
            },
        );
        build_streaming_to_disk(&Plonky2Hasher, config, &mut source, &dir, |_| {})
            .expect("the store builds");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .expect("the store exists")
            .map(|e| {
                let e = e.expect("a directory entry");
                let name = e.file_name().to_string_lossy().into_owned();
                (name, std::fs::read(e.path()).expect("a store file"))
            })
            .collect();
        files.sort();
        files
    })
}

/// On-disk tree stores (`DiskTree::open`, then leaves and openings read from the files): the
/// input picks one of a valid store's files (first byte) and replaces its contents with the
/// rest. Whatever the store then claims, an opening that verifies against the original
/// commitment must open the original leaves.
pub fn merkle_store(data: &[u8]) {
    let Some((&pick, contents)) = data.split_first() else {
        return;
    };
    let files = store_files();
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = write_store(tmp.path(), files, pick as usize % files.len(), contents);
    let Ok(store) = DiskTree::open(Plonky2Hasher, &dir) else {
        return;
    };
    let tree = goldilocks_tree();
    for index in [0u64, 5, 31] {
        let (Ok(leaf), Ok(proof)) = (store.leaf(index), store.prove(&[index])) else {
            continue;
        };
        if verify(&Plonky2Hasher, &tree.commitment(), &[&leaf], &proof).is_ok() {
            assert_eq!(
                leaf,
                tree.leaf(index).expect("in range"),
                "a tampered leaf verified"
            );
        }
    }
}

fn write_store(root: &Path, files: &[(String, Vec<u8>)], replace: usize, with: &[u8]) -> PathBuf {
    let dir = root.join("store");
    std::fs::create_dir(&dir).expect("a store directory");
    for (k, (name, bytes)) in files.iter().enumerate() {
        let mut f = std::fs::File::create(dir.join(name)).expect("a store file");
        f.write_all(if k == replace { with } else { bytes })
            .expect("written");
    }
    dir
}

/// The statement of the STARK and FRI targets: Fibonacci over 2^3 rows, small FRI.
fn stark_statement() -> (FibonacciAir, StarkConfig, usize) {
    let config = StarkConfig {
        fri_config: FriConfig {
            rate_bits: 1,
            cap_height: 1,
            proof_of_work_bits: 2,
            reduction_strategy: FriReductionStrategy::ConstantArityBits(2, 1),
            num_query_rounds: 3,
        },
        security_bits: 5,
        num_challenges: 2,
    };
    (FibonacciAir, config, 3)
}

/// The one valid proof of [`stark_statement`] (canonical encoding) and its FRI part.
fn valid_stark_proof() -> &'static (Vec<u8>, Vec<u8>) {
    static PROOF: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    PROOF.get_or_init(|| {
        let (air, config, degree_bits) = stark_statement();
        let g = Goldilocks::from_u64_reduced;
        let (trace, pis) = FibonacciAir::trace(1 << degree_bits, g(0), g(1)).expect("a trace");
        let proof = prove::<_, S>(
            &air,
            &config,
            trace,
            &pis,
            &mut zkaccel_kernel_trace::NoTrace,
        )
        .expect("a valid trace proves");
        let fri = proof.opening_proof.to_bytes().expect("a FRI proof encodes");
        (proof.to_bytes().expect("a proof encodes"), fri)
    })
}

/// STARK proof decoding and verification of a pinned statement: only the valid proof may
/// pass. The same bytes as a proof file: its header decodes or is refused, and the default
/// verifier policy passes no configuration below its minimum security.
pub fn stark_proof(data: &[u8]) {
    if let Ok((statement, _)) = zkaccel_plonky2::Statement::decode_header(data) {
        let policy = zkaccel_stark::VerifierPolicy::default();
        if statement.check(None, None, &policy).is_ok() {
            assert!(
                statement.config.conjectured_security_bits::<S>() >= policy.min_security_bits,
                "the policy passed a weak configuration"
            );
        }
    }
    let (air, config, degree_bits) = stark_statement();
    let Ok(proof) = decode_stark_proof::<_, S>(&air, &config, degree_bits, data) else {
        return;
    };
    assert_eq!(
        proof.to_bytes().ok().as_deref(),
        Some(data),
        "no round trip"
    );
    if verify_stark(&air, &config, degree_bits, &proof, VerifyMode::Strict).is_ok() {
        assert_eq!(data, valid_stark_proof().0, "a forged proof verified");
    }
}

fn fri_params() -> (FriParams, Vec<usize>) {
    let (air, config, degree_bits) = stark_statement();
    let params = config
        .fri_config
        .params(degree_bits, S::max_lde_bits())
        .expect("valid parameters");
    // The committed batches: the trace's columns and the quotient's chunks.
    let widths = vec![
        air.columns(),
        air.quotient_degree_factor() * config.num_challenges,
    ];
    (params, widths)
}

/// FRI proof decoding (`FriProof::from_bytes`) with the statement's parameters.
pub fn fri_proof(data: &[u8]) {
    static PARAMS: OnceLock<(FriParams, Vec<usize>)> = OnceLock::new();
    let (params, widths) = PARAMS.get_or_init(fri_params);
    if let Ok(proof) = FriProof::<S>::from_bytes(data, params, widths) {
        assert_eq!(
            proof.to_bytes().ok().as_deref(),
            Some(data),
            "no round trip"
        );
    }
}

/// The accelerator models' inputs: kernel traces (JSON lines) and plonky2 circuit shapes
/// (JSON), whose kernels are expanded when the shape checks.
pub fn model_inputs(data: &[u8]) {
    let _ = read_jsonl(data);
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(shape) = CircuitShape::from_json(text) {
            if shape.check().is_ok() {
                let _ = shape.kernels();
            }
        }
    }
}

/// The inputs each target starts from: valid encodings (and edge cases) of what it decodes.
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let p = |f: &str| -> Vec<u8> { f.as_bytes().to_vec() };
    match target {
        "field_bytes" => vec![
            Goldilocks::NEG_ONE.to_bytes_le(),
            Bn::NEG_ONE.to_bytes_le(),
            Bls::NEG_ONE.to_bytes_le(),
            Bls377Fq::NEG_ONE.to_bytes_le(),
            vec![0xff; 8],
            vec![0xff; 32],
            vec![0xff; 48],
        ],
        "field_text" => vec![
            p("18446744069414584320"),
            p("18446744069414584321"),
            p(&Bn::NEG_ONE.to_string()),
            p(&Bls::NEG_ONE.to_string()),
            p(&Bls377Fq::NEG_ONE.to_string()),
            p("0xffffffff00000000"),
            p("-1"),
            p("0"),
        ],
        "merkle_proof" => {
            let t = goldilocks_tree();
            let b = bn254_tree();
            vec![
                t.prove(&[0]).expect("opens").to_bytes::<Plonky2Hasher>(),
                t.prove(&[3, 4, 30])
                    .expect("opens")
                    .to_bytes::<Plonky2Hasher>(),
                b.prove(&[7]).expect("opens").to_bytes::<CircomHasher>(),
            ]
        }
        "merkle_commitment" => vec![
            goldilocks_tree().commitment().to_bytes::<Plonky2Hasher>(),
            bn254_tree().commitment().to_bytes::<CircomHasher>(),
        ],
        "merkle_store" => store_files()
            .iter()
            .enumerate()
            .map(|(k, (_, bytes))| {
                let mut s = vec![k as u8];
                s.extend_from_slice(bytes);
                s
            })
            .collect(),
        "fri_proof" => vec![valid_stark_proof().1.clone()],
        "stark_proof" => vec![valid_stark_proof().0.clone()],
        "model_inputs" => vec![
            p(include_str!(
                "../../crates/hwmodel/shapes/plonky2-fibonacci.json"
            )),
            p(
                &include_str!("../../crates/hwmodel/tests/data/starky-fibonacci-2e20.jsonl")
                    .lines()
                    .take(40)
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        ],
        _ => Vec::new(),
    }
}
