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

/// Canonical words viewed as Montgomery representations hold `x·R⁻¹`: a linear map run on
/// them leaves the canonical words of its result on `x` (arkworks computes the expectation).
#[test]
fn linear_maps_run_on_canonical_words_through_the_montgomery_view() {
    use ark_ff::{PrimeField as _, UniformRand};
    use rand::SeedableRng;
    let mut rng = StdRng::seed_from_u64(7);
    let xs: Vec<ark_bn254::Fr> = (0..64).map(|_| ark_bn254::Fr::rand(&mut rng)).collect();
    let c = ark_bn254::Fr::rand(&mut rng);
    let words_of = |x: &ark_bn254::Fr| -> Vec<u64> { x.into_bigint().as_ref().to_vec() };
    let mut words: Vec<u64> = xs.iter().flat_map(words_of).collect();
    let c_ours = Fr::from_canonical_limbs(c.into_bigint().0).unwrap();
    let view = Fr::slice_from_montgomery_words_mut(&mut words).unwrap();
    // y_i = c·x_i + x_{i+1} (cyclically): linear over the field.
    let copy = view.to_vec();
    for (i, y) in view.iter_mut().enumerate() {
        *y = c_ours * copy[i] + copy[(i + 1) % copy.len()];
    }
    let expected: Vec<u64> = (0..xs.len())
        .flat_map(|i| words_of(&(c * xs[i] + xs[(i + 1) % xs.len()])))
        .collect();
    assert_eq!(words, expected);

    let mut p_words = Fr::modulus().as_ref().to_vec();
    assert!(matches!(
        Fr::slice_from_montgomery_words_mut(&mut p_words),
        Err(zkaccel_field::FieldError::NonCanonical { .. })
    ));
    let mut ragged = vec![0u64; 5];
    assert!(matches!(
        Fr::slice_from_montgomery_words_mut(&mut ragged),
        Err(zkaccel_field::FieldError::WrongLength { .. })
    ));
}
