//! Tree roots and caps from `vectors/poseidon.json`: plonky2 1.1.0's `MerkleTree::new`
//! (every leaf width and cap height, leaf digests) and neptune 13's tree builder (arity 2, 4, 8,
//! 11), both with the in-memory tree and the bounded-memory streaming build.

use serde_json::Value;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_field::{Field, PrimeField};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_merkle::{build_streaming, MerkleError, MerkleTree, StreamConfig, TreeHasher};
use zkaccel_plonky2::Plonky2Hasher;
use zkaccel_presets::{NeptuneHasher, NeptunePoseidon, Strength};

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../../../vectors/poseidon.json")).expect("valid JSON")
}

fn el<F: PrimeField>(v: &Value) -> F {
    v.as_str().unwrap().parse().unwrap()
}

fn digest(v: &Value) -> [Goldilocks; 4] {
    let e: Vec<Goldilocks> = v.as_array().unwrap().iter().map(el).collect();
    e.try_into().unwrap()
}

/// leaf i = [G(i, 0..w)], G(i, j) = i·1000003 + j.
fn plonky2_leaves(n: u64, w: u64) -> Vec<Goldilocks> {
    (0..n)
        .flat_map(|i| (0..w).map(move |j| Goldilocks::new_reduced(i * 1_000_003 + j)))
        .collect()
}

fn stream_cap<H: TreeHasher>(
    h: &H,
    leaves: &[H::Element],
    width: usize,
    cap_height: usize,
    sub: usize,
) -> Vec<H::Digest> {
    let mut config = StreamConfig::new((leaves.len() / width) as u64, width);
    config.cap_height = cap_height;
    config.subtree_leaves = sub;
    let mut pos = 0usize;
    let mut source = (0u64, width, |_: u64, out: &mut [H::Element]| {
        out.copy_from_slice(&leaves[pos..pos + out.len()]);
        pos += out.len();
        Ok::<(), MerkleError>(())
    });
    build_streaming(h, config, &mut source, |_| {})
        .unwrap()
        .commitment
        .cap()
        .to_vec()
}

#[test]
fn plonky2_caps_and_leaf_digests() {
    let v = vectors();
    let mut checked = 0;
    for case in v["plonky2_goldilocks"]["merkle_tree"].as_array().unwrap() {
        let n = case["num_leaves"].as_u64().unwrap();
        let w = case["leaf_len"].as_u64().unwrap();
        let h = case["cap_height"].as_u64().unwrap() as usize;
        let leaves = plonky2_leaves(n, w);
        let tree = MerkleTree::new(Plonky2Hasher, leaves.clone(), w as usize, h).unwrap();
        let want: Vec<[Goldilocks; 4]> =
            case["cap"].as_array().unwrap().iter().map(digest).collect();
        assert_eq!(tree.cap(), want.as_slice(), "n {n} w {w} cap {h}");
        if let Some(d) = case["leaf_digests"].as_array() {
            let want: Vec<[Goldilocks; 4]> = d.iter().map(digest).collect();
            assert_eq!(tree.level(0).unwrap(), want.as_slice());
        }
        for sub in [2, 4, 16, 4096] {
            assert_eq!(
                stream_cap(&Plonky2Hasher, &leaves, w as usize, h, sub),
                want,
                "stream, subtree {sub}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 12);
}

#[test]
fn neptune_roots() {
    let v = vectors();
    for case in v["neptune_bls12_381"]["merkle_trees"].as_array().unwrap() {
        let arity = case["arity"].as_u64().unwrap() as usize;
        let n = case["num_leaves"].as_u64().unwrap();
        let h = NeptuneHasher::new(NeptunePoseidon::<Bls>::new(arity, Strength::Standard).unwrap());
        let leaves: Vec<Bls> = (0..n)
            .map(|i| Bls::from_u64_reduced(i * 1_000_003 + 7))
            .collect();
        let tree = MerkleTree::new(h.clone(), leaves.clone(), 1, 0).unwrap();
        let root: Bls = el(&case["root"]);
        assert_eq!(tree.cap(), &[root], "arity {arity}, {n} leaves");
        // The rows just below the root.
        let rows = case["top_rows"].as_array().unwrap();
        for (k, row) in rows.iter().rev().enumerate() {
            let want: Vec<Bls> = row.as_array().unwrap().iter().map(el).collect();
            assert_eq!(tree.level(tree.depth() - k).unwrap(), want.as_slice());
        }
        let sub = arity.pow(2).min(n as usize).max(arity);
        assert_eq!(stream_cap(&h, &leaves, 1, 0, sub), vec![root]);
    }
}
