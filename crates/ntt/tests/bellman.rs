//! The Groth16 H kernel against bellman 0.14 itself (zkcrypto, BLS12-381 Fr), the prover the
//! FPGA NTT paper integrated its accelerator into: on random evaluations of several sizes
//! (powers of two and not, so bellman's zero padding is exercised), `groth16_h` equals the
//! coefficients bellman's prover computes with `EvaluationDomain` (ifft, coset_fft,
//! mul_assign, sub_assign, divide_by_z_on_coset, icoset_fft, the last coefficient dropped).

mod common;

use bls12_381::Scalar;
use common::bellman_peer::{bellman_h, to_bellman};
use ff::PrimeField as _;
use rand::RngCore;
use zkaccel_bls12_381::Fr;
use zkaccel_field::{Field, PrimeField};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_ntt::{groth16_h, NttPlan, TwoAdicField};

fn from_bellman(x: &Scalar) -> Fr {
    Fr::from_bytes_le(&x.to_repr()).expect("a canonical element")
}

#[test]
fn the_fields_agree() {
    assert_eq!(
        Fr::GENERATOR,
        from_bellman(&Scalar::MULTIPLICATIVE_GENERATOR)
    );
    assert_eq!(u32::try_from(Fr::TWO_ADICITY).unwrap(), Scalar::S);
}

#[test]
fn groth16_h_equals_bellman() {
    let mut r = rng();
    let plan = NttPlan::<Fr>::new(13).unwrap();
    for len in [1usize, 2, 3, 100, 1000, 1024, 4097] {
        let mut sample = || -> Vec<Fr> {
            (0..len)
                .map(|_| random_prime(&mut r as &mut dyn RngCore))
                .collect()
        };
        let (a, b, c) = (sample(), sample(), sample());
        let ours = groth16_h(&plan, &a, &b, &c).unwrap();
        let theirs = |v: &[Fr]| v.iter().map(to_bellman).collect::<Vec<_>>();
        let h = bellman_h(theirs(&a), theirs(&b), theirs(&c));
        let h: Vec<Fr> = h.iter().map(|x| from_bellman(&x.0)).collect();
        assert_eq!(ours, h, "{len} evaluations");
    }
}
