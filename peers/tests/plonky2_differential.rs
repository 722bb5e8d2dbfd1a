//! zkaccel's plonky2 preset against plonky2 1.1.0 itself on random inputs: the permutation
//! (one at a time and every batch kernel), `hash_no_pad`, `hash_or_noop`, `hash_pad`,
//! `two_to_one` and the packed row hashing.

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::hash::hashing::PlonkyPermutation;
use plonky2::hash::poseidon::{Poseidon, PoseidonHash, PoseidonPermutation};
use plonky2::plonk::config::Hasher;
use rand::{Rng, SeedableRng};
use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_peers::{digest_from_plonky2, digest_to_plonky2, from_plonky2, to_plonky2};
use zkaccel_plonky2::Plonky2Hasher;
use zkaccel_plonky2::Plonky2Poseidon;

fn random(rng: &mut impl Rng, n: usize) -> Vec<Goldilocks> {
    (0..n)
        .map(|_| Goldilocks::new_reduced(rng.gen_range(0..zkaccel_goldilocks::ORDER)))
        .collect()
}

#[test]
fn permutation() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let ours = Plonky2Poseidon::get();
    let states = random(&mut rng, 12 * 101);
    let want: Vec<Goldilocks> = states
        .chunks(12)
        .flat_map(|s| {
            let input: [GoldilocksField; 12] = core::array::from_fn(|i| to_plonky2(s[i]));
            GoldilocksField::poseidon(input).map(from_plonky2)
        })
        .collect();
    for (s, w) in states.chunks(12).zip(want.chunks(12)) {
        let mut s: [Goldilocks; 12] = s.try_into().unwrap();
        ours.permute(&mut s);
        assert_eq!(s.as_slice(), w);
    }
    for lanes in Goldilocks::packing_widths() {
        let mut many = states.clone();
        ours.permutation()
            .permute_many_within(lanes, &mut many)
            .unwrap();
        assert_eq!(many, want, "within {lanes} lanes");
    }
    // plonky2's PlonkyPermutation wrapper agrees too.
    let mut perm = PoseidonPermutation::new(states[..12].iter().map(|&x| to_plonky2(x)));
    perm.permute();
    let out: Vec<Goldilocks> = perm.as_ref().iter().map(|&x| from_plonky2(x)).collect();
    assert_eq!(out, want[..12]);
}

#[test]
fn hashes() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let ours = Plonky2Poseidon::get();
    for len in (0..40).chain([135, 200]) {
        let x = random(&mut rng, len);
        let xp: Vec<GoldilocksField> = x.iter().map(|&v| to_plonky2(v)).collect();
        assert_eq!(
            ours.hash_no_pad(&x),
            digest_from_plonky2(PoseidonHash::hash_no_pad(&xp)),
            "len {len}"
        );
        assert_eq!(
            ours.hash_or_noop(&x),
            digest_from_plonky2(PoseidonHash::hash_or_noop(&xp)),
            "len {len}"
        );
        assert_eq!(
            ours.hash_pad(&x),
            digest_from_plonky2(PoseidonHash::hash_pad(&xp)),
            "len {len}"
        );
    }
    for _ in 0..50 {
        let a: [Goldilocks; 4] = random(&mut rng, 4).try_into().unwrap();
        let b: [Goldilocks; 4] = random(&mut rng, 4).try_into().unwrap();
        let want = PoseidonHash::two_to_one(digest_to_plonky2(&a), digest_to_plonky2(&b));
        assert_eq!(ours.two_to_one(&a, &b), digest_from_plonky2(want));
    }
}

#[test]
fn packed_row_hashing() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let ours = Plonky2Poseidon::get();
    for width in [1, 4, 5, 8, 9, 24, 135] {
        let n = 77;
        let rows = random(&mut rng, n * width);
        let mut out = vec![[Goldilocks::new_reduced(0); 4]; n];
        ours.hash_or_noop_rows(&rows, width, &mut out).unwrap();
        for (row, d) in rows.chunks(width).zip(&out) {
            let xp: Vec<GoldilocksField> = row.iter().map(|&v| to_plonky2(v)).collect();
            assert_eq!(
                *d,
                digest_from_plonky2(PoseidonHash::hash_or_noop(&xp)),
                "width {width}"
            );
        }
        let pairs: Vec<[Goldilocks; 4]> = out.clone();
        let mut parents = vec![[Goldilocks::new_reduced(0); 4]; n / 2];
        ours.two_to_one_many(&pairs[..2 * (n / 2)], &mut parents)
            .unwrap();
        for (pair, p) in pairs.chunks(2).zip(&parents) {
            let want =
                PoseidonHash::two_to_one(digest_to_plonky2(&pair[0]), digest_to_plonky2(&pair[1]));
            assert_eq!(*p, digest_from_plonky2(want));
        }
    }
}

#[test]
fn merkle_tree_caps() {
    use plonky2::hash::merkle_tree::MerkleTree as Plonky2Tree;
    use zkaccel_merkle::MerkleTree;
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    for (log_n, width, cap_height) in [
        (4, 135, 0),
        (4, 135, 4),
        (10, 135, 4),
        (10, 1, 0),
        (8, 4, 2),
        (9, 7, 4),
    ] {
        let n = 1usize << log_n;
        let leaves = random(&mut rng, n * width);
        let theirs: Vec<Vec<GoldilocksField>> = leaves
            .chunks(width)
            .map(|row| row.iter().map(|&x| to_plonky2(x)).collect())
            .collect();
        let want: Vec<[Goldilocks; 4]> =
            Plonky2Tree::<GoldilocksField, PoseidonHash>::new(theirs, cap_height)
                .cap
                .0
                .into_iter()
                .map(digest_from_plonky2)
                .collect();
        let ours = MerkleTree::new(Plonky2Hasher, leaves, width, cap_height).unwrap();
        assert_eq!(
            ours.cap(),
            want.as_slice(),
            "2^{log_n} x {width}, cap {cap_height}"
        );
    }
}
