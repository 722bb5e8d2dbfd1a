//! Every preset through the shared vocabulary: known answers from circomlibjs (the values the
//! presets' own vector tests take from `vectors/`), and the contract every
//! implementation keeps — a batch equals one at a time, and wrong lengths are errors.

use zkaccel_bn254::Fr;
use zkaccel_field::{Field, PrimeField};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::poseidon::Digest;
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_presets::MimcPreset as Preset;
use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};
use zkaccel_symmetric::{Compression, Hasher, Permutation};

fn fr(decimal: &str) -> Fr {
    Fr::from_str_canonical(decimal).expect("a canonical decimal")
}

/// `children` of `n` nodes' worth from a simple deterministic sequence.
fn children<D>(c: &impl Compression<D>, nodes: usize, element: impl Fn(u64) -> D) -> Vec<D> {
    (0..(c.arity() * nodes) as u64).map(element).collect()
}

/// A compression's contract: `compress_many` equals `compress` group by group (batches that
/// fill and miss the kernels' groups), and a wrong number of children is an error.
fn check_compression<D: PartialEq + core::fmt::Debug + Clone>(
    c: &impl Compression<D>,
    element: impl Fn(u64) -> D + Copy,
) {
    let a = c.arity();
    for nodes in [1usize, 3, 17] {
        let kids = children(c, nodes, element);
        let want: Vec<D> = kids
            .chunks_exact(a)
            .map(|g| c.compress(g).expect("arity children"))
            .collect();
        assert_eq!(c.compress_many(&kids).expect("whole groups"), want);
        // One child too many for the batch: an error.
        let mut extra = kids.clone();
        extra.push(element(99));
        assert!(c.compress_many(&extra).is_err(), "{} nodes and one", nodes);
    }
    for wrong in [0, a - 1, a + 1] {
        let kids: Vec<D> = (0..wrong as u64).map(element).collect();
        assert!(c.compress(&kids).is_err(), "{wrong} children for arity {a}");
    }
}

/// A permutation's contract: `permute_many` equals `permute_mut` state by state, it is not the
/// identity, and states of another width are errors that write nothing.
fn check_permutation<T: PartialEq + core::fmt::Debug + Clone>(
    p: &impl Permutation<T>,
    element: impl Fn(u64) -> T,
) {
    let t = p.width();
    let states: Vec<T> = (0..(5 * t) as u64).map(&element).collect();
    let mut each = states.clone();
    for s in each.chunks_exact_mut(t) {
        p.permute_mut(s).expect("a whole state");
    }
    assert_ne!(each, states);
    let mut many = states.clone();
    p.permute_many(&mut many).expect("whole states");
    assert_eq!(many, each);
    let mut short = states[..t - 1].to_vec();
    assert!(p.permute_mut(&mut short).is_err());
    assert_eq!(short, states[..t - 1]);
    let mut ragged = states[..2 * t + 1].to_vec();
    assert!(p.permute_many(&mut ragged).is_err());
    assert_eq!(ragged, states[..2 * t + 1]);
}

#[test]
fn circomlib_poseidon() {
    let poseidon = CircomPoseidon::for_inputs(2).unwrap();
    // circomlibjs poseidon([1, 2]).
    let want = fr("7853200120776062878684798364095072458815029376092732009249414926327459813530");
    assert_eq!(Hasher::hash(poseidon, &[Fr::ONE, Fr::TWO]).unwrap(), want);
    assert_eq!(poseidon.compress(&[Fr::ONE, Fr::TWO]).unwrap(), want);
    assert_eq!(<&CircomPoseidon as Compression<Fr>>::NAME, "circomlib");
    check_compression(poseidon, Fr::from_u64_reduced);
    check_compression(CircomPoseidon::for_inputs(4).unwrap(), Fr::from_u64_reduced);
    check_permutation(poseidon.permutation(), Fr::from_u64_reduced);
}

#[test]
fn neptune_poseidon() {
    for strength in [Strength::Standard, Strength::Strengthened] {
        let neptune = NeptunePoseidon::<zkaccel_bls12_381::Fr>::new(4, strength).unwrap();
        assert_eq!(neptune.arity(), 4);
        assert_eq!(
            neptune.variant(),
            u8::from(strength == Strength::Strengthened)
        );
        check_compression(&neptune, zkaccel_bls12_381::Fr::from_u64_reduced);
        check_permutation(
            neptune.permutation(),
            zkaccel_bls12_381::Fr::from_u64_reduced,
        );
    }
}

#[test]
fn plonky2_poseidon() {
    let plonky2 = Plonky2Poseidon::get();
    let digest = |i: u64| -> Digest {
        core::array::from_fn(|j| Goldilocks::from_u64_reduced(4 * i + j as u64))
    };
    let (a, b) = (digest(1), digest(2));
    assert_eq!(
        plonky2.compress(&[a, b]).unwrap(),
        plonky2.two_to_one(&a, &b)
    );
    let inputs: Vec<Goldilocks> = (0..20).map(Goldilocks::from_u64_reduced).collect();
    assert_eq!(
        Hasher::hash(plonky2, &inputs).unwrap(),
        plonky2.hash_no_pad(&inputs)
    );
    check_compression(plonky2, digest);
    check_permutation(plonky2.permutation(), Goldilocks::from_u64_reduced);
}

#[test]
fn mimc_presets() {
    let mimc = Preset::Circomlib.cipher();
    // circomlibjs multiHash([1, 2]) with key 0.
    let want = fr("5233261170300319370386085858846328736737478911451874673953613863492170606314");
    assert_eq!(Hasher::hash(&mimc, &[Fr::ONE, Fr::TWO]).unwrap(), want);
    assert_eq!(mimc.compress(&[Fr::ONE, Fr::TWO]).unwrap(), want);
    check_compression(&mimc, Fr::from_u64_reduced);

    let sponge = Preset::CircomlibSponge.sponge();
    // circomlibjs mimcsponge.multiHash([1, 2], 0, 1).
    let want = fr("19814528709687996974327303300007262407299502847885145507292406548098437687919");
    assert_eq!(Hasher::hash(&sponge, &[Fr::ONE, Fr::TWO]).unwrap(), want);
    assert_eq!(sponge.compress(&[Fr::ONE, Fr::TWO]).unwrap(), want);
    check_compression(&sponge, Fr::from_u64_reduced);
    check_permutation(&sponge, Fr::from_u64_reduced);
    // The permutation is circomlib's MiMCFeistel with key 0.
    let mut state = [Fr::ONE, Fr::TWO];
    sponge.permute_mut(&mut state).unwrap();
    let (l, r) = sponge.permute(Fr::ONE, Fr::TWO, Fr::ZERO);
    assert_eq!(state, [l, r]);
}
