//! The generic field suite and a differential test against arkworks' `ark-bls12-381`; the
//! multiplication kernels are checked in `zkaccel-fp256`'s `tests/kernels.rs`.

use rand::rngs::StdRng;
use zkaccel_bls12_381::Fr;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::random_prime;

fn sample(rng: &mut StdRng) -> Fr {
    random_prime(rng)
}

/// `r − 1 = 2^32 · 3 · 11 · 19 · 10177 · 125527 · 859267 · 906349^2 · 2508409 · 2529403 ·
/// 52437899 · 254760293^2` (factored with SymPy; checked by the suite).
const FACTORS: &[(u128, u32)] = &[
    (2, 32),
    (3, 1),
    (11, 1),
    (19, 1),
    (10177, 1),
    (125527, 1),
    (859267, 1),
    (906349, 2),
    (2508409, 1),
    (2529403, 1),
    (52437899, 1),
    (254760293, 2),
];

zkaccel_field_testing::test_field!(Fr, sample, FACTORS);
zkaccel_field_testing::test_prime_field!(Fr);
zkaccel_field_testing::test_two_adic_field!(Fr);

#[test]
fn matches_arkworks() {
    zkaccel_field_testing::check_against_arkworks::<Fr, ark_bls12_381::Fr>();
}

#[test]
fn modulus_has_255_bits() {
    assert_eq!(Fr::BITS, 255);
    assert_eq!(
        zkaccel_field::limbs::to_decimal(&Fr::modulus()),
        "52435875175126190479447740508185965837690552500527637822603658699938581184513"
    );
}
