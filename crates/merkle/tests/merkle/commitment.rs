//! A commitment pins the tree: forged openings that a bare cap accepts are rejected, proofs
//! and rows of another shape or hash are typed errors, and every single-element mutation of a
//! valid multiproof is rejected. The commitment's encoding round-trips and rejects damage.

use crate::common::{plonky2_tree, random, rows};
use rand::SeedableRng;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_codec::DecodeError;
use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_merkle::{
    verify, HasherIdentity, MerkleCommitment, MerkleError, MerkleProof, MerkleTree, TreeHasher,
};
use zkaccel_plonky2::Plonky2Hasher;
use zkaccel_presets::{NeptuneHasher, NeptunePoseidon, Strength};

fn neptune(arity: usize, strength: Strength) -> NeptuneHasher {
    NeptuneHasher::new(NeptunePoseidon::<Bls>::new(arity, strength).unwrap())
}

fn neptune_tree(
    arity: usize,
    strength: Strength,
    n: usize,
    seed: u64,
) -> MerkleTree<NeptuneHasher> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let leaves = (0..n).map(|_| random(&mut rng)).collect();
    MerkleTree::new(neptune(arity, strength), leaves, 1, 0).unwrap()
}

fn refs<T>(rows: &[Vec<T>]) -> Vec<&[T]> {
    rows.iter().map(Vec::as_slice).collect()
}

/// The forgery a bare cap accepted: depth = cap height, no siblings, a cap digest as the
/// leaf row (plonky2 hashes a row of four elements as itself).
#[test]
fn a_cap_digest_posing_as_a_leaf_is_rejected() {
    let tree = plonky2_tree(64, 4, 2, 1);
    let cap = tree.cap().to_vec();
    let forged = MerkleProof {
        hasher_id: Plonky2Hasher::ID,
        arity: 2,
        depth: 2,
        cap_height: 2,
        indices: vec![1],
        siblings: vec![],
    };
    let row = cap[1].to_vec();
    // The forgery is real: a commitment that only says "this cap" (here: a 4-leaf tree
    // with the same cap) accepts it.
    let cap_only = MerkleCommitment::new(&Plonky2Hasher, 4, 4, 2, cap.clone()).unwrap();
    verify(&Plonky2Hasher, &cap_only, &[&row], &forged).unwrap();
    // The tree's commitment pins depth 6 and rejects it before hashing anything.
    assert_eq!(
        verify(&Plonky2Hasher, &tree.commitment(), &[&row], &forged),
        Err(MerkleError::ProofShape {
            what: "depth",
            committed: 6,
            proof: 2
        })
    );
    // Also through the canonical bytes.
    let decoded =
        MerkleProof::from_bytes::<Plonky2Hasher>(&forged.to_bytes::<Plonky2Hasher>()).unwrap();
    assert!(verify(&Plonky2Hasher, &tree.commitment(), &[&row], &decoded).is_err());
}

/// A shorter proof opens an internal node as a leaf: rejected.
#[test]
fn an_internal_node_posing_as_a_leaf_is_rejected() {
    let tree = plonky2_tree(64, 4, 1, 2);
    // Node 5 of level 2 (16 nodes) as a "leaf" of a depth-4 tree with the same cap.
    let level = tree.level(2).unwrap();
    let mut siblings = Vec::new();
    let (mut i, mut l) = (5u64, 2usize);
    while l < 5 {
        siblings.push(tree.level(l).unwrap()[(i ^ 1) as usize]);
        i /= 2;
        l += 1;
    }
    let forged = MerkleProof {
        hasher_id: Plonky2Hasher::ID,
        arity: 2,
        depth: 4,
        cap_height: 1,
        indices: vec![5],
        siblings,
    };
    let row = level[5].to_vec();
    let shallow = MerkleCommitment::new(&Plonky2Hasher, 16, 4, 1, tree.cap().to_vec()).unwrap();
    verify(&Plonky2Hasher, &shallow, &[&row], &forged).unwrap();
    assert!(matches!(
        verify(&Plonky2Hasher, &tree.commitment(), &[&row], &forged),
        Err(MerkleError::ProofShape { what: "depth", .. })
    ));
}

#[test]
fn rows_of_the_wrong_width_are_typed_errors_not_panics() {
    let tree = plonky2_tree(16, 4, 0, 3);
    let proof = tree.prove(&[3]).unwrap();
    let c = tree.commitment();
    let row = tree.leaf(3).unwrap().to_vec();
    let empty: &[Goldilocks] = &[];
    assert_eq!(
        verify(&Plonky2Hasher, &c, &[empty], &proof),
        Err(MerkleError::LeafRow {
            row: 0,
            expected: 4,
            found: 0
        })
    );
    let mut longer = row.clone();
    longer.push(Goldilocks::ONE);
    assert!(matches!(
        verify(&Plonky2Hasher, &c, &[&longer], &proof),
        Err(MerkleError::LeafRow { found: 5, .. })
    ));
    verify(&Plonky2Hasher, &c, &[&row], &proof).unwrap();
    // neptune leaves are single elements: an empty row used to panic in the leaf hash.
    let tree = neptune_tree(2, Strength::Standard, 8, 4);
    let proof = tree.prove(&[0]).unwrap();
    let empty: &[Bls] = &[];
    assert!(matches!(
        verify(tree.hasher(), &tree.commitment(), &[empty], &proof),
        Err(MerkleError::LeafRow { found: 0, .. })
    ));
    let two = [Bls::ONE, Bls::ONE];
    assert!(matches!(
        verify(tree.hasher(), &tree.commitment(), &[&two], &proof),
        Err(MerkleError::LeafRow { found: 2, .. })
    ));
}

#[test]
fn proofs_for_another_width_arity_hasher_or_depth_are_rejected() {
    // Another leaf width, same number of leaves.
    let a = plonky2_tree(32, 4, 0, 5);
    let b = plonky2_tree(32, 5, 0, 6);
    let pb = b.prove(&[7]).unwrap();
    let rb = rows(&b, &[7]);
    assert!(matches!(
        verify(&Plonky2Hasher, &a.commitment(), &refs(&rb), &pb),
        Err(MerkleError::LeafRow {
            expected: 4,
            found: 5,
            ..
        })
    ));
    // Another depth.
    let deep = plonky2_tree(64, 4, 0, 7);
    let pd = deep.prove(&[7]).unwrap();
    let rd = rows(&deep, &[7]);
    assert!(matches!(
        verify(&Plonky2Hasher, &a.commitment(), &refs(&rd), &pd),
        Err(MerkleError::ProofShape { what: "depth", .. })
    ));
    // Another cap height.
    let capped = plonky2_tree(32, 4, 2, 5);
    let pc = capped.prove(&[7]).unwrap();
    let rc = rows(&capped, &[7]);
    assert!(matches!(
        verify(&Plonky2Hasher, &a.commitment(), &refs(&rc), &pc),
        Err(MerkleError::ProofShape {
            what: "cap height",
            ..
        })
    ));
    // Another arity: a commitment of an arity-4 tree checked with an arity-2 hasher, and an
    // arity-4 proof against an arity-2 commitment.
    let t2 = neptune_tree(2, Strength::Standard, 16, 8);
    let t4 = neptune_tree(4, Strength::Standard, 16, 8);
    let p4 = t4.prove(&[3]).unwrap();
    let r4 = rows(&t4, &[3]);
    assert!(matches!(
        verify(t2.hasher(), &t4.commitment(), &refs(&r4), &p4),
        Err(MerkleError::WrongHasher { .. })
    ));
    assert!(matches!(
        verify(t2.hasher(), &t2.commitment(), &refs(&r4), &p4),
        Err(MerkleError::ProofShape { what: "arity", .. })
    ));
    // Another hasher variant: neptune Strengthened against a Standard commitment.
    let strong = neptune_tree(2, Strength::Strengthened, 16, 8);
    let ps = strong.prove(&[3]).unwrap();
    let rs = rows(&strong, &[3]);
    assert!(matches!(
        verify(strong.hasher(), &t2.commitment(), &refs(&rs), &ps),
        Err(MerkleError::WrongHasher { .. })
    ));
    assert_ne!(
        HasherIdentity::of(strong.hasher()),
        HasherIdentity::of(t2.hasher())
    );
    // Another hasher: a plonky2 proof's id against a neptune commitment.
    let mut foreign = t2.prove(&[3]).unwrap();
    foreign.hasher_id = Plonky2Hasher::ID;
    assert!(matches!(
        verify(
            t2.hasher(),
            &t2.commitment(),
            &refs(&rows(&t2, &[3])),
            &foreign
        ),
        Err(MerkleError::WrongHasher { .. })
    ));
}

/// Every single-element change to a valid multiproof, its rows or its shape is rejected.
fn check_every_mutation<H: TreeHasher>(tree: &MerkleTree<H>, indices: &[u64])
where
    H::Digest: PartialEq,
{
    let c = tree.commitment();
    let h = tree.hasher();
    let proof = tree.prove(indices).unwrap();
    let opened = rows(tree, &proof.indices);
    verify(h, &c, &refs(&opened), &proof).unwrap();
    let mut tried = 0usize;
    let mut reject = |p: &MerkleProof<H::Digest>, r: &[Vec<H::Element>], what: &str| {
        tried += 1;
        assert!(verify(h, &c, &refs(r), p).is_err(), "accepted: {what}");
    };
    for k in 0..proof.siblings.len() {
        for e in 0..H::DIGEST_ELEMENTS {
            let mut p = proof.clone();
            let mut elements = H::digest_elements(&p.siblings[k]);
            elements[e] += H::Element::ONE;
            p.siblings[k] = H::digest_from_elements(&elements);
            reject(&p, &opened, &format!("sibling {k} element {e}"));
        }
        let mut p = proof.clone();
        p.siblings.remove(k);
        reject(&p, &opened, &format!("sibling {k} removed"));
        let mut p = proof.clone();
        p.siblings.insert(k, proof.siblings[k]);
        reject(&p, &opened, &format!("sibling {k} repeated"));
    }
    for r in 0..opened.len() {
        for e in 0..opened[r].len() {
            let mut changed = opened.clone();
            changed[r][e] += H::Element::ONE;
            reject(&proof, &changed, &format!("row {r} element {e}"));
        }
    }
    for k in 0..proof.indices.len() {
        for delta in [1i64, -1, 1 << 20] {
            let mut p = proof.clone();
            let Some(i) = p.indices[k].checked_add_signed(delta) else {
                continue;
            };
            p.indices[k] = i;
            reject(&p, &opened, &format!("index {k} moved by {delta}"));
        }
    }
    for field in 0..4 {
        for delta in [1i64, -1] {
            let mut p = proof.clone();
            let slot = match field {
                0 => &mut p.arity,
                1 => &mut p.depth,
                2 => &mut p.cap_height,
                _ => {
                    p.hasher_id = p.hasher_id.wrapping_add(delta as u8);
                    reject(&p, &opened, "hasher id");
                    continue;
                }
            };
            let Some(v) = slot.checked_add_signed(delta as isize) else {
                continue;
            };
            *slot = v;
            reject(
                &p,
                &opened,
                &format!("header field {field} moved by {delta}"),
            );
        }
    }
    assert!(tried > 10);
}

#[test]
fn every_single_element_mutation_of_a_multiproof_is_rejected() {
    let tree = plonky2_tree(64, 3, 1, 9);
    check_every_mutation(&tree, &[0, 5, 6, 40, 63]);
    check_every_mutation(&tree, &[17]);
    let tree = neptune_tree(4, Strength::Standard, 64, 10);
    check_every_mutation(&tree, &[1, 2, 33, 60]);
}

#[test]
fn commitment_bytes_round_trip_and_reject_damage() {
    let tree = plonky2_tree(64, 5, 2, 11);
    let c = tree.commitment();
    let bytes = c.to_bytes::<Plonky2Hasher>();
    let decoded = MerkleCommitment::from_bytes(&Plonky2Hasher, &bytes).unwrap();
    assert_eq!(decoded, c);
    assert_eq!(decoded.num_leaves(), 64);
    assert_eq!(decoded.leaf_width(), 5);
    for len in 0..bytes.len() {
        assert!(
            MerkleCommitment::from_bytes(&Plonky2Hasher, &bytes[..len]).is_err(),
            "truncated to {len}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(MerkleCommitment::from_bytes(&Plonky2Hasher, &longer).is_err());
    // A flipped bit is an error or another commitment, never the same one.
    for byte in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[byte] ^= 1 << (byte % 8);
        if let Ok(other) = MerkleCommitment::from_bytes(&Plonky2Hasher, &bad) {
            assert_ne!(other, c, "flip at {byte} decoded to the same commitment");
        }
    }
    // The commitment of one hasher does not decode for another.
    let t = neptune_tree(2, Strength::Standard, 8, 12);
    let nb = t.commitment().to_bytes::<NeptuneHasher>();
    assert!(matches!(
        MerkleCommitment::from_bytes(&neptune(2, Strength::Strengthened), &nb),
        Err(MerkleError::WrongHasher { .. })
    ));
    assert!(matches!(
        MerkleCommitment::from_bytes(&neptune(4, Strength::Standard), &nb),
        Err(MerkleError::WrongHasher { .. })
    ));
    assert_eq!(
        MerkleCommitment::from_bytes(t.hasher(), &nb).unwrap(),
        t.commitment()
    );
}

#[test]
fn impossible_commitments_are_typed_errors() {
    let d = [Goldilocks::ZERO; 4];
    assert!(matches!(
        MerkleCommitment::new(&Plonky2Hasher, 12, 4, 0, vec![d]),
        Err(MerkleError::LeafCount { leaves: 12, .. })
    ));
    assert!(matches!(
        MerkleCommitment::new(&Plonky2Hasher, 8, 0, 0, vec![d]),
        Err(MerkleError::LeafWidth { width: 0, .. })
    ));
    assert!(matches!(
        MerkleCommitment::new(&Plonky2Hasher, 8, 1 << 40, 0, vec![d]),
        Err(MerkleError::LeafWidth { .. })
    ));
    assert!(matches!(
        MerkleCommitment::new(&Plonky2Hasher, 8, 4, 4, vec![d; 16]),
        Err(MerkleError::CapHeight {
            cap_height: 4,
            depth: 3
        })
    ));
    assert!(matches!(
        MerkleCommitment::new(&Plonky2Hasher, 8, 4, 1, vec![d; 3]),
        Err(MerkleError::CapLength {
            expected: 2,
            found: 3
        })
    ));
    assert!(matches!(
        MerkleCommitment::new(&neptune(2, Strength::Standard), 8, 2, 0, vec![Bls::ZERO]),
        Err(MerkleError::LeafWidth { width: 2, .. })
    ));
}

/// Hostile commitment headers: sizes near 2^64, a leaf width of u32::MAX, a foreign field name,
/// a lying name length. Each is a typed error, decided before anything is allocated.
#[test]
fn hostile_commitment_headers_are_typed_errors() {
    let tree = plonky2_tree(8, 2, 0, 13);
    let good = tree.commitment().to_bytes::<Plonky2Hasher>();
    let with = |at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        MerkleCommitment::from_bytes(&Plonky2Hasher, &b)
    };
    // depth 64 (2^64 leaves overflows), depth 63 with cap height 63 (2^63 cap digests claimed
    // by a 32-byte body), arity 255, leaf width u32::MAX.
    assert_eq!(
        with(8, &[64]),
        Err(MerkleError::MalformedCommitment(DecodeError::OutOfRange {
            what: "the depth",
            min: 0,
            max: 63,
            got: 64
        }))
    );
    assert!(matches!(
        with(8, &[63, 63]),
        Err(MerkleError::MalformedCommitment(DecodeError::Length {
            what: "the cap's bytes",
            ..
        }))
    ));
    assert!(matches!(
        with(7, &[255]),
        Err(MerkleError::WrongHasher { .. })
    ));
    assert!(matches!(
        with(12, &u32::MAX.to_le_bytes()),
        Err(MerkleError::LeafWidth { .. })
    ));
    assert!(matches!(
        with(12, &[0, 0, 0, 0]),
        Err(MerkleError::LeafWidth { .. })
    ));
    // Another field's name, and a name length past the data.
    assert!(matches!(
        with(17, b"X"),
        Err(MerkleError::WrongHasher { .. })
    ));
    assert!(MerkleCommitment::from_bytes(&Plonky2Hasher, &{
        let mut b = good.clone();
        b[16] = 255;
        b
    })
    .is_err());
    // Empty input and the bare magic.
    assert!(MerkleCommitment::from_bytes(&Plonky2Hasher, &[]).is_err());
    assert!(MerkleCommitment::from_bytes(&Plonky2Hasher, b"ZKMC").is_err());
}

/// A tree assembled from separately built aligned subtrees (AcclMT's decomposition) commits to
/// the same cap as the tree built whole, at every cap height the subtree roots allow.
#[test]
fn subtree_roots_combine_into_the_whole_trees_commitment() {
    fn check<H: TreeHasher + Clone>(hasher: H, leaves: Vec<H::Element>, width: usize) {
        let arity = hasher.arity();
        let n = leaves.len() / width;
        let depth = zkaccel_merkle::exact_log(n as u64, arity).unwrap();
        for k in 0..=depth {
            let subtrees = arity.pow(k as u32);
            let per = leaves.len() / subtrees;
            let roots: Vec<H::Digest> = leaves
                .chunks(per)
                .map(|chunk| {
                    MerkleTree::new(hasher.clone(), chunk.to_vec(), width, 0)
                        .unwrap()
                        .cap()[0]
                })
                .collect();
            for cap_height in 0..=k {
                let whole = MerkleTree::new(hasher.clone(), leaves.clone(), width, cap_height)
                    .unwrap()
                    .commitment();
                let combined = MerkleCommitment::from_subtree_roots(
                    &hasher, &roots, n as u64, width, cap_height,
                )
                .unwrap();
                assert_eq!(
                    combined,
                    whole,
                    "{} 2^{k} subtrees, cap {cap_height}",
                    H::NAME
                );
            }
            if k > 0 {
                // Above the subtree roots there is nothing to combine them from.
                assert!(matches!(
                    MerkleCommitment::from_subtree_roots(&hasher, &roots, n as u64, width, k + 1),
                    Err(MerkleError::CapHeight { .. })
                ));
                // One root too many is a typed error, and one missing (past two roots: one of
                // two left is a whole tree's root).
                let mut wrong = vec![[roots.as_slice(), &roots[..1]].concat()];
                if roots.len() > 2 {
                    wrong.push(roots[1..].to_vec());
                }
                for wrong in wrong {
                    assert!(matches!(
                        MerkleCommitment::from_subtree_roots(&hasher, &wrong, n as u64, width, 0),
                        Err(MerkleError::CapLength { .. })
                    ));
                }
            }
        }
        assert!(MerkleCommitment::<H::Digest>::from_subtree_roots(
            &hasher,
            &[],
            n as u64,
            width,
            0
        )
        .is_err());
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let goldilocks: Vec<Goldilocks> = (0..64 * 3).map(|_| random(&mut rng)).collect();
    check(Plonky2Hasher, goldilocks, 3);
    let leaves: Vec<Bls> = (0..64).map(|_| random(&mut rng)).collect();
    check(neptune(4, Strength::Standard), leaves.clone(), 1);
    check(neptune(2, Strength::Strengthened), leaves, 1);
}
