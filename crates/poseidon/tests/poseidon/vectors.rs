//! Every Poseidon known answer in `vectors/poseidon.json` (produced by plonky2 1.1.0,
//! neptune 13.0.0 and circomlibjs 0.1.7; see `vectors/PROVENANCE.md`): constants, round
//! numbers, Grain bit streams, permutations and hashes.

use serde_json::Value;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::{Field, PrimeField};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::poseidon as plonky2;
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_poseidon::grain::{GrainLfsr, GrainSeed};
use zkaccel_poseidon::reference::log2_modulus;
use zkaccel_poseidon::rounds::reference_round_numbers;
use zkaccel_presets::{circomlib, neptune};
use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../../../vectors/poseidon.json")).expect("valid JSON")
}

fn el<F: PrimeField>(v: &Value) -> F {
    v.as_str()
        .expect("number string")
        .parse()
        .expect("canonical")
}

fn els<F: PrimeField>(v: &Value) -> Vec<F> {
    v.as_array().expect("array").iter().map(el).collect()
}

fn digest(v: &Value) -> [Goldilocks; 4] {
    els::<Goldilocks>(v).try_into().expect("four elements")
}

#[test]
fn plonky2_constants() {
    let v = &vectors()["plonky2_goldilocks"]["params"];
    let rc = plonky2::round_constants();
    assert_eq!(rc.len(), 360);
    for (i, hex) in v["round_constants_hex_first4"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        assert_eq!(
            rc[i],
            Goldilocks::from_str_canonical(hex.as_str().unwrap()).unwrap()
        );
    }
    let circ: Vec<u64> = v["mds_circ"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let diag: Vec<u64> = v["mds_diag"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(circ, plonky2::MDS_CIRC);
    assert_eq!(diag, plonky2::MDS_DIAG);
    assert_eq!(v["R_F"].as_u64().unwrap() as usize, plonky2::FULL_ROUNDS);
    assert_eq!(v["R_P"].as_u64().unwrap() as usize, plonky2::PARTIAL_ROUNDS);
    assert_eq!(v["alpha"].as_u64().unwrap(), plonky2::ALPHA);
}

#[test]
fn plonky2_permutation() {
    let h = Plonky2Poseidon::get();
    let cases = vectors()["plonky2_goldilocks"]["permutation"].clone();
    for case in cases.as_array().unwrap() {
        let input: Vec<Goldilocks> = els(&case["input"]);
        let expected: Vec<Goldilocks> = els(&case["output"]);
        let mut state: [Goldilocks; 12] = input.clone().try_into().unwrap();
        h.permute(&mut state);
        assert_eq!(state.to_vec(), expected, "{}", case["input_desc"]);
        let mut textbook = input.clone();
        h.permutation().permute_textbook(&mut textbook).unwrap();
        assert_eq!(textbook, expected, "textbook form, {}", case["input_desc"]);
        // The batch kernels (SIMD where present) on copies of the same state.
        let mut many: Vec<Goldilocks> = (0..19).flat_map(|_| input.clone()).collect();
        h.permutation().permute_many(&mut many).unwrap();
        for s in many.chunks(12) {
            assert_eq!(
                s,
                expected.as_slice(),
                "batch kernel, {}",
                case["input_desc"]
            );
        }
    }
}

#[test]
fn plonky2_sponge() {
    let h = Plonky2Poseidon::get();
    let v = vectors()["plonky2_goldilocks"].clone();
    for case in v["hash_no_pad"].as_array().unwrap() {
        let input: Vec<Goldilocks> = els(&case["input"]);
        assert_eq!(
            h.hash_no_pad(&input),
            digest(&case["hash_no_pad"]),
            "len {}",
            case["len"]
        );
        assert_eq!(
            h.hash_or_noop(&input),
            digest(&case["hash_or_noop"]),
            "len {}",
            case["len"]
        );
        assert_eq!(
            h.hash_n_to_m_no_pad(&input, 4),
            els::<Goldilocks>(&case["hash_no_pad"]),
            "len {}",
            case["len"]
        );
    }
    for case in v["two_to_one"].as_array().unwrap() {
        let out = h.two_to_one(&digest(&case["left"]), &digest(&case["right"]));
        assert_eq!(out, digest(&case["output"]));
    }
}

#[test]
fn plonky2_leaf_digests_batched() {
    // The 16-leaf trees list every leaf digest: hash_or_noop of each row, batched.
    let h = Plonky2Poseidon::get();
    let v = vectors()["plonky2_goldilocks"].clone();
    let mut checked = 0;
    for tree in v["merkle_tree"].as_array().unwrap() {
        let Some(leaves) = tree["leaf_digests"].as_array() else {
            continue;
        };
        let (n, w) = (
            tree["num_leaves"].as_u64().unwrap(),
            tree["leaf_len"].as_u64().unwrap(),
        );
        let p = zkaccel_goldilocks::ORDER;
        let rows: Vec<Goldilocks> = (0..n)
            .flat_map(|i| (0..w).map(move |j| Goldilocks::new_reduced((i * 1_000_003 + j) % p)))
            .collect();
        let mut out = vec![[Goldilocks::ZERO; 4]; n as usize];
        h.hash_or_noop_rows(&rows, w as usize, &mut out).unwrap();
        for (d, expected) in out.iter().zip(leaves) {
            assert_eq!(*d, digest(expected), "leaf_len {w}");
            checked += 1;
        }
    }
    assert!(checked >= 16);
}

#[test]
fn neptune_constants_and_hashes() {
    let v = vectors()["neptune_bls12_381"].clone();
    let mut count = 0;
    for arity in [2usize, 4, 8, 11] {
        for case in v["per_arity"][format!("arity{arity}")].as_array().unwrap() {
            let strength: Strength = case["strength"].as_str().unwrap().parse().unwrap();
            let h = NeptunePoseidon::<Bls>::new(arity, strength).unwrap();
            let p = h.permutation().params();
            assert_eq!(p.full_rounds() as u64, case["R_F"].as_u64().unwrap());
            assert_eq!(
                p.partial_rounds() as u64,
                case["R_P"].as_u64().unwrap(),
                "arity {arity}"
            );
            assert_eq!(p.width() as u64, case["width_t"].as_u64().unwrap());
            let rc = p.round_constants();
            assert_eq!(
                rc.len() as u64,
                case["num_round_constants"].as_u64().unwrap()
            );
            assert_eq!(
                &rc[..arity + 1],
                els::<Bls>(&case["round_constants_first_t"]).as_slice()
            );
            assert_eq!(
                *rc.last().unwrap(),
                el::<Bls>(&case["round_constants_last"])
            );
            assert_eq!(p.mds().row(0), els::<Bls>(&case["mds_row0"]).as_slice());
            assert_eq!(h.merkle_tag(), el::<Bls>(&case["domain_tag_merkle"]));
            for vec in case["vectors"].as_array().unwrap() {
                let pre: Vec<Bls> = els(&vec["preimage"]);
                assert_eq!(
                    h.hash(&pre).unwrap(),
                    el::<Bls>(&vec["hash"]),
                    "arity {arity} {strength:?}"
                );
                if let Some(state) = vec["full_state_after_permutation"].as_array() {
                    let mut s = vec![h.merkle_tag()];
                    s.extend_from_slice(&pre);
                    h.permutation().permute(&mut s).unwrap();
                    assert_eq!(s, state.iter().map(el::<Bls>).collect::<Vec<_>>());
                }
                // The batch path (IFMA where present) on 11 copies.
                let many: Vec<Bls> = (0..11).flat_map(|_| pre.clone()).collect();
                for out in h.hash_many(&many).unwrap() {
                    assert_eq!(out, el::<Bls>(&vec["hash"]));
                }
                count += 1;
            }
        }
    }
    assert_eq!(count, 32);
}

#[test]
fn circomlib_hashes_and_tables() {
    let v = vectors()["circomlibjs_bn254"].clone();
    let rp: Vec<u64> = v["params"]["R_P_by_t_2_to_17"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    for t in 2..=17 {
        assert_eq!(
            circomlib::round_numbers(t).unwrap(),
            (8, rp[t - 2] as usize),
            "t = {t}"
        );
    }
    let t3 = CircomPoseidon::get(3).unwrap().permutation().params();
    assert_eq!(
        &t3.round_constants()[..6],
        els::<Bn>(&v["t3_first_round_constants"]).as_slice()
    );
    for (i, row) in v["t3_mds"].as_array().unwrap().iter().enumerate() {
        assert_eq!(t3.mds().row(i), els::<Bn>(row).as_slice());
    }
    let t2 = CircomPoseidon::get(2).unwrap().permutation().params();
    assert_eq!(
        &t2.round_constants()[..4],
        els::<Bn>(&v["t2_first_round_constants"]).as_slice()
    );
    for case in v["cases"].as_array().unwrap() {
        let inputs: Vec<Bn> = els(&case["inputs"]);
        let h = CircomPoseidon::for_inputs(inputs.len()).unwrap();
        assert_eq!(h.width() as u64, case["t"].as_u64().unwrap());
        assert_eq!(
            h.hash(&inputs).unwrap(),
            el::<Bn>(&case["output"]),
            "t = {}",
            case["t"]
        );
        let many: Vec<Bn> = (0..9).flat_map(|_| inputs.clone()).collect();
        for out in h.hash_many(&many).unwrap() {
            assert_eq!(out, el::<Bn>(&case["output"]));
        }
    }
    let w = &v["with_initState"];
    let inputs: Vec<Bn> = els(&w["inputs"]);
    let out = CircomPoseidon::for_inputs(inputs.len())
        .unwrap()
        .hash_with(
            el(&w["initState"]),
            &inputs,
            w["nOut"].as_u64().unwrap() as usize,
        )
        .unwrap();
    assert_eq!(out, els::<Bn>(&w["output"]));
}

#[test]
fn grain_bit_streams() {
    for case in vectors()["grain_lfsr_debug"].as_array().unwrap() {
        let p = &case["params"];
        let g = |k: &str| p[k].as_u64().unwrap();
        let seed = GrainSeed {
            field: g("field") as u8,
            sbox: g("sbox") as u8,
            field_bits: g("n") as u32,
            width: g("t") as usize,
            full_rounds: g("R_F") as usize,
            partial_rounds: g("R_P") as usize,
        };
        let mut lfsr = GrainLfsr::new(seed);
        let bits: String = (0..64)
            .map(|_| if lfsr.next_bit() { '1' } else { '0' })
            .collect();
        assert_eq!(
            bits,
            case["first_64_output_bits_after_discard_160_and_self_shrinking"]
                .as_str()
                .unwrap(),
            "{}",
            case["who"]
        );
        assert_eq!(
            GrainLfsr::initial_state_bits(seed),
            case["init_state_80_bits_b0_first"].as_str().unwrap(),
            "{}",
            case["who"]
        );
    }
}

#[test]
fn reference_round_number_table() {
    let v = vectors()["round_numbers_reference_formula"]["values"].clone();
    let fields: [(&str, f64); 3] = [
        ("BLS12-381 Fr", log2_modulus::<Bls>()),
        ("BN254 Fr", log2_modulus::<Bn>()),
        ("Goldilocks", log2_modulus::<Goldilocks>()),
    ];
    let mut checked = 0;
    for (name, log2p) in fields {
        for (alpha_key, by_t) in v[name].as_object().unwrap() {
            let alpha: u64 = alpha_key.trim_start_matches("alpha=").parse().unwrap();
            for (t_key, expected) in by_t.as_object().unwrap() {
                let t: usize = t_key.trim_start_matches("t=").parse().unwrap();
                let Some(pair) = expected.as_array() else {
                    continue; // "not a permutation": checked in the parameter tests
                };
                let want = (
                    pair[0].as_u64().unwrap() as usize,
                    pair[1].as_u64().unwrap() as usize,
                );
                assert_eq!(
                    reference_round_numbers(log2p, t, alpha).unwrap(),
                    want,
                    "{name} α={alpha} t={t}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 30);
}

#[test]
fn neptune_round_numbers() {
    for (arity, rp, strong) in [(2, 55, 69), (4, 56, 70), (8, 57, 72), (11, 57, 72)] {
        assert_eq!(
            neptune::round_numbers(arity, Strength::Standard).unwrap(),
            (8, rp)
        );
        assert_eq!(
            neptune::round_numbers(arity, Strength::Strengthened).unwrap(),
            (8, strong)
        );
    }
}
