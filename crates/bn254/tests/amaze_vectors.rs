//! AMAZE's own testbench vectors for multiplication, exponentiation and addition
//! (`vectors/mimc.json` → `amaze_testbench_vectors`, copied from the AMAZE repository's
//! SystemVerilog test cases and re-verified with circomlibjs), run through every
//! multiplication algorithm.

use serde_json::Value;
use zkaccel_bn254::Fr;
use zkaccel_field::modmul::MulAlgorithm;
use zkaccel_field::{limbs, Field, PrimeField};

fn vectors() -> Value {
    let all: Value =
        serde_json::from_str(include_str!("../../../vectors/mimc.json")).expect("valid JSON");
    all["amaze_testbench_vectors"]["hex"].clone()
}

fn fr(v: &Value) -> Fr {
    v.as_str().expect("hex string").parse().expect("canonical")
}

fn cases<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    let c = v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is an array"));
    assert!(!c.is_empty(), "{key} has cases");
    c
}

#[test]
fn galois_mult_with_every_algorithm() {
    let v = vectors();
    for case in cases(&v, "galois_mult") {
        let (a, b, out) = (fr(&case["a"]), fr(&case["b"]), fr(&case["out"]));
        assert_eq!(a * b, out);
        for alg in MulAlgorithm::ALL {
            assert_eq!(a.mul_with(b, alg), out, "{alg:?}");
        }
    }
}

#[test]
fn galois_pow() {
    let v = vectors();
    for case in cases(&v, "galois_pow") {
        let (x, out) = (fr(&case["x"]), fr(&case["out"]));
        let e = case["e"].as_u64().expect("exponent");
        assert_eq!(x.exp_u64(e), out, "x^{e}");
    }
}

#[test]
fn single_round_x_plus_k_plus_c_to_the_seventh() {
    let v = vectors();
    for case in cases(&v, "single_round_no_final_key_add") {
        let (x, k, c, out) = (
            fr(&case["x"]),
            fr(&case["k"]),
            fr(&case["c"]),
            fr(&case["out"]),
        );
        assert_eq!((x + k + c).exp_u64(7), out);
    }
}

/// The RTL adders accept a first operand `>= p`; our API rejects it unless asked to reduce.
#[test]
fn noncanonical_addition_inputs_are_rejected_or_explicitly_reduced() {
    let v = vectors();
    for case in cases(&v, "galois_add_NONCANONICAL_input_a_ge_p") {
        let a_str = case["a"].as_str().unwrap();
        assert!(a_str.parse::<Fr>().is_err(), "a >= p must be rejected");
        let a = Fr::from_str_reduced(a_str).unwrap();
        assert_eq!(a + fr(&case["b"]), fr(&case["out"]));
    }
    for case in cases(&v, "galois_add_three_NONCANONICAL_input_a_ge_p") {
        let a = Fr::from_str_reduced(case["a"].as_str().unwrap()).unwrap();
        assert_eq!(a + fr(&case["b"]) + fr(&case["c"]), fr(&case["out"]));
    }
}

#[test]
fn plain_256_bit_integer_product() {
    let v = vectors();
    for case in cases(&v, "mult_256_integer") {
        let a = limbs::parse(case["a"].as_str().unwrap(), 4).unwrap();
        let b = limbs::parse(case["b"].as_str().unwrap(), 4).unwrap();
        let out = limbs::parse(case["out"].as_str().unwrap(), 8).unwrap();
        let mut product = [0u64; 8];
        limbs::mul_into(&a, &b, &mut product);
        assert_eq!(product.to_vec(), out);
    }
}
