//! The verifier's policy: a proof does not choose its own security, and a configuration the
//! caller names is the one checked.

use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::NoTrace;
use zkaccel_plonky2::shipped::{config_with, preset, ConfigOverrides, ShippedScheme};
use zkaccel_plonky2::Plonky2Encoding as _;
use zkaccel_plonky2::ShippedAir;
use zkaccel_stark::{
    ConfigRequirement, StarkError, VerifierPolicy, VerifyMode, DEFAULT_MIN_SECURITY_BITS,
};

fn overrides(queries: usize, pow_bits: u32, security_bits: Option<usize>) -> ConfigOverrides {
    ConfigOverrides {
        queries: Some(queries),
        pow_bits: Some(pow_bits),
        security_bits,
        ..ConfigOverrides::default()
    }
}

#[test]
fn presets_keep_their_target_and_overrides_below_it_are_refused() {
    for name in ["standard-fast", "small-proofs"] {
        let c = preset(name).unwrap();
        assert_eq!(c.security_bits, 100);
        assert_eq!(c.conjectured_security_bits::<ShippedScheme>(), 100);
    }
    // 84·1 + 16 = 100 reaches the target; 83·1 + 16 = 99 does not.
    assert!(config_with("standard-fast", &overrides(84, 16, None)).is_ok());
    let err = config_with("standard-fast", &overrides(83, 16, None)).unwrap_err();
    assert!(
        matches!(
            err,
            StarkError::BelowPresetTarget {
                conjectured_bits: 99,
                target_bits: 100
            }
        ) && err.to_string().contains("--security-bits"),
        "{err}"
    );
    // Lowered explicitly, it is allowed and stated.
    let weak = config_with("standard-fast", &overrides(1, 0, Some(1))).unwrap();
    assert_eq!(weak.security_bits, 1);
    assert_eq!(weak.conjectured_security_bits::<ShippedScheme>(), 1);
}

#[test]
fn the_default_policy_rejects_a_weak_proof_and_an_explicit_one_accepts_it() {
    let weak = config_with("standard-fast", &overrides(2, 0, Some(2))).unwrap();
    let air = ShippedAir::Fibonacci;
    let proof = air.prove(3, None, &weak, &mut NoTrace).unwrap();
    let body = proof.to_bytes().unwrap();
    let verify =
        |policy: &VerifierPolicy| air.verify(&weak, 3, &body, None, VerifyMode::Strict, policy);
    let err = verify(&VerifierPolicy::default()).unwrap_err();
    assert!(err.is_rejection());
    assert!(matches!(
        err,
        StarkError::BelowPolicy {
            conjectured_bits: 2,
            min_bits: DEFAULT_MIN_SECURITY_BITS
        }
    ));
    let pis = verify(&VerifierPolicy::with_min_security_bits(2)).unwrap();
    // x0, x1 and the eighth Fibonacci number after them (0 1 1 2 3 5 8 13 21).
    let g = Goldilocks::from_u64_reduced;
    assert_eq!(pis, [g(0), g(1), g(21)]);
    assert!(verify(&VerifierPolicy::with_min_security_bits(3)).is_err());
    // A required parameter that differs is a rejection naming it.
    let mut policy = VerifierPolicy::with_min_security_bits(1);
    policy.required = ConfigRequirement {
        queries: Some(84),
        ..ConfigRequirement::default()
    };
    let err = verify(&policy).unwrap_err();
    assert!(err.is_rejection());
    assert!(
        matches!(
            err,
            StarkError::ConfigMismatch {
                parameter: "query rounds",
                ..
            }
        ),
        "{err}"
    );
    policy.required = ConfigRequirement::exactly(&weak);
    assert!(verify(&policy).is_ok());
    policy.required = ConfigRequirement::exactly(&preset("standard-fast").unwrap());
    assert!(verify(&policy).unwrap_err().is_rejection());
}

/// A hostile preset name is refused with at most 40 of its characters kept; a proof file's
/// statement of another AIR or size is a typed rejection naming both.
#[test]
fn unknown_presets_and_other_statements_are_typed() {
    let long = "x".repeat(1 << 20);
    match preset(&long) {
        Err(StarkError::UnknownPreset { name }) => assert_eq!(name.len(), 40),
        other => panic!("{other:?}"),
    }
    let statement = zkaccel_plonky2::Statement {
        air: ShippedAir::Fibonacci,
        log_rows: 5,
        config: preset("standard-fast").unwrap(),
    };
    let policy = VerifierPolicy::default();
    let e = statement
        .check(Some(ShippedAir::Factorial), None, &policy)
        .unwrap_err();
    assert!(e.is_rejection());
    assert!(matches!(
        e,
        StarkError::Rejected(zkaccel_stark::Rejection::OtherAir {
            proof: "fibonacci",
            expected: "factorial"
        })
    ));
    let e = statement.check(None, Some(6), &policy).unwrap_err();
    assert!(matches!(
        e,
        StarkError::Rejected(zkaccel_stark::Rejection::OtherRows {
            proof: 5,
            expected: 6
        })
    ));
    assert!(statement
        .check(Some(ShippedAir::Fibonacci), Some(5), &policy)
        .is_ok());
}
