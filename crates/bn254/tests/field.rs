//! The generic field suite and a differential test against arkworks' `ark-bn254`; the
//! multiplication kernels are checked in `zkaccel-fp256`'s `tests/kernels.rs`.

use rand::rngs::StdRng;
use zkaccel_bn254::Fr;
use zkaccel_field::PrimeField;
use zkaccel_field_testing::random_prime;

fn sample(rng: &mut StdRng) -> Fr {
    random_prime(rng)
}

/// `r − 1 = 2^28 · 3^2 · 13 · 29 · 983 · 11003 · 237073 · 405928799 · 1670836401704629 ·
/// 13818364434197438864469338081` (factored with SymPy; checked by the suite).
const FACTORS: &[(u128, u32)] = &[
    (2, 28),
    (3, 2),
    (13, 1),
    (29, 1),
    (983, 1),
    (11003, 1),
    (237073, 1),
    (405928799, 1),
    (1670836401704629, 1),
    (13818364434197438864469338081, 1),
];

zkaccel_field_testing::test_field!(Fr, sample, FACTORS);
zkaccel_field_testing::test_prime_field!(Fr);
zkaccel_field_testing::test_two_adic_field!(Fr);

#[test]
fn matches_arkworks() {
    zkaccel_field_testing::check_against_arkworks::<Fr, ark_bn254::Fr>();
}

#[test]
fn modulus_is_the_one_in_the_mimc_spec() {
    let vectors: serde_json::Value =
        serde_json::from_str(include_str!("../../../vectors/mimc.json")).expect("valid JSON");
    let p = vectors["field"]["p"].as_str().expect("p is a string");
    assert_eq!(zkaccel_field::limbs::to_decimal(&Fr::modulus()), p);
    assert_eq!(Fr::BITS, 254);
}
