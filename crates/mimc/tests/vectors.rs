//! Every known answer in `vectors/mimc.json` (circomlibjs, arkworks-mimc, ethsnarks,
//! gnark-crypto, and AMAZE's own testbench), for every preset.

use serde_json::Value;
use zkaccel_bn254::Fr;
use zkaccel_field::modmul::MulAlgorithm;
use zkaccel_field::Field;
use zkaccel_mimc::{recommended_rounds, Mimc, MimcError, MimcParams};
use zkaccel_presets::MimcPreset as Preset;

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../../vectors/mimc.json")).expect("valid JSON")
}

fn fr(v: &Value) -> Fr {
    v.as_str()
        .expect("number string")
        .parse()
        .expect("canonical")
}

fn frs(v: &Value) -> Vec<Fr> {
    v.as_array().expect("array").iter().map(fr).collect()
}

fn variant(name: &str) -> Value {
    vectors()["variants"][name].clone()
}

fn check_mp_variant(name: &str, preset: Preset) {
    let v = variant(name);
    let mimc = preset.cipher();
    assert_eq!(
        mimc.params().constants(),
        frs(&v["round_constants"]).as_slice(),
        "{name}: constants"
    );
    assert_eq!(
        mimc.params().exponent(),
        v["params"]["exponent"].as_u64().unwrap()
    );
    let ciphers = v["cipher_vectors"].as_array().unwrap();
    assert_eq!(ciphers.len(), 20);
    for c in ciphers {
        assert_eq!(
            mimc.encrypt(fr(&c["x"]), fr(&c["k"])),
            fr(&c["out"]),
            "{name}: E_{}({})",
            c["k"],
            c["x"]
        );
    }
    let hashes = v["hash_vectors"].as_array().unwrap();
    assert_eq!(hashes.len(), 20);
    for h in hashes {
        assert_eq!(
            mimc.hash(&frs(&h["inputs"]), fr(&h["key"])),
            fr(&h["out"]),
            "{name}: H({})",
            h["inputs"]
        );
    }
    // The batch APIs agree with the one-at-a-time ones on the same vectors.
    let xs: Vec<Fr> = ciphers.iter().map(|c| fr(&c["x"])).collect();
    let ks: Vec<Fr> = ciphers.iter().map(|c| fr(&c["k"])).collect();
    let outs: Vec<Fr> = ciphers.iter().map(|c| fr(&c["out"])).collect();
    assert_eq!(mimc.encrypt_batch(&xs, &ks).unwrap(), outs);
    assert_eq!(mimc.encrypt_batch_single_thread(&xs, &ks).unwrap(), outs);
    let keyed: Vec<&Value> = hashes.iter().filter(|h| h["key"] == "0").collect();
    let inputs: Vec<Vec<Fr>> = keyed.iter().map(|h| frs(&h["inputs"])).collect();
    let expected: Vec<Fr> = keyed.iter().map(|h| fr(&h["out"])).collect();
    assert_eq!(mimc.hash_batch(&inputs, Fr::ZERO), expected);
}

#[test]
fn circomlib_matches_circomlibjs_and_arkworks_mimc() {
    check_mp_variant("mimc7_circomlib", Preset::Circomlib);
    let v = variant("mimc7_circomlib");
    let mimc = Preset::Circomlib.cipher();
    let up = &v["upstream_reference_values"];
    let one_two = [Fr::ONE, Fr::TWO];
    assert_eq!(
        mimc.hash(&one_two, Fr::ZERO),
        fr(&up["circomlibjs test/mimc7.js multiHash([1,2])"])
    );
    let four: Vec<Fr> = (1..=4).map(Fr::from_u64_reduced).collect();
    assert_eq!(
        mimc.hash(&four, Fr::ZERO),
        fr(&up["circomlibjs test/mimc7.js multiHash([1,2,3,4])"])
    );
    assert_eq!(
        mimc.hash(&[Fr::ONE, Fr::ZERO], Fr::ZERO),
        fr(&up["arkworks-mimc params test MP([1,0])"])
    );
}

#[test]
fn ethsnarks_matches_ethsnarks() {
    check_mp_variant("mimc7_ethsnarks", Preset::Ethsnarks);
    let up = &variant("mimc7_ethsnarks")["upstream_reference_values"];
    let mimc = Preset::Ethsnarks.cipher();
    assert_eq!(mimc.encrypt(Fr::ONE, Fr::ONE), fr(&up["mimc(1,1)"]));
    assert_eq!(
        mimc.hash(&[Fr::ONE, Fr::ONE], Fr::ZERO),
        fr(&up["mimc_hash([1,1])"])
    );
}

#[test]
fn gnark_matches_gnark_crypto() {
    check_mp_variant("mimc5_gnark_crypto_bn254", Preset::Gnark);
    let v = variant("mimc5_gnark_crypto_bn254");
    let mimc = Preset::Gnark.cipher();
    let upstream = v["upstream_vectors"].as_array().unwrap();
    assert_eq!(upstream.len(), 10);
    for u in upstream {
        assert_eq!(mimc.hash(&frs(&u["inputs"]), fr(&u["key"])), fr(&u["out"]));
    }
}

#[test]
fn circomlib_sponge_matches_circomlibjs() {
    let v = variant("mimcsponge_circomlib_feistel_x5_220");
    let sponge = Preset::CircomlibSponge.sponge();
    for s in v["sponge_vectors"].as_array().unwrap() {
        let outputs = s["numOutputs"].as_u64().unwrap() as usize;
        let got = sponge
            .hash(&frs(&s["inputs"]), fr(&s["key"]), outputs)
            .unwrap();
        let expected = if s["out"].is_array() {
            frs(&s["out"])
        } else {
            vec![fr(&s["out"])]
        };
        assert_eq!(got, expected, "sponge {}", s["inputs"]);
    }
    for f in v["feistel_permutation_vectors"].as_array().unwrap() {
        let (l, r) = sponge.permute(fr(&f["xL"]), fr(&f["xR"]), fr(&f["k"]));
        assert_eq!((l, r), (fr(&f["xL_out"]), fr(&f["xR_out"])));
    }
    let ark = &v["arkworks_feistel_crh_vectors"];
    let four: Vec<Fr> = (1..=4).map(Fr::from_u64_reduced).collect();
    assert_eq!(
        sponge.hash(&four, Fr::ZERO, 1).unwrap()[0],
        fr(&ark["permute_feistel([1,2,3,4])"])
    );
    assert_eq!(
        sponge.hash(&[Fr::ONE, Fr::TWO], Fr::ZERO, 1).unwrap()[0],
        fr(&ark["permute_feistel([1,2])"])
    );
    assert_eq!(sponge.hash(&[], Fr::ZERO, 0), Err(MimcError::ZeroOutputs));
    for outputs in [zkaccel_mimc::MAX_SPONGE_OUTPUTS + 1, usize::MAX] {
        assert_eq!(
            sponge.hash(&[], Fr::ZERO, outputs),
            Err(MimcError::TooManyOutputs(outputs))
        );
    }
}

fn amaze() -> Value {
    vectors()["amaze_testbench_vectors"]["hex"].clone()
}

/// AMAZE's testbench, through each multiplication algorithm its designs use.
#[test]
fn amaze_testbench_with_every_algorithm() {
    let v = amaze();
    let mimc = Preset::Circomlib.cipher();
    for c in v["cipher"].as_array().unwrap() {
        for alg in MulAlgorithm::ALL {
            assert_eq!(
                mimc.encrypt_with(fr(&c["x"]), fr(&c["k"]), alg).unwrap(),
                fr(&c["out"]),
                "{alg:?}"
            );
        }
    }
    for h in v["hash_mp"].as_array().unwrap() {
        for alg in [MulAlgorithm::Montgomery, MulAlgorithm::Barrett] {
            assert_eq!(
                mimc.hash_with(&frs(&h["inputs"]), fr(&h["key"]), alg)
                    .unwrap(),
                fr(&h["out"]),
                "{alg:?}"
            );
        }
    }
    let sponge = Preset::CircomlibSponge.sponge();
    for f in v["feistel_cipher_x5_220"].as_array().unwrap() {
        let (l, r) = sponge.permute(fr(&f["xL"]), fr(&f["xR"]), fr(&f["k"]));
        assert_eq!((l, r), (fr(&f["xL_out"]), fr(&f["xR_out"])));
    }
    for s in v["feistel_sponge_hash_x5_220"].as_array().unwrap() {
        let got = sponge.hash(&frs(&s["inputs"]), fr(&s["key"]), 1).unwrap();
        assert_eq!(got[0], fr(&s["out"]));
    }
}

/// The round-by-round trace of an independent Python model (labelled so in the vectors file);
/// its end values equal circomlibjs'.
#[test]
fn round_trace_of_independent_model() {
    let v = vectors();
    let cases = v["debug_round_trace_mimc7_circomlib"]["cases"]
        .as_array()
        .unwrap();
    assert!(!cases.is_empty());
    let params = Preset::Circomlib.params();
    for case in cases {
        let (mut x, k) = (fr(&case["x"]), fr(&case["k"]));
        let trace = frs(&case["state_after_round"]);
        // The trace may start with the input itself.
        let offset = trace.len() - params.rounds();
        for (i, &c) in params.constants().iter().enumerate() {
            x = (x + k + c).exp_u64(7);
            assert_eq!(x, trace[offset + i], "round {i}");
        }
    }
}

#[test]
fn parameters_are_validated() {
    // x^3 is not a permutation of BN254 Fr (3 | p − 1).
    assert!(matches!(
        MimcParams::<Fr>::new(3, vec![Fr::ZERO; 5]),
        Err(MimcError::ExponentNotPermutation {
            exponent: 3,
            gcd: 3,
            ..
        })
    ));
    assert!(matches!(
        MimcParams::<Fr>::new(2, vec![Fr::ZERO]),
        Err(MimcError::ExponentTooSmall(2))
    ));
    assert_eq!(MimcParams::<Fr>::new(7, vec![]), Err(MimcError::ZeroRounds));
    assert_eq!(
        MimcParams::<Fr>::with_rounds(7, 91, vec![Fr::ZERO; 90]),
        Err(MimcError::ConstantCount {
            expected: 91,
            actual: 90
        })
    );
    assert!(MimcParams::<Fr>::new(5, vec![Fr::ZERO; 3]).is_ok());
    // Round numbers of the MiMC paper for the presets: ⌈log_d p⌉.
    let log2_p = 253.59;
    assert_eq!(recommended_rounds(7, log2_p), 91);
    assert_eq!(recommended_rounds(5, log2_p), 110);
    let mimc = Mimc::new(Preset::Circomlib.params());
    assert!(matches!(
        mimc.encrypt_batch(&[Fr::ONE; 3], &[Fr::ONE; 2]),
        Err(MimcError::LengthMismatch {
            messages: 3,
            keys: 2
        })
    ));
    assert!(matches!(
        "poseidon".parse::<Preset>(),
        Err(MimcError::UnknownPreset { ref name }) if name == "poseidon"
    ));
    // A hostile name is kept to 40 characters.
    let long = "x".repeat(1 << 20);
    assert!(matches!(
        long.parse::<Preset>(),
        Err(MimcError::UnknownPreset { ref name }) if name.len() == 40
    ));
    for p in Preset::ALL {
        assert_eq!(p.name().parse::<Preset>().unwrap(), p);
    }
}
