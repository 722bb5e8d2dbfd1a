//! Differential tests against the peers on random inputs: neptune 13 (Filecoin, BLS12-381,
//! arity 2/4/8/11, both strengths), light-poseidon 0.5 (circom-compatible, BN254) and Plonky3
//! 0.8's Goldilocks Poseidon1 (width 12). plonky2 needs nightly features, so its differential
//! test lives in `peers/` (see the README).

use ark_ff_06::{BigInteger, PrimeField as _};
use ff::PrimeField as _;
use generic_array::typenum::{U11, U2, U4, U8};
use light_poseidon::PoseidonHasher;
use neptune::poseidon::PoseidonConstants;
use p3_field::{PrimeCharacteristicRing as _, PrimeField64 as _};
use p3_symmetric::Permutation as _;
use rand::Rng;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::rng;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_presets::plonky3;
use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};

fn random<F: PrimeField>(rng: &mut impl Rng) -> F {
    let bytes: Vec<u8> = (0..64).map(|_| rng.gen()).collect();
    F::from_bytes_le_reduced(&bytes)
}

fn to_blstrs(x: &Bls) -> blstrs::Scalar {
    let repr: [u8; 32] = x.to_bytes_le().try_into().unwrap();
    blstrs::Scalar::from_repr(repr).unwrap()
}

fn from_blstrs(x: blstrs::Scalar) -> Bls {
    Bls::from_bytes_le(&x.to_repr()).unwrap()
}

macro_rules! neptune_case {
    ($arity:ty, $k:expr, $strength:expr, $ours:expr) => {{
        let theirs = PoseidonConstants::<blstrs::Scalar, $arity>::new_with_strength($strength);
        let ours: &NeptunePoseidon<Bls> = $ours;
        let mut r = rng();
        for _ in 0..40 {
            let pre: Vec<Bls> = (0..$k).map(|_| random(&mut r)).collect();
            let pre_theirs: Vec<blstrs::Scalar> = pre.iter().map(to_blstrs).collect();
            let want = neptune::poseidon::Poseidon::new_with_preimage(&pre_theirs, &theirs).hash();
            assert_eq!(ours.hash(&pre).unwrap(), from_blstrs(want), "arity {}", $k);
        }
    }};
}

#[test]
fn neptune_random_preimages() {
    for (strength, theirs) in [
        (Strength::Standard, neptune::Strength::Standard),
        (Strength::Strengthened, neptune::Strength::Strengthened),
    ] {
        neptune_case!(U2, 2, theirs, &NeptunePoseidon::new(2, strength).unwrap());
        neptune_case!(U4, 4, theirs, &NeptunePoseidon::new(4, strength).unwrap());
        neptune_case!(U8, 8, theirs, &NeptunePoseidon::new(8, strength).unwrap());
        neptune_case!(
            U11,
            11,
            theirs,
            &NeptunePoseidon::new(11, strength).unwrap()
        );
    }
}

#[test]
fn neptune_batch_matches_neptune() {
    let theirs = PoseidonConstants::<blstrs::Scalar, U2>::new();
    let ours = NeptunePoseidon::<Bls>::new(2, Strength::Standard).unwrap();
    let mut r = rng();
    let children: Vec<Bls> = (0..2 * 37).map(|_| random(&mut r)).collect();
    let got = ours.hash_many(&children).unwrap();
    for (pair, out) in children.chunks(2).zip(got) {
        let pre: Vec<blstrs::Scalar> = pair.iter().map(to_blstrs).collect();
        let want = neptune::poseidon::Poseidon::new_with_preimage(&pre, &theirs).hash();
        assert_eq!(out, from_blstrs(want));
    }
}

fn to_ark(x: &Bn) -> ark_bn254_06::Fr {
    ark_bn254_06::Fr::from_le_bytes_mod_order(&x.to_bytes_le())
}

fn from_ark(x: ark_bn254_06::Fr) -> Bn {
    Bn::from_bytes_le(&x.into_bigint().to_bytes_le()).unwrap()
}

#[test]
fn light_poseidon_random_inputs() {
    let mut r = rng();
    // light-poseidon ships circom's parameters for 1..=12 inputs.
    for n in 1..=12 {
        let mut theirs = light_poseidon::Poseidon::<ark_bn254_06::Fr>::new_circom(n).unwrap();
        let ours = CircomPoseidon::for_inputs(n).unwrap();
        for _ in 0..10 {
            let inputs: Vec<Bn> = (0..n).map(|_| random(&mut r)).collect();
            let ark_inputs: Vec<_> = inputs.iter().map(to_ark).collect();
            let want = from_ark(theirs.hash(&ark_inputs).unwrap());
            assert_eq!(ours.hash(&inputs).unwrap(), want, "{n} inputs");
        }
    }
}

type P3 = p3_goldilocks::Goldilocks;

#[test]
fn grain_constants_equal_plonky3_poseidon1_table() {
    // Plonky3 generated its table with its own Grain script (field 1, x^7, n 64, t 12, 8 + 22
    // rounds); ours come from our Grain LFSR for the same seed.
    let theirs: Vec<u64> = p3_goldilocks::poseidon1::GOLDILOCKS_POSEIDON1_RC_12
        .iter()
        .flatten()
        .map(|x| x.as_canonical_u64())
        .collect();
    let ours: Vec<u64> = plonky3::params()
        .round_constants()
        .iter()
        .map(|x| x.as_canonical_u64())
        .collect();
    assert_eq!(ours.len(), 30 * 12);
    assert_eq!(ours, theirs);
}

#[test]
fn plonky3_poseidon1_goldilocks12_random_states() {
    let ours = zkaccel_presets::Plonky3Poseidon1::get();
    // The matrix is Plonky3's published one.
    let col = p3_goldilocks::MATRIX_CIRC_MDS_12_COL;
    for (k, m) in plonky3::mds().iter().enumerate() {
        let (i, j) = (k / 12, k % 12);
        assert_eq!(m.as_canonical_u64() as i64, col[(i + 12 - j) % 12]);
    }
    let theirs = p3_goldilocks::poseidon1::default_goldilocks_poseidon1_12();
    let mut r = rng();
    let edge = [0, 1, zkaccel_goldilocks::ORDER - 1, 1 << 63, (1 << 32) - 1];
    for case in 0..64 {
        let words: [u64; 12] = core::array::from_fn(|i| match case {
            0..5 => edge[case],
            5..10 => edge[(case + i) % 5],
            _ => r.gen_range(0..zkaccel_goldilocks::ORDER),
        });
        let want = theirs
            .permute(words.map(P3::from_u64))
            .map(|x| x.as_canonical_u64());
        // The latency kernel, the generic kernel and the textbook loop.
        let mut one = words.map(Goldilocks::new_reduced);
        ours.permute(&mut one);
        let mut generic = words.map(Goldilocks::new_reduced);
        ours.permutation().permute(&mut generic).unwrap();
        let mut textbook = words.map(Goldilocks::new_reduced);
        ours.permutation().permute_textbook(&mut textbook).unwrap();
        for (name, got) in [
            ("latency", one),
            ("generic", generic),
            ("textbook", textbook),
        ] {
            assert_eq!(
                got.map(|x| x.as_canonical_u64()),
                want,
                "{name} on {words:?}"
            );
        }
    }
}
