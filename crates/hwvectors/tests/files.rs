//! The vector files' shapes, their reproducibility and the typed refusals. The files' contents
//! are checked against the golden models by the RTL benches themselves (hw/*/run.sh) and here
//! for the parts a reader can check by hand.

use zkaccel_hwvectors::acclmt::{
    engine_vectors, sbox_vectors, tree_depth, tree_vectors, AcclmtField, AcclmtInstance,
    AcclmtPreset, AcclmtTreePreset,
};
use zkaccel_hwvectors::ntt::{four_step_vectors, vectors as ntt_vectors, NttField};
use zkaccel_hwvectors::{amaze, mont, HwVectorError};

fn instance(preset: AcclmtPreset, arity: u64) -> AcclmtInstance {
    AcclmtInstance {
        preset,
        arity,
        field: None,
        alpha: None,
        rounds: None,
    }
}

#[test]
fn a_seed_reproduces_a_file_and_another_seed_changes_it() {
    let a = amaze::vectors(20, 5, 1).unwrap();
    assert_eq!(a, amaze::vectors(20, 5, 1).unwrap());
    let b = amaze::vectors(20, 5, 2).unwrap();
    // The constants do not depend on the seed; the random vectors do.
    assert_eq!(a[0], b[0]);
    assert_eq!(a[1], b[1]);
    assert_ne!(a[2], b[2]);
    let names: Vec<&str> = a.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "amz_consts.svh",
            "round_constants.memh",
            "cipher_vectors.hex",
            "hash_vectors.hex"
        ]
    );
    // MiMC7 has 91 rounds; nine edge pairs lead the ciphers.
    assert_eq!(a[1].text.lines().count(), 91);
    assert_eq!(a[2].text.lines().count(), 20);
    let zero = "0".repeat(64);
    assert!(a[2].text.starts_with(&format!("{zero} {zero} ")));
}

#[test]
fn the_files_have_the_shapes_the_benches_read() {
    let m = mont::vectors(mont::MontWidth::W384, 10, 1).unwrap();
    assert_eq!(m.name, "mont_vectors_384.hex");
    assert_eq!(m.text.lines().count(), 3 * 10);
    assert!(m.text.lines().all(|l| l.split(' ').all(|w| w.len() == 96)));

    let f = four_step_vectors(NttField::Bls12_377Fq, 6, 1).unwrap();
    // Header, modulus, P', 4 core twiddles, 64 scaling twiddles, 64 inputs, 64 outputs.
    assert_eq!(f.text.lines().count(), 3 + 4 + 3 * 64);
    assert_eq!(f.text.lines().next(), Some("384 6 3"));

    let e = engine_vectors(&instance(AcclmtPreset::Circomlib, 2), 5, 1).unwrap();
    let mut lines = e.lines();
    assert_eq!(lines.next(), Some("256 3 5 8 57 5"));
    let words: usize = lines.nth(3).unwrap().parse().unwrap();
    // After the configuration words: 5 permutations of 3 input and 3 output lanes.
    assert_eq!(e.lines().count(), 1 + 3 + 1 + words + 5 * 6);

    let s = sbox_vectors(AcclmtField::Bn254, 3, 4, 1).unwrap();
    assert_eq!(s.lines().next(), Some("256 3 4"));
    assert_eq!(s.lines().count(), 4 + 4);

    let t = tree_vectors(AcclmtTreePreset::Neptune, 2, 3, 1).unwrap();
    assert!(t.starts_with("256 3 5 8 55 3 1\n"), "{}", &t[..40]);
}

#[test]
fn out_of_range_requests_are_typed_refusals() {
    assert!(matches!(
        amaze::vectors(1_000_001, 0, 1),
        Err(HwVectorError::TooLarge { got: 1_000_001, .. })
    ));
    assert!(matches!(
        ntt_vectors(NttField::Bn254Fr, 12, 65_536, 1),
        Err(HwVectorError::TooLarge {
            what: "points",
            got: 268_435_456,
            ..
        })
    ));
    assert!(matches!(
        ntt_vectors(NttField::Bn254Fr, 200, 2, 1),
        Err(HwVectorError::TooLarge { .. })
    ));
    assert!(matches!(
        four_step_vectors(NttField::Bn254Fr, 7, 1),
        Err(HwVectorError::OddLogN { log_n: 7 })
    ));
    assert!(matches!(
        four_step_vectors(NttField::Bn254Fr, 40, 1),
        Err(HwVectorError::TooLarge { .. })
    ));
    let foreign = AcclmtInstance {
        field: Some(AcclmtField::Bn254),
        ..instance(AcclmtPreset::Neptune, 2)
    };
    assert!(matches!(
        engine_vectors(&foreign, 1, 1),
        Err(HwVectorError::PresetField {
            preset: "neptune",
            ..
        })
    ));
    let rounds = AcclmtInstance {
        rounds: Some((8, 56)),
        ..instance(AcclmtPreset::Circomlib, 2)
    };
    assert!(matches!(
        engine_vectors(&rounds, 1, 1),
        Err(HwVectorError::PresetRounds { .. })
    ));
    for arity in [0, 1, 12, u64::MAX] {
        assert!(matches!(
            engine_vectors(&instance(AcclmtPreset::Neptune, arity), 1, 1),
            Err(HwVectorError::Arity { .. })
        ));
    }
    assert!(matches!(
        engine_vectors(&instance(AcclmtPreset::Neptune, 11), 1_000_000, 1),
        Err(HwVectorError::TooLarge {
            what: "state words",
            ..
        })
    ));
    // x^3 does not permute BLS12-381 Fr: a reference instance refuses it, the S-box bench
    // takes it.
    let cube = AcclmtInstance {
        alpha: Some(3),
        ..instance(AcclmtPreset::Reference, 2)
    };
    assert!(matches!(
        engine_vectors(&cube, 1, 1),
        Err(HwVectorError::Poseidon(_))
    ));
    assert!(sbox_vectors(AcclmtField::Bls12_381, 3, 1, 1).is_ok());
    assert!(matches!(
        sbox_vectors(AcclmtField::Bls12_381, 4, 1, 1),
        Err(HwVectorError::Alpha { alpha: 4 })
    ));
    assert_eq!(tree_depth(4, None, 6).unwrap(), 3);
    assert!(matches!(
        tree_depth(3, None, 4),
        Err(HwVectorError::LeavesNotAPower {
            log_leaves: 4,
            arity: 3
        })
    ));
    assert!(matches!(
        tree_depth(11, Some(6), 0),
        Err(HwVectorError::TreeTooLarge {
            arity: 11,
            depth: 6
        })
    ));
    assert!(matches!(
        tree_depth(2, Some(u32::MAX), 0),
        Err(HwVectorError::TreeTooLarge { .. })
    ));
    assert!(matches!(
        tree_depth(12, Some(1), 0),
        Err(HwVectorError::Arity { arity: 12 })
    ));
}
