//! Openings: single and multi-leaf proofs verify for every hasher, any change to the proof,
//! the leaves or the cap is rejected, the encoding round-trips, and the decoder and verifier
//! return `Err` (never panic) on arbitrary and mutated bytes. Also: the streaming build equals
//! the in-memory tree, and budgets that cannot be met are typed errors.

use crate::common::{plonky2_tree, random, rows};
use proptest::prelude::*;
use rand::SeedableRng;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_merkle::{
    build_streaming, build_streaming_to_disk, verify, DiskTree, LeafSource, LeafSourceError,
    MerkleCommitment, MerkleError, MerkleProof, MerkleTree, StoreProblem, StreamConfig, TreeHasher,
};
use zkaccel_plonky2::Plonky2Hasher;
use zkaccel_presets::{CircomHasher, CircomPoseidon, NeptuneHasher, NeptunePoseidon, Strength};

fn check_roundtrip<H: TreeHasher>(tree: &MerkleTree<H>, indices: &[u64]) {
    let proof = tree.prove(indices).unwrap();
    let opened = rows(tree, &proof.indices);
    let refs: Vec<&[H::Element]> = opened.iter().map(Vec::as_slice).collect();
    verify(tree.hasher(), &tree.commitment(), &refs, &proof).unwrap();
    let bytes = proof.to_bytes::<H>();
    let decoded = MerkleProof::<H::Digest>::from_bytes::<H>(&bytes).unwrap();
    assert_eq!(decoded, proof);
    verify(tree.hasher(), &tree.commitment(), &refs, &decoded).unwrap();
    // Any single-bit flip is rejected (decoding or verification), without a panic.
    for byte in (0..bytes.len()).step_by(bytes.len() / 64 + 1) {
        let mut bad = bytes.clone();
        bad[byte] ^= 1 << (byte % 8);
        let outcome = MerkleProof::<H::Digest>::from_bytes::<H>(&bad)
            .and_then(|p| verify(tree.hasher(), &tree.commitment(), &refs, &p));
        assert!(outcome.is_err(), "flip at byte {byte} accepted");
    }
    // A changed leaf is rejected.
    let mut changed = opened.clone();
    changed[0][0] += H::Element::ONE;
    let refs2: Vec<&[H::Element]> = changed.iter().map(Vec::as_slice).collect();
    assert_eq!(
        verify(tree.hasher(), &tree.commitment(), &refs2, &proof),
        Err(MerkleError::Mismatch)
    );
}

#[test]
fn plonky2_single_and_multi_proofs() {
    for (w, cap) in [(1, 0), (4, 2), (135, 0), (9, 4)] {
        let tree = plonky2_tree(64, w, cap, w as u64);
        for i in [0u64, 1, 31, 63] {
            let p = tree.prove(&[i]).unwrap();
            assert_eq!(
                p.siblings.len(),
                6 - cap,
                "a path has one sibling per level"
            );
            check_roundtrip(&tree, &[i]);
        }
        check_roundtrip(&tree, &[3, 2, 40, 41, 63, 2]);
        // Opening every leaf needs no sibling at all.
        let all: Vec<u64> = (0..64).collect();
        assert!(tree.prove(&all).unwrap().siblings.is_empty());
        check_roundtrip(&tree, &all);
    }
}

#[test]
fn arity_k_proofs() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    for arity in [2usize, 4, 8] {
        let h = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(arity, Strength::Standard).unwrap());
        let n = arity.pow(3);
        let leaves: Vec<Bls> = (0..n).map(|_| random(&mut rng)).collect();
        let tree = MerkleTree::new(h, leaves, 1, 1).unwrap();
        check_roundtrip(&tree, &[0]);
        check_roundtrip(&tree, &[1, (n - 1) as u64, (n / 2) as u64]);
    }
    let h = CircomHasher::new(CircomPoseidon::get(5).unwrap());
    let leaves: Vec<Bn> = (0..64).map(|_| random(&mut rng)).collect();
    let tree = MerkleTree::new(h, leaves, 1, 0).unwrap();
    check_roundtrip(&tree, &[7, 8, 9]);
}

#[test]
fn bad_shapes_are_typed_errors() {
    let g = |n: usize| vec![Goldilocks::ONE; n];
    assert!(matches!(
        MerkleTree::new(Plonky2Hasher, g(12), 4, 0),
        Err(MerkleError::LeafCount { leaves: 3, .. })
    ));
    assert!(matches!(
        MerkleTree::new(Plonky2Hasher, g(16), 4, 3),
        Err(MerkleError::CapHeight { .. })
    ));
    assert!(matches!(
        MerkleTree::new(Plonky2Hasher, g(10), 4, 0),
        Err(MerkleError::LeafWidth { .. })
    ));
    let tree = plonky2_tree(8, 2, 0, 1);
    assert!(matches!(
        tree.prove(&[8]),
        Err(MerkleError::IndexOutOfRange {
            index: 8,
            leaves: 8
        })
    ));
    assert!(tree.prove(&[]).is_err());
    let h = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(2, Strength::Standard).unwrap());
    assert!(matches!(
        MerkleTree::new(h, vec![Bls::ONE; 8], 2, 0),
        Err(MerkleError::LeafWidth { .. })
    ));
    // A proof checked against the wrong leaves count or cap size.
    let p = tree.prove(&[1]).unwrap();
    let row = tree.leaf(1).unwrap();
    assert!(matches!(
        verify(&Plonky2Hasher, &tree.commitment(), &[row, row], &p),
        Err(MerkleError::MalformedProof(_))
    ));
    assert!(matches!(
        MerkleCommitment::new(&Plonky2Hasher, 8, 2, 0, vec![]),
        Err(MerkleError::CapLength {
            expected: 1,
            found: 0
        })
    ));
}

#[test]
fn streaming_matches_in_memory_and_respects_the_budget() {
    let tree = plonky2_tree(256, 7, 3, 4);
    let leaves: Vec<Goldilocks> = (0..256)
        .flat_map(|i| tree.leaf(i).unwrap().to_vec())
        .collect();
    for sub in [2usize, 8, 64, 256, 4096] {
        for cap in [0usize, 3, 6, 8] {
            let mut config = StreamConfig::new(256, 7);
            config.cap_height = cap;
            config.subtree_leaves = sub;
            let mut source = (0u64, 7usize, |first: u64, out: &mut [Goldilocks]| {
                let s = first as usize * 7;
                out.copy_from_slice(&leaves[s..s + out.len()]);
                Ok(())
            });
            let want = MerkleTree::new(Plonky2Hasher, leaves.clone(), 7, cap).unwrap();
            let out = build_streaming(&Plonky2Hasher, config, &mut source, |_| {}).unwrap();
            assert_eq!(out.commitment.cap(), want.cap(), "subtree {sub}, cap {cap}");
            assert!(out.buffer_bytes <= config.memory_budget);
        }
    }
    let mut config = StreamConfig::new(1 << 20, 8);
    config.memory_budget = 64 * 1024; // one 4096-leaf subtree of 8 elements needs 256 KiB
    let mut source = (0u64, 8usize, |_: u64, _: &mut [Goldilocks]| Ok(()));
    assert!(matches!(
        build_streaming(&Plonky2Hasher, config, &mut source, |_| {}),
        Err(MerkleError::MemoryBudget { .. })
    ));
    config.subtree_leaves = 1;
    assert!(matches!(
        build_streaming(&Plonky2Hasher, config, &mut source, |_| {}),
        Err(MerkleError::SubtreeSize(1))
    ));
    // A failing source stops the build with its error.
    let mut failing = (0u64, 8usize, |first: u64, _: &mut [Goldilocks]| {
        if first > 0 {
            Err(MerkleError::LeafSource(LeafSourceError::Other {
                message: "disk gone".into(),
            }))
        } else {
            Ok(())
        }
    });
    let mut config = StreamConfig::new(1 << 14, 8);
    config.memory_budget = 600 * 1024; // one subtree per batch: the second fill fails
    assert_eq!(
        build_streaming(&Plonky2Hasher, config, &mut failing, |_| {}).unwrap_err(),
        MerkleError::LeafSource(LeafSourceError::Other {
            message: "disk gone".into(),
        })
    );
}

proptest! {
    // 256 cases in CI; `PROPTEST_CASES=1000000 cargo test --release -p zkaccel-merkle --test
    // proofs` fuzzes longer locally.
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    /// Arbitrary bytes: decoding and verifying return, never panic.
    #[test]
    fn decoder_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let tree = plonky2_tree(16, 4, 1, 2);
        let row = tree.leaf(0).unwrap();
        if let Ok(p) = MerkleProof::<[Goldilocks; 4]>::from_bytes::<Plonky2Hasher>(&bytes) {
            let leaves = vec![row; p.indices.len().min(64)];
            let _ = verify(&Plonky2Hasher, &tree.commitment(), &leaves, &p);
        }
    }

    /// A valid header followed by arbitrary counts, indices and siblings.
    #[test]
    fn verifier_rejects_forged_proofs(
        depth in 0u8..70, cap in 0u8..8, idx in proptest::collection::vec(any::<u64>(), 0..6),
        nsib in 0u32..20, tail in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let tree = plonky2_tree(16, 4, 1, 3);
        let mut bytes = b"ZKMP".to_vec();
        bytes.extend_from_slice(&[1, 1, 2, depth, cap, 4, 8]);
        bytes.extend_from_slice(&(idx.len() as u32).to_le_bytes());
        for i in &idx { bytes.extend_from_slice(&(i % 32).to_le_bytes()); }
        bytes.extend_from_slice(&nsib.to_le_bytes());
        for k in 0..nsib as u64 * 4 { bytes.extend_from_slice(&(k * 77).to_le_bytes()); }
        bytes.extend_from_slice(&tail);
        if let Ok(p) = MerkleProof::<[Goldilocks; 4]>::from_bytes::<Plonky2Hasher>(&bytes) {
            let rows: Vec<&[Goldilocks]> = p.indices.iter().map(|_| tree.leaf(0).unwrap()).collect();
            prop_assert!(verify(&Plonky2Hasher, &tree.commitment(), &rows, &p).is_err());
        }
    }
}

/// Cases per fuzz property: `PROPTEST_CASES` when set, else 256.
fn fuzz_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// A source replaying the leaves of an in-memory tree.
struct Replay<'a, H: TreeHasher>(&'a MerkleTree<H>, u64);

impl<H: TreeHasher> LeafSource<H::Element> for Replay<'_, H> {
    fn fill(&mut self, out: &mut [H::Element]) -> Result<(), MerkleError> {
        for row in out.chunks_mut(self.0.leaf_width()) {
            row.copy_from_slice(self.0.leaf(self.1).unwrap());
            self.1 += 1;
        }
        Ok(())
    }
}

fn replay<H: TreeHasher>(tree: &MerkleTree<H>) -> Replay<'_, H> {
    Replay(tree, 0)
}

fn check_store<H: TreeHasher + Clone>(tree: &MerkleTree<H>, sub: usize, index_sets: &[&[u64]]) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("store");
    let mut config = StreamConfig::new(tree.num_leaves(), tree.leaf_width());
    config.cap_height = tree.cap_height();
    config.subtree_leaves = sub;
    let (out, disk) =
        build_streaming_to_disk(tree.hasher(), config, &mut replay(tree), &dir, |_| {}).unwrap();
    assert_eq!(out.commitment, tree.commitment());
    assert_eq!(disk.commitment(), tree.commitment());
    assert_eq!(disk.cap(), tree.cap());
    let reopened = DiskTree::open(tree.hasher().clone(), &dir).unwrap();
    assert_eq!(reopened.cap(), tree.cap());
    for &indices in index_sets {
        assert_eq!(
            reopened.prove(indices).unwrap(),
            tree.prove(indices).unwrap()
        );
        for &i in indices {
            assert_eq!(reopened.leaf(i).unwrap(), tree.leaf(i).unwrap());
        }
    }
    // Only the finished store is left behind.
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn disk_store_proves_like_the_in_memory_tree() {
    for (sub, cap) in [(2usize, 0usize), (8, 2), (64, 6), (4096, 8)] {
        let tree = plonky2_tree(256, 5, cap, 9);
        check_store(
            &tree,
            sub,
            &[&[0], &[255], &[3, 4, 200], &[17, 18, 19, 100, 254]],
        );
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let h = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(4, Strength::Standard).unwrap());
    let leaves = (0..256).map(|_| random(&mut rng)).collect();
    let tree = MerkleTree::new(h, leaves, 1, 1).unwrap();
    check_store(&tree, 16, &[&[0, 1, 2, 3], &[5, 77, 255]]);
}

#[test]
fn disk_store_errors_are_typed_and_leave_nothing_behind() {
    let tree = plonky2_tree(64, 3, 1, 5);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("store");
    let mut config = StreamConfig::new(64, 3);
    config.cap_height = 1;
    config.subtree_leaves = 8;
    config.memory_budget = 2000; // two 8-leaf subtrees per batch
                                 // A source failing mid-build leaves neither the store nor its temporary directory.
    let mut failing = (0u64, 3usize, |first: u64, _: &mut [Goldilocks]| {
        if first >= 16 {
            Err(MerkleError::LeafSource(LeafSourceError::Other {
                message: "disk gone".into(),
            }))
        } else {
            Ok(())
        }
    });
    assert_eq!(
        build_streaming_to_disk(&Plonky2Hasher, config, &mut failing, &dir, |_| {}).unwrap_err(),
        MerkleError::LeafSource(LeafSourceError::Other {
            message: "disk gone".into(),
        })
    );
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    // An existing target is not overwritten.
    build_streaming_to_disk(&Plonky2Hasher, config, &mut replay(&tree), &dir, |_| {}).unwrap();
    assert!(matches!(
        build_streaming_to_disk(&Plonky2Hasher, config, &mut replay(&tree), &dir, |_| {}),
        Err(MerkleError::Store { ref path, problem: StoreProblem::Exists }) if path == &dir
    ));
    assert_eq!(
        DiskTree::open(Plonky2Hasher, &dir).unwrap().cap(),
        tree.cap()
    );
    // Another hasher, a truncated level, a non-canonical element: typed errors, no panic.
    let neptune = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(2, Strength::Standard).unwrap());
    assert!(matches!(
        DiskTree::open(neptune, &dir),
        Err(MerkleError::Store {
            problem: StoreProblem::Corrupt { .. },
            ..
        })
    ));
    let level = dir.join("level-01.bin");
    let bytes = std::fs::read(&level).unwrap();
    std::fs::write(&level, &bytes[..bytes.len() - 1]).unwrap();
    assert!(matches!(
        DiskTree::open(Plonky2Hasher, &dir),
        Err(MerkleError::Store {
            ref path,
            problem: StoreProblem::Corrupt { .. },
        }) if path == &level
    ));
    let mut bad = bytes.clone();
    bad[..8].fill(0xff); // node 0 of level 1 becomes ≥ p
    std::fs::write(&level, &bad).unwrap();
    let disk = DiskTree::open(Plonky2Hasher, &dir).unwrap();
    assert!(matches!(disk.prove(&[2]), Err(MerkleError::Field(_))));
    assert!(matches!(
        disk.leaf(64),
        Err(MerkleError::IndexOutOfRange { index: 64, .. })
    ));
    std::fs::remove_file(dir.join("tree.meta")).unwrap();
    assert!(matches!(
        DiskTree::open(Plonky2Hasher, &dir),
        Err(MerkleError::Store { .. })
    ));
}

/// The single-leaf path of `index` verifies, and every change (a sibling, the row, the index,
/// the cap, the path's length or the number of levels) is an error, never a panic.
fn check_path<H: TreeHasher>(
    tree: &MerkleTree<H>,
    index: u64,
    tamper: impl Fn(&H::Element) -> H::Element,
) {
    let levels = tree.depth() - tree.cap_height();
    let path = tree.path(index).unwrap();
    assert_eq!(path.len(), levels * (tree.hasher().arity() - 1));
    let row = tree.leaf(index).unwrap().to_vec();
    let cap = tree.cap();
    let h = tree.hasher();
    zkaccel_merkle::verify_path(h, cap, levels, index, &row, &path).unwrap();
    for k in 0..path.len() {
        let mut bad = path.clone();
        let mut e = H::digest_elements(&bad[k]);
        e[0] = tamper(&e[0]);
        bad[k] = H::digest_from_elements(&e);
        assert!(zkaccel_merkle::verify_path(h, cap, levels, index, &row, &bad).is_err());
    }
    for j in 0..row.len() {
        let mut bad = row.clone();
        bad[j] = tamper(&bad[j]);
        assert!(zkaccel_merkle::verify_path(h, cap, levels, index, &bad, &path).is_err());
    }
    let other = (index + 1) % tree.num_leaves();
    assert!(zkaccel_merkle::verify_path(h, cap, levels, other, &row, &path).is_err());
    assert!(
        zkaccel_merkle::verify_path(h, cap, levels, index + tree.num_leaves(), &row, &path)
            .is_err()
    );
    assert!(zkaccel_merkle::verify_path(h, cap, levels, u64::MAX, &row, &path).is_err());
    assert!(zkaccel_merkle::verify_path(h, cap, levels + 1, index, &row, &path).is_err());
    assert!(zkaccel_merkle::verify_path(h, cap, usize::MAX, index, &row, &path).is_err());
    assert!(zkaccel_merkle::verify_path(h, cap, levels, index, &[], &path).is_err());
    if let Some((_, shorter)) = path.split_last() {
        assert!(zkaccel_merkle::verify_path(h, cap, levels, index, &row, shorter).is_err());
    }
    let mut cap2 = cap.to_vec();
    let top = index as usize / tree.hasher().arity().pow(levels as u32);
    let mut e = H::digest_elements(&cap2[top]);
    e[0] = tamper(&e[0]);
    cap2[top] = H::digest_from_elements(&e);
    assert!(matches!(
        zkaccel_merkle::verify_path(h, &cap2, levels, index, &row, &path),
        Err(MerkleError::Mismatch)
    ));
    assert!(tree.path(tree.num_leaves()).is_err());
}

#[test]
fn single_leaf_paths() {
    let one = |x: &Goldilocks| *x + Goldilocks::ONE;
    for (n, w, cap) in [(16, 3, 0), (16, 1, 2), (32, 7, 5), (2, 2, 0)] {
        let tree = plonky2_tree(n, w, cap, n as u64 + cap as u64);
        for index in [0, 1, n as u64 - 1] {
            check_path(&tree, index, one);
        }
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let h = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(4, Strength::Standard).unwrap());
    let leaves: Vec<Bls> = (0..64).map(|_| random(&mut rng)).collect();
    let tree = MerkleTree::new(h, leaves, 1, 1).unwrap();
    for index in [0, 5, 63] {
        check_path(&tree, index, |x: &Bls| *x + Bls::ONE);
    }
}
