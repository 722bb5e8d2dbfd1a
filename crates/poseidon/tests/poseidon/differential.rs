//! Differential tests against the peers on random inputs: neptune 13 (Filecoin, BLS12-381,
//! arity 2/4/8/11, both strengths) and light-poseidon 0.5 (circom-compatible, BN254). plonky2
//! needs nightly features, so its differential test lives in `peers/` (see the README).

use ark_ff_06::{BigInteger, PrimeField as _};
use ff::PrimeField as _;
use generic_array::typenum::{U11, U2, U4, U8};
use light_poseidon::PoseidonHasher;
use neptune::poseidon::PoseidonConstants;
use rand::Rng;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::rng;
use zkaccel_poseidon::{CircomPoseidon, NeptunePoseidon, Strength};

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
