//! The generic field suite and a differential test against arkworks' `ark-bls12-377`.

use rand::rngs::StdRng;
use zkaccel_bls12_377::Fq;
use zkaccel_field::{PrimeField, TwoAdicField};
use zkaccel_field_testing::random_prime;

fn sample(rng: &mut StdRng) -> Fq {
    random_prime(rng)
}

/// `q − 1 = 2^46 · 3 · 7 · 13 · 53 · 409 · 499 · 2557 · 6633514200929891813 · f` with `f` a
/// 226-bit prime (factored with SymPy; the suite checks the product and each primality).
const FACTORS: &[(&str, u32)] = &[
    ("2", 46),
    ("3", 1),
    ("7", 1),
    ("13", 1),
    ("53", 1),
    ("409", 1),
    ("499", 1),
    ("2557", 1),
    ("6633514200929891813", 1),
    (
        "73387170334035996766247648424745786170238574695861388454532790956181",
        1,
    ),
];

zkaccel_field_testing::test_field!(Fq, sample, FACTORS);
zkaccel_field_testing::test_prime_field!(Fq);
zkaccel_field_testing::test_two_adic_field!(Fq);

#[test]
fn matches_arkworks() {
    zkaccel_field_testing::check_against_arkworks::<Fq, ark_bls12_377::Fq>();
}

#[test]
fn modulus_has_377_bits_and_two_adicity_46() {
    assert_eq!(Fq::BITS, 377);
    assert_eq!(Fq::TWO_ADICITY, 46);
    assert_eq!(
        zkaccel_field::limbs::to_decimal(&Fq::modulus()),
        "258664426012969094010652733694893533536393512754914660539884262666720468348340822774968888139573360124440321458177"
    );
}

/// Batches of products (`Fq::mul_assign_slices`: eight at a time with AVX-512 IFMA where the
/// CPU has it) against arkworks' products of the same random and edge elements, on lengths
/// that leave every remainder of eight.
#[test]
fn batch_products_match_arkworks() {
    use ark_ff::PrimeField as _;
    let to_ark = |x: &Fq| ark_bls12_377::Fq::from_le_bytes_mod_order(&x.to_bytes_le());
    let mut rng = zkaccel_field_testing::rng();
    let values = zkaccel_field_testing::edge_and_random::<Fq>(&mut rng, 300);
    for len in [0, 1, 7, 8, 9, 63, 64, 65, 300] {
        let a = &values[..len];
        let b: Vec<Fq> = values.iter().rev().take(len).copied().collect();
        let mut ours = a.to_vec();
        Fq::mul_assign_slices(&mut ours, &b);
        for ((x, y), product) in a.iter().zip(&b).zip(&ours) {
            assert_eq!(to_ark(product), to_ark(x) * to_ark(y), "length {len}");
        }
    }
}
