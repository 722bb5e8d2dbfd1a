//! The `zkaccel` binary end to end.

use assert_cmd::Command;

fn zkaccel() -> Command {
    Command::cargo_bin("zkaccel").expect("binary is built")
}

#[test]
fn field_mul_matches_amaze_vector_with_every_algorithm() {
    // AMAZE testbench `galois_mult` (vectors/mimc.json): out = 0x0224a253…8144, in decimal.
    let a = "0x0b0ed2a88bbc21ff8df7d33b19b35cee28393c5602b7728bf2b1e12b3201112f";
    let b = "0x025023875caa677f1fcd8ec2e9ca9da1404c230cec87a6f98002c5d5191d5ff3";
    let expected = "969352517230966327195795759386994951919954299911754360819528554025185018180\n";
    for alg in ["montgomery", "barrett", "peasant"] {
        let out = zkaccel()
            .args(["field", "mul", "--field", "bn254", "--algorithm", alg, a, b])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{alg}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected, "{alg}");
    }
}

#[test]
fn non_canonical_operand_is_rejected_with_its_position() {
    let p = "18446744069414584321"; // the Goldilocks modulus itself
    let out = zkaccel()
        .args(["field", "mul", "--field", "goldilocks", "5", p])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("value 2") && err.contains(p) && err.contains("not canonical"),
        "{err}"
    );
    let out = zkaccel()
        .args(["field", "mul", "--field", "bn254", "12x", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("value 1"));
}

#[test]
fn field_info_reports_derived_constants() {
    let out = zkaccel()
        .args(["field", "info", "--field", "bn254"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["two_adicity"], 28);
    assert_eq!(v["generator"], "5");
    assert_eq!(v["barrett"]["n"], 254);
    // AMAZE's BARRETT_R constant begins 0x54a47462 (mimc.md §3).
    assert!(
        v["barrett"]["z"]
            .as_str()
            .unwrap()
            .starts_with("0x54a47462"),
        "{}",
        v["barrett"]["z"]
    );
}

#[test]
fn bench_json_lists_kernels() {
    let out = zkaccel()
        .args(["bench", "--quick", "--json", "--filter", "goldilocks2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(r["field"], "goldilocks2");
        assert!(r["elements_per_second"].as_f64().unwrap() > 0.0);
    }
}

fn vectors() -> serde_json::Value {
    serde_json::from_str(include_str!("../../../vectors/mimc.json")).unwrap()
}

#[test]
fn mimc_cipher_and_hash_match_the_vectors_for_every_preset() {
    let v = vectors();
    for (name, preset) in [
        ("mimc7_circomlib", "circomlib"),
        ("mimc7_ethsnarks", "ethsnarks"),
        ("mimc5_gnark_crypto_bn254", "gnark"),
    ] {
        let c = &v["variants"][name]["cipher_vectors"][7];
        let out = zkaccel()
            .args([
                "mimc",
                "cipher",
                "--preset",
                preset,
                "--key",
                c["k"].as_str().unwrap(),
                c["x"].as_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            stdout.lines().last().unwrap(),
            c["out"].as_str().unwrap(),
            "{preset}"
        );
        let h = &v["variants"][name]["hash_vectors"][5];
        let mut cmd = zkaccel();
        cmd.args([
            "mimc",
            "hash",
            "--preset",
            preset,
            "--key",
            h["key"].as_str().unwrap(),
        ]);
        for x in h["inputs"].as_array().unwrap() {
            cmd.arg(x.as_str().unwrap());
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap().trim(),
            h["out"].as_str().unwrap(),
            "{preset}"
        );
    }
    let s = &v["variants"]["mimcsponge_circomlib_feistel_x5_220"]["sponge_vectors"][0];
    let out = zkaccel()
        .args(["mimc", "hash", "--preset", "circomlib-sponge", "1", "2"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        s["out"].as_str().unwrap()
    );
}

#[test]
fn mimc_hash_reads_files_and_reports_json_and_bad_lines() {
    let dir = std::env::temp_dir().join(format!("zkaccel-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "# two blocks\n1\n0x2\n").unwrap();
    let out = zkaccel()
        .args(["mimc", "hash", "--preset", "circomlib", "--json", "--file"])
        .arg(&good)
        .output()
        .unwrap();
    assert!(out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // circomlibjs multiHash([1,2]) (vectors/mimc.json, upstream_reference_values).
    assert_eq!(
        j["out"],
        "5233261170300319370386085858846328736737478911451874673953613863492170606314"
    );
    assert_eq!(j["inputs"], serde_json::json!(["1", "2"]));
    let bad = dir.join("bad.txt");
    let p = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
    std::fs::write(&bad, format!("1\n{p}\n")).unwrap();
    let out = zkaccel()
        .args(["mimc", "hash", "--preset", "circomlib", "--file"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("bad.txt:2") && err.contains(p), "{err}");
    let out = zkaccel()
        .args([
            "mimc",
            "cipher",
            "--preset",
            "circomlib",
            "--key",
            "0",
            "0xzz",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mimc_algorithms_agree_on_the_command_line() {
    let args = |alg: &str| {
        let out = zkaccel()
            .args([
                "mimc",
                "cipher",
                "--preset",
                "circomlib",
                "--key",
                "2",
                "--algorithm",
                alg,
                "1",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(args("barrett"), args("montgomery"));
}

#[test]
fn reduce_takes_numbers_at_or_above_the_modulus_modulo_p() {
    // BN254 Fr's modulus p and p + 2; each result is compared with the same command on the
    // values reduced by hand.
    let p = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
    let p_plus_2 = "21888242871839275222246405745257275088548364400416034343698204186575808495619";
    let run = |args: &[&str]| last_line(&zkaccel().args(args).output().unwrap());
    // Hash: p + 2 is 2; the key p is 0.
    assert_eq!(
        run(&[
            "mimc",
            "hash",
            "--preset",
            "circomlib",
            "--reduce",
            "--key",
            p,
            "1",
            p_plus_2
        ]),
        run(&["mimc", "hash", "--preset", "circomlib", "1", "2"]),
    );
    // Cipher: x = p + 2 and key p are 2 and 0.
    assert_eq!(
        run(&["mimc", "cipher", "--preset", "gnark", "--reduce", "--key", p, p_plus_2]),
        run(&["mimc", "cipher", "--preset", "gnark", "--key", "0", "2"]),
    );
    // A number wider than the field's 256 bits: p·2^64 + 7 (in hex) is 7.
    let wide =
        "0x30644e72e131a029b85045b68181585d2833e84879b97091 43e1f593f0000001 0000000000000007"
            .replace(' ', "");
    assert_eq!(
        run(&["mimc", "hash", "--preset", "ethsnarks", "--reduce", &wide]),
        run(&["mimc", "hash", "--preset", "ethsnarks", "7"]),
    );
    // Without --reduce the same values are rejected, naming the value.
    let out = zkaccel()
        .args([
            "mimc", "cipher", "--preset", "gnark", "--key", "0", p_plus_2,
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not canonical"));
    // Poseidon's hash takes --reduce too.
    assert_eq!(
        run(&[
            "poseidon",
            "hash",
            "--preset",
            "circomlib",
            "--reduce",
            p,
            "5"
        ]),
        run(&["poseidon", "hash", "--preset", "circomlib", "0", "5"]),
    );
}

fn poseidon_vectors() -> serde_json::Value {
    serde_json::from_str(include_str!("../../../vectors/poseidon.json")).unwrap()
}

fn last_line(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_owned()
}

#[test]
fn poseidon_hash_matches_the_vectors_for_every_preset() {
    let v = poseidon_vectors();
    // circomlibjs poseidon([1..n]) for every n.
    for case in v["circomlibjs_bn254"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .take(16)
    {
        let inputs: Vec<&str> = case["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let out = zkaccel()
            .args(["poseidon", "hash", "--preset", "circomlib"])
            .args(&inputs)
            .output()
            .unwrap();
        assert_eq!(last_line(&out), case["output"].as_str().unwrap());
    }
    // neptune, every arity and strength, preimage x_i = i + 1.
    for arity in [2, 4, 8, 11] {
        for case in v["neptune_bls12_381"]["per_arity"][format!("arity{arity}")]
            .as_array()
            .unwrap()
        {
            let vec = &case["vectors"][0];
            let pre: Vec<&str> = vec["preimage"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            let out = zkaccel()
                .args([
                    "poseidon",
                    "hash",
                    "--preset",
                    "neptune",
                    "--arity",
                    &arity.to_string(),
                ])
                .args(["--strength", case["strength"].as_str().unwrap()])
                .args(&pre)
                .output()
                .unwrap();
            assert_eq!(last_line(&out), vec["hash"].as_str().unwrap());
        }
    }
    // plonky2 hash_no_pad, including 135 elements read from a file, in hex.
    let dir = std::env::temp_dir().join(format!("zkaccel-poseidon-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for case in v["plonky2_goldilocks"]["hash_no_pad"].as_array().unwrap() {
        let inputs: Vec<u64> = case["input"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().parse().unwrap())
            .collect();
        let file = dir.join("in.txt");
        std::fs::write(
            &file,
            inputs
                .iter()
                .map(|x| format!("{x:#x}\n"))
                .collect::<String>(),
        )
        .unwrap();
        let out = zkaccel()
            .args(["poseidon", "hash", "--preset", "plonky2", "--file"])
            .arg(&file)
            .output()
            .unwrap();
        let want: Vec<&str> = case["hash_no_pad"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(last_line(&out), want.join(" "), "len {}", case["len"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn poseidon_rejects_bad_input_with_a_clear_message() {
    let p = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
    let out = zkaccel()
        .args(["poseidon", "hash", "--preset", "circomlib", "1", p])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("value 2") && err.contains("not canonical"),
        "{err}"
    );
    let out = zkaccel()
        .args([
            "poseidon", "hash", "--preset", "neptune", "--arity", "4", "1", "2",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("exactly 4 values"));
    let out = zkaccel()
        .args([
            "poseidon",
            "params",
            "--field",
            "bls12-381",
            "--width",
            "3",
            "--alpha",
            "3",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("not a permutation"));
}

#[test]
fn poseidon_params_reproduce_circomlib_and_neptune_tables() {
    let v = poseidon_vectors();
    // circomlib t = 3 is the reference generator with R_P = 57.
    let out = zkaccel()
        .args([
            "poseidon",
            "params",
            "--field",
            "bn254",
            "--width",
            "3",
            "--full-rounds",
            "8",
            "--partial-rounds",
            "57",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        j["round_constants"].as_array().unwrap()[..6],
        v["circomlibjs_bn254"]["t3_first_round_constants"]
            .as_array()
            .unwrap()[..]
    );
    assert_eq!(j["mds"], v["circomlibjs_bn254"]["t3_mds"]);
    // neptune arity 2 (t = 3), standard.
    let out = zkaccel()
        .args([
            "poseidon",
            "params",
            "--field",
            "bls12-381",
            "--width",
            "3",
            "--style",
            "neptune",
        ])
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let case = &v["neptune_bls12_381"]["per_arity"]["arity2"][0];
    assert_eq!(j["partial_rounds"], 55);
    assert_eq!(
        j["round_constants"].as_array().unwrap()[..3],
        case["round_constants_first_t"].as_array().unwrap()[..]
    );
    assert_eq!(j["mds"][0], case["mds_row0"]);
    // Goldilocks t = 12, α = 7: the reference formula gives plonky2's (8, 22).
    let out = zkaccel()
        .args([
            "poseidon",
            "params",
            "--field",
            "goldilocks",
            "--width",
            "12",
            "--alpha",
            "7",
        ])
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (j["full_rounds"].as_u64(), j["partial_rounds"].as_u64()),
        (Some(8), Some(22))
    );
}

#[test]
fn merkle_build_matches_plonky2_and_neptune_vectors() {
    let v = poseidon_vectors();
    // plonky2: generated leaves without a seed follow the vectors' rule [i·1000003 + j]_j.
    for case in v["plonky2_goldilocks"]["merkle_tree"].as_array().unwrap() {
        let (n, w, h) = (
            case["num_leaves"].as_u64().unwrap(),
            case["leaf_len"].as_u64().unwrap(),
            case["cap_height"].as_u64().unwrap(),
        );
        let out = zkaccel()
            .args([
                "merkle",
                "build",
                "--preset",
                "plonky2",
                "--leaves",
                &n.to_string(),
                "--leaf-width",
                &w.to_string(),
                "--cap-height",
                &h.to_string(),
            ])
            .args(["--subtree-leaves", "64"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let got = String::from_utf8(out.stdout).unwrap();
        let want: Vec<String> = case["cap"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                d.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(got.lines().collect::<Vec<_>>(), want, "{n} x {w}, cap {h}");
    }
    // neptune: leaves from a file, root written atomically to --output too.
    let dir = std::env::temp_dir().join(format!("zkaccel-merkle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for case in v["neptune_bls12_381"]["merkle_trees"].as_array().unwrap() {
        let (arity, n) = (
            case["arity"].as_u64().unwrap(),
            case["num_leaves"].as_u64().unwrap(),
        );
        let input = dir.join("leaves.txt");
        std::fs::write(
            &input,
            (0..n)
                .map(|i| format!("{}\n", i * 1_000_003 + 7))
                .collect::<String>(),
        )
        .unwrap();
        let root_file = dir.join("root.txt");
        let out = zkaccel()
            .args([
                "merkle",
                "build",
                "--preset",
                "neptune",
                "--arity",
                &arity.to_string(),
                "--input",
            ])
            .arg(&input)
            .arg("--output")
            .arg(&root_file)
            .output()
            .unwrap();
        assert_eq!(last_line(&out), case["root"].as_str().unwrap());
        assert_eq!(
            std::fs::read_to_string(&root_file).unwrap().trim(),
            case["root"].as_str().unwrap()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `merkle verify`'s exit status: 0, or 1 for a rejected opening, or 2 for bad input.
fn verify_opening(opening: &std::path::Path, commitment: &std::path::Path) -> (i32, String) {
    let out = zkaccel()
        .args(["merkle", "verify", "--opening"])
        .arg(opening)
        .arg("--commitment")
        .arg(commitment)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn merkle_open_verify_and_reject() {
    let dir = std::env::temp_dir().join(format!("zkaccel-merkle-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cap, opening) = (dir.join("cap.txt"), dir.join("opening.json"));
    let commitment = dir.join("commitment.json");
    let tree = [
        "--preset",
        "plonky2",
        "--leaves",
        "256",
        "--leaf-width",
        "9",
        "--seed",
        "5",
        "--cap-height",
        "2",
    ];
    let out = zkaccel()
        .args(["merkle", "build"])
        .args(tree)
        .arg("--output")
        .arg(&cap)
        .arg("--commitment")
        .arg(&commitment)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&cap).unwrap().lines().count(), 4);
    let c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&commitment).unwrap()).unwrap();
    assert_eq!(c["num_leaves"], 256);
    assert_eq!(c["leaf_width"], 9);
    assert_eq!(c["cap"].as_array().unwrap().len(), 4);
    let out = zkaccel()
        .args(["merkle", "open"])
        .args(tree)
        .args(["--index", "3,200,4"])
        .arg("--output")
        .arg(&opening)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, err) = verify_opening(&opening, &commitment);
    assert_eq!(code, 0, "{err}");
    // A tree store written by the streaming build gives the same opening, without the leaves
    // being regenerated.
    let (store, from_store) = (dir.join("store"), dir.join("from-store.json"));
    let _ = std::fs::remove_dir_all(&store);
    let out = zkaccel()
        .args(["merkle", "build"])
        .args(tree)
        .args(["--subtree-leaves", "16", "--store"])
        .arg(&store)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = zkaccel()
        .args([
            "merkle", "open", "--preset", "plonky2", "--index", "4,200,3", "--store",
        ])
        .arg(&store)
        .arg("--output")
        .arg(&from_store)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&from_store).unwrap(),
        std::fs::read_to_string(&opening).unwrap()
    );
    // Building over an existing store is refused.
    let out = zkaccel()
        .args(["merkle", "build"])
        .args(tree)
        .arg("--store")
        .arg(&store)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("already exists"));
    // Tamper with one leaf element: rejected (exit 1).
    let mut o: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&opening).unwrap()).unwrap();
    let good = o.clone();
    o["leaves"][1][0] = serde_json::json!("12345");
    std::fs::write(&opening, o.to_string()).unwrap();
    let (code, err) = verify_opening(&opening, &commitment);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("does not match"), "{err}");
    // A truncated proof and an extra leaf element: rejected too.
    o = good.clone();
    o["proof"] = serde_json::json!("5a4b4d5001");
    std::fs::write(&opening, o.to_string()).unwrap();
    let (code, err) = verify_opening(&opening, &commitment);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("malformed proof"), "{err}");
    o = good.clone();
    o["leaves"][0]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!("1"));
    std::fs::write(&opening, o.to_string()).unwrap();
    assert_eq!(verify_opening(&opening, &commitment).0, 1);
    // The forged opening a bare cap accepted: depth = cap height, no siblings, a cap digest
    // (four elements, hashed as themselves by plonky2) as the leaf row.
    let caps: Vec<Vec<String>> = serde_json::from_value(c["cap"].clone()).unwrap();
    let mut forged_proof = b"ZKMP".to_vec();
    forged_proof.extend_from_slice(&[1, 1, 2, 2, 2, 4, 8]);
    forged_proof.extend_from_slice(&1u32.to_le_bytes());
    forged_proof.extend_from_slice(&1u64.to_le_bytes());
    forged_proof.extend_from_slice(&0u32.to_le_bytes());
    let forged = serde_json::json!({
        "preset": "plonky2", "arity": 2, "strength": "standard", "cap_height": 2,
        "indices": [1], "leaves": [caps[1]], "proof": hex_encode(&forged_proof),
    });
    std::fs::write(&opening, forged.to_string()).unwrap();
    let (code, err) = verify_opening(&opening, &commitment);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("depth"), "{err}");
    // Bad input (exit 2): a missing commitment, one that is not JSON, one for no known hash.
    std::fs::write(&opening, good.to_string()).unwrap();
    assert_eq!(verify_opening(&opening, &dir.join("missing.json")).0, 2);
    std::fs::write(&cap, "not json").unwrap();
    assert_eq!(verify_opening(&opening, &cap).0, 2);
    let mut odd = c.clone();
    odd["preset"] = serde_json::json!("sha256");
    std::fs::write(&cap, odd.to_string()).unwrap();
    assert_eq!(verify_opening(&opening, &cap).0, 2);
    let mut odd = c.clone();
    odd["num_leaves"] = serde_json::json!(255);
    std::fs::write(&cap, odd.to_string()).unwrap();
    assert_eq!(verify_opening(&opening, &cap).0, 2);
    // A commitment of another width or size rejects the genuine opening.
    for (key, value) in [("leaf_width", 8), ("num_leaves", 512)] {
        let mut other = c.clone();
        other[key] = serde_json::json!(value);
        if key == "num_leaves" {
            other["cap"] = serde_json::json!(caps.clone());
        }
        std::fs::write(&cap, other.to_string()).unwrap();
        let (code, err) = verify_opening(&opening, &cap);
        assert_eq!(code, 1, "{key}: {err}");
    }
    // The `--json` output of build carries the commitment too.
    let out = zkaccel()
        .args(["merkle", "build", "--json"])
        .args(tree)
        .output()
        .unwrap();
    std::fs::write(&cap, &out.stdout).unwrap();
    assert_eq!(verify_opening(&opening, &cap).0, 0);
    // A budget that cannot hold one subtree.
    let out = zkaccel()
        .args([
            "merkle",
            "build",
            "--preset",
            "plonky2",
            "--leaves",
            "65536",
            "--leaf-width",
            "135",
            "--memory-budget",
            "64K",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("over the budget"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ntt_transforms_files_and_random_values() {
    use zkaccel_field::{Field, PrimeField, TwoAdicField};
    use zkaccel_goldilocks::Goldilocks;
    let dir = std::env::temp_dir().join(format!("zkaccel-ntt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output, back) = (
        dir.join("in.txt"),
        dir.join("out.txt"),
        dir.join("back.txt"),
    );
    let x: Vec<Goldilocks> = (0..8u64)
        .map(|i| Goldilocks::from_u64_reduced(i * i * 1_000_003 + 7))
        .collect();
    let lines: Vec<String> = x.iter().map(|v| v.to_hex_string()).collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    // The coset forward transform equals direct evaluation at g·ω^k.
    let out = zkaccel()
        .args(["ntt", "--field", "goldilocks", "--coset", "--input"])
        .arg(&input)
        .arg("--output")
        .arg(&output)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8(out.stdout).unwrap().contains("ms"));
    let omega = Goldilocks::two_adic_generator(3).unwrap();
    let want: Vec<String> = (0..8u64)
        .map(|k| {
            let point = Goldilocks::GENERATOR * omega.exp_u64(k);
            x.iter()
                .rev()
                .fold(Goldilocks::ZERO, |acc, &c| acc * point + c)
                .to_decimal_string()
        })
        .collect();
    let got = std::fs::read_to_string(&output).unwrap();
    assert_eq!(got.lines().collect::<Vec<_>>(), want);
    // The inverse coset transform with bit-reversed orders round-trips through the forward
    // one with the matching orders.
    for (fwd, inv) in [("nr", "rn"), ("rr", "rr")] {
        let run = |args: &[&str], from: &std::path::Path, to: &std::path::Path| {
            let out = zkaccel()
                .args(["ntt", "--field", "goldilocks"])
                .args(args)
                .arg("--input")
                .arg(from)
                .arg("--output")
                .arg(to)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        run(&["--order", fwd], &input, &output);
        run(&["--inverse", "--order", inv], &output, &back);
        let decimal: Vec<String> = x.iter().map(|v| v.to_decimal_string()).collect();
        assert_eq!(
            std::fs::read_to_string(&back)
                .unwrap()
                .lines()
                .collect::<Vec<_>>(),
            decimal
        );
    }
    // Random input, JSON report.
    let out = zkaccel()
        .args([
            "ntt", "--field", "bn254", "--random", "10", "--seed", "3", "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["log_n"], 10);
    assert!(report["seconds"].as_f64().unwrap() >= 0.0);
    // Bad input: a count that is not a power of two; a non-canonical value; too large.
    std::fs::write(&input, "1\n2\n3\n").unwrap();
    let out = zkaccel()
        .args(["ntt", "--field", "goldilocks", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("not a power of two"));
    std::fs::write(&input, "1\n18446744069414584321\n").unwrap();
    let out = zkaccel()
        .args(["ntt", "--field", "goldilocks", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains(":2"));
    let out = zkaccel()
        .args(["ntt", "--field", "bn254", "--random", "29"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn hex_encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Issue 26's nine hostile inputs, each a typed error (exit 2) or a prompt answer, by name.
#[test]
fn the_nine_hostile_inputs_get_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let expect_bad_input = |args: &[&str], message: &str| {
        let out = zkaccel()
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    };
    // 1. --reduce on a long number: linear time, and the right residue (10^N - 1 mod p by
    // big integers).
    let digits = 1_000_000;
    let long = dir.path().join("long.txt");
    std::fs::write(&long, "9".repeat(digits)).unwrap();
    let out = zkaccel()
        .args(["field", "info", "--field", "bn254"])
        .output()
        .unwrap();
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p: num_bigint::BigUint = info["modulus"].as_str().unwrap().parse().unwrap();
    let residue = (num_bigint::BigUint::from(10u32).pow(digits as u32) - 1u32) % &p;
    let reduced = dir.path().join("reduced.txt");
    std::fs::write(&reduced, format!("{residue}\n")).unwrap();
    let hash = |file: &std::path::Path, reduce: bool| {
        let mut cmd = zkaccel();
        cmd.args(["mimc", "hash", "--preset", "circomlib", "--file"])
            .arg(file);
        if reduce {
            cmd.arg("--reduce");
        }
        let out = cmd
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    assert_eq!(hash(&long, true), hash(&reduced, false));
    // 2. A huge neptune arity, in hash, build and verify: no t x t matrix is built.
    expect_bad_input(
        &[
            "poseidon",
            "hash",
            "--preset",
            "neptune",
            "--arity",
            "1000000000",
            "1",
        ],
        "arity 1000000000 is over the limit",
    );
    expect_bad_input(
        &[
            "merkle",
            "build",
            "--preset",
            "neptune",
            "--arity",
            "1000000000",
            "--leaves",
            "4",
            "--leaf-width",
            "1",
        ],
        "over the limit",
    );
    let commitment = dir.path().join("c.json");
    std::fs::write(
        &commitment,
        r#"{"format":"zkaccel-merkle-commitment","version":1,"preset":"neptune","field":"BLS12-381 Fr","arity":1000000000,"num_leaves":4,"leaf_width":1,"cap_height":0,"cap":[["1"]]}"#,
    )
    .unwrap();
    let opening = dir.path().join("o.json");
    std::fs::write(&opening, r#"{"leaves":[["1"]],"proof":""}"#).unwrap();
    expect_bad_input(
        &[
            "merkle",
            "verify",
            "--opening",
            opening.to_str().unwrap(),
            "--commitment",
            commitment.to_str().unwrap(),
        ],
        "no valid arity",
    );
    // 3. poseidon params --width 100000, --full-rounds 2000 (was silently truncated).
    expect_bad_input(
        &[
            "poseidon", "params", "--field", "bn254", "--width", "100000",
        ],
        "width 100000 is over the limit of 64",
    );
    expect_bad_input(
        &[
            "poseidon",
            "params",
            "--field",
            "bn254",
            "--width",
            "3",
            "--full-rounds",
            "2000",
            "--partial-rounds",
            "57",
        ],
        "full rounds 2000 is over the limit",
    );
    // 4. ntt --random 32: 32 GiB of Goldilocks, over the default budget, named.
    expect_bad_input(
        &["ntt", "--field", "goldilocks", "--random", "32"],
        "needs 32.0 GiB, over the memory budget of 4.0 GiB",
    );
    // 5. merkle build --subtree-leaves 2^64 - 1 (looped forever): now a whole-tree subtree.
    let out = zkaccel()
        .args([
            "merkle",
            "build",
            "--preset",
            "plonky2",
            "--leaves",
            "1024",
            "--leaf-width",
            "2",
            "--subtree-leaves",
            "18446744073709551615",
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success());
    // 6. --leaf-width 2^61 (capacity overflow).
    expect_bad_input(
        &[
            "merkle",
            "build",
            "--preset",
            "plonky2",
            "--leaves",
            "4",
            "--leaf-width",
            "2305843009213693952",
        ],
        "a leaf row has 1 to 1048576 elements",
    );
    // 7. merkle open --leaves 2^40 (8 TiB in memory).
    expect_bad_input(
        &[
            "merkle",
            "open",
            "--preset",
            "plonky2",
            "--leaves",
            "1099511627776",
            "--leaf-width",
            "1",
            "--index",
            "0",
            "--output",
            "/dev/null",
        ],
        "over the memory budget",
    );
    // 8. An empty leaf row, in a leaf file and in an opening.
    let rows = dir.path().join("rows.txt");
    std::fs::write(&rows, ",\n,\n").unwrap();
    expect_bad_input(
        &[
            "merkle",
            "build",
            "--preset",
            "plonky2",
            "--input",
            rows.to_str().unwrap(),
        ],
        "leaf width 0",
    );
    // … and in a leaf file to open (the CLI fuzzer's find: it used to panic).
    expect_bad_input(
        &[
            "merkle",
            "open",
            "--preset",
            "circomlib",
            "--input",
            rows.to_str().unwrap(),
            "--index",
            "1",
            "--output",
            dir.path().join("never.json").to_str().unwrap(),
        ],
        "leaf width 0",
    );
    assert!(!dir.path().join("never.json").exists());
    let tree = dir.path().join("tree.json");
    let out = zkaccel()
        .args([
            "merkle",
            "build",
            "--preset",
            "neptune",
            "--leaves",
            "4",
            "--leaf-width",
            "1",
            "--commitment",
        ])
        .arg(&tree)
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = zkaccel()
        .args([
            "merkle",
            "open",
            "--preset",
            "neptune",
            "--leaves",
            "4",
            "--leaf-width",
            "1",
            "--index",
            "1",
            "--output",
        ])
        .arg(&opening)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut o: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&opening).unwrap()).unwrap();
    o["leaves"] = serde_json::json!([[]]);
    std::fs::write(&opening, o.to_string()).unwrap();
    let out = zkaccel()
        .args(["merkle", "verify", "--opening"])
        .arg(&opening)
        .arg("--commitment")
        .arg(&tree)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("has 0 elements"), "{err}");
}

#[test]
fn prove_and_verify_a_stark_with_distinct_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("fib.bin");
    let out = zkaccel()
        .args([
            "prove",
            "--air",
            "fibonacci",
            "--log-rows",
            "5",
            "--inputs",
            "2,7",
        ])
        .arg("--output")
        .arg(&proof)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // F_32 of the sequence seeded with 2, 7 (computed here, not by the prover).
    let (mut a, mut b) = (2u128, 7u128);
    for _ in 0..31 {
        (a, b) = (b, (a + b) % 0xffff_ffff_0000_0001);
    }
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains(&format!("[2, 7, {b}]")), "{stdout}");
    let verify = |extra: &[&str], path: &std::path::Path| {
        zkaccel()
            .arg("verify")
            .arg(path)
            .args(extra)
            .output()
            .unwrap()
    };
    let ok = verify(&[], &proof);
    assert!(ok.status.success(), "{ok:?}");
    let inputs = format!("2,7,{b}");
    assert!(verify(
        &["--air", "fibonacci", "--log-rows", "5", "--inputs", &inputs],
        &proof
    )
    .status
    .success());
    // Another statement than the proof's: rejected (1).
    for extra in [
        &["--log-rows", "6"][..],
        &["--air", "factorial"],
        &["--inputs", "2,7,1"],
    ] {
        assert_eq!(verify(extra, &proof).status.code(), Some(1), "{extra:?}");
    }
    // A flipped byte in the proof: rejected (1); a broken header or no file: bad input (2).
    let bytes = std::fs::read(&proof).unwrap();
    let write = |name: &str, b: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, b).unwrap();
        p
    };
    let mut flipped = bytes.clone();
    let last = flipped.len() - 20;
    flipped[last] ^= 1;
    assert_eq!(
        verify(&[], &write("flip.bin", &flipped)).status.code(),
        Some(1)
    );
    let mut body = bytes.clone();
    body[200] ^= 0x40;
    assert_eq!(
        verify(&[], &write("body.bin", &body)).status.code(),
        Some(1)
    );
    // A proof file that is not a proof's encoding does not verify (exit 1, as a malformed
    // Merkle opening): a header cut short, or claiming 2^200 rows, zero queries, an unknown
    // AIR — refused quickly, before the body is read.
    assert_eq!(
        verify(&[], &write("head.bin", &bytes[..12])).status.code(),
        Some(1)
    );
    for (name, at, value) in [
        ("rows.bin", 19, 200u8),
        ("queries.bin", 29, 0),
        ("air.bin", 10, b'x'),
    ] {
        let mut forged = bytes.clone();
        forged[at] = value;
        if name == "queries.bin" {
            forged[30] = 0;
        }
        assert_eq!(
            verify(&[], &write(name, &forged)).status.code(),
            Some(1),
            "{name}"
        );
    }
    // A file that cannot be read is bad input.
    assert_eq!(
        verify(&[], &dir.path().join("missing.bin")).status.code(),
        Some(2)
    );
    // Hostile arguments: bad input (2), nothing written.
    for args in [
        &["--log-rows", "64"][..],
        &["--log-rows", "0"],
        &["--queries", "0", "--log-rows", "4"],
        &["--rate-bits", "9", "--log-rows", "4"],
        &["--inputs", "1,2,3", "--log-rows", "4"],
        &["--inputs", "18446744073709551616,1", "--log-rows", "4"],
    ] {
        let target = dir.path().join("never.bin");
        let out = zkaccel()
            .args(["prove", "--air", "fibonacci"])
            .args(args)
            .arg("--output")
            .arg(&target)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!target.exists());
    }
    // The starky-compatible encoding: the proof alone, verified with the statement given.
    let raw = dir.path().join("raw.bin");
    assert!(zkaccel()
        .args([
            "prove",
            "--air",
            "factorial",
            "--log-rows",
            "4",
            "--encoding",
            "plonky2"
        ])
        .arg("--output")
        .arg(&raw)
        .output()
        .unwrap()
        .status
        .success());
    let args = [
        "--encoding",
        "plonky2",
        "--air",
        "factorial",
        "--log-rows",
        "4",
    ];
    assert!(verify(&args, &raw).status.success());
    assert_eq!(
        verify(&["--encoding", "plonky2"], &raw).status.code(),
        Some(2)
    );
}

#[test]
fn prove_writes_a_valid_kernel_trace_and_prints_the_breakdown() {
    let dir = tempfile::tempdir().unwrap();
    let (proof, trace) = (dir.path().join("p.bin"), dir.path().join("t.jsonl"));
    let out = zkaccel()
        .args([
            "prove",
            "--air",
            "factorial",
            "--log-rows",
            "6",
            "--breakdown",
        ])
        .arg("--output")
        .arg(&proof)
        .arg("--trace")
        .arg(&trace)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    for class in [
        "polynomial",
        "NTT",
        "Merkle tree",
        "other hash",
        "layout transform",
    ] {
        assert!(stdout.contains(class), "{class}: {stdout}");
    }
    assert!(stdout.contains("quotient-commit"), "{stdout}");
    let records =
        zkaccel_kernel_trace::read_jsonl(std::fs::read(&trace).unwrap().as_slice()).unwrap();
    // Factorial 2^6 at rate 3: the trace's interpolation is the first NTT, 2 columns of 2^6.
    let first_ntt = records.iter().find(|r| r.kernel.kind() == "ntt").unwrap();
    assert!(matches!(
        first_ntt.kernel,
        zkaccel_kernel_trace::Kernel::Ntt {
            log_n: 6,
            batch: 2,
            inverse: true,
            ..
        }
    ));
    assert!(zkaccel()
        .arg("verify")
        .arg(&proof)
        .output()
        .unwrap()
        .status
        .success());

    // A trace that cannot be written is an error (and no half-written file).
    let nowhere = dir.path().join("missing-dir").join("t.jsonl");
    let out = zkaccel()
        .args(["prove", "--air", "fibonacci", "--log-rows", "4"])
        .arg("--output")
        .arg(dir.path().join("q.bin"))
        .arg("--trace")
        .arg(&nowhere)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{out:?}");
    assert!(!nowhere.exists());
}

#[test]
fn mont_vectors_have_the_shape_the_rtl_bench_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = zkaccel()
        .args([
            "hw",
            "mont-vectors",
            "--width",
            "384",
            "--count",
            "5",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.path().join("mont_vectors_384.hex")).unwrap();
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    // Three moduli (BLS12-377 Fq, P-384, a random one), five products each.
    assert_eq!(lines.len(), 15);
    assert!(lines
        .iter()
        .all(|l| l.len() == 5 && l.iter().all(|w| w.len() == 96)));
    // BLS12-377's q, as its curve's documentation writes it.
    assert_eq!(
        lines[0][0],
        "01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001"
    );
    // P' = −p^{−1} mod 2^384, checked on its low word: p·P' ≡ −1 (mod 2^64).
    for l in &lines {
        let low = |w: &str| u64::from_str_radix(&w[80..], 16).unwrap();
        assert_eq!(low(l[0]).wrapping_mul(low(l[1])), u64::MAX, "{l:?}");
    }
    // The first product is 0·0.
    assert!(lines[0][4].bytes().all(|b| b == b'0'));
}

/// Checks the header the 256-bit Montgomery benches read — the modulus `p`, `P' = −p⁻¹ mod
/// 2^256` and the Montgomery one `2^256 mod p` — against big integers, and returns
/// `2^−256 mod p`, which takes a word out of Montgomery form.
fn check_montgomery_header(
    modulus: &str,
    p_prime: &str,
    one: &str,
    p: &num_bigint::BigUint,
) -> num_bigint::BigUint {
    use num_bigint::BigUint;
    let big = |l: &str| BigUint::parse_bytes(l.as_bytes(), 16).unwrap();
    let two256 = BigUint::from(1u8) << 256u32;
    assert_eq!(&big(modulus), p, "modulus");
    assert_eq!(
        (big(p_prime) * p + 1u8) % &two256,
        BigUint::from(0u8),
        "P' · p ≡ −1 (mod 2^256)"
    );
    let r = &two256 % p;
    assert_eq!(big(one), r, "Montgomery one");
    r.modpow(&(p - 2u8), p)
}

/// The NTT core's vectors, checked with big integers: the header, R mod p as ω^0, ω of order 4
/// (ω² = −1), and a 4-point transform's first two outputs in bit-reversed order (frequency 0:
/// the sum; frequency 2: the alternating sum) — in Montgomery form, which addition keeps.
#[test]
fn ntt_vectors_are_a_transform_in_montgomery_form() {
    use num_bigint::BigUint;
    let dir = tempfile::tempdir().unwrap();
    let out = zkaccel()
        .args([
            "hw",
            "ntt-vectors",
            "--field",
            "bn254-fr",
            "--log-points",
            "2",
            "--subtasks",
            "3",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.path().join("ntt_vectors_bn254-fr_2.hex")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "256 2 3");
    // Modulus, P', 2 twiddles, 3·4 inputs, 3·4 outputs.
    assert_eq!(lines.len(), 1 + 2 + 2 + 12 + 12);
    assert!(lines[1..].iter().all(|l| l.len() == 64));
    let big = |l: &str| BigUint::parse_bytes(l.as_bytes(), 16).unwrap();
    let p = big(lines[1]);
    // BN254's r, as EIP-196 writes it in decimal.
    assert_eq!(
        p.to_string(),
        "21888242871839275222246405745257275088548364400416034343698204186575808495617"
    );
    // ω^0 is 1 in Montgomery form.
    let r_inv = check_montgomery_header(lines[1], lines[2], lines[3], &p);
    let r = (BigUint::from(1u8) << 256u32) % &p;
    let omega = big(lines[4]);
    assert_eq!(&omega * &omega * &r_inv % &p, &p - &r, "ω² = −1");
    for task in 0..3 {
        let x: Vec<BigUint> = (0..4).map(|i| big(lines[5 + 4 * task + i])).collect();
        let y: Vec<BigUint> = (0..4).map(|i| big(lines[17 + 4 * task + i])).collect();
        let sum = x.iter().fold(BigUint::from(0u8), |a, b| (a + b) % &p);
        assert_eq!(y[0], sum, "sub-task {task}: frequency 0");
        let alternating = (&x[0] + &x[2] + &p + &p - &x[1] - &x[3]) % &p;
        assert_eq!(
            y[1], alternating,
            "sub-task {task}: frequency 2 (bit-reversed index 1)"
        );
    }
}

/// The AcclMT engine's vectors for circomlib t = 3, checked with big integers against
/// `hw acclmt-sbox-vectors` against big integers, not the field code that wrote them: the
/// header, the modulus (BLS12-381's r and circomlibjs's BN254 p), P', Montgomery one, then
/// every `x y` pair out of Montgomery form with `y = x^α mod p` (0, 1, p − 1 first), for each
/// exponent — x³ included, a permutation of neither field. An exponent the S-box does not take
/// is refused.
#[test]
fn acclmt_sbox_vectors_are_powers_in_montgomery_form() {
    use num_bigint::BigUint;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sbox.hex");
    let dec =
        |v: &serde_json::Value| BigUint::parse_bytes(v.as_str().unwrap().as_bytes(), 10).unwrap();
    let bn254 = dec(&poseidon_vectors()["circomlibjs_bn254"]["params"]["p"]);
    let bls12_381 = BigUint::parse_bytes(
        b"73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
        16,
    )
    .unwrap();
    let big = |l: &str| BigUint::parse_bytes(l.as_bytes(), 16).unwrap();
    for (field, p) in [("bls12-381", &bls12_381), ("bn254", &bn254)] {
        for alpha in [3u32, 5, 7] {
            let out = zkaccel()
                .args([
                    "hw",
                    "acclmt-sbox-vectors",
                    "--field",
                    field,
                    "--count",
                    "6",
                ])
                .args(["--alpha", &alpha.to_string(), "--out"])
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], format!("256 {alpha} 6"));
            assert_eq!(lines.len(), 1 + 3 + 6);
            let r_inv = check_montgomery_header(lines[1], lines[2], lines[3], p);
            let plain = |l: &str| big(l) * &r_inv % p;
            let pairs: Vec<(BigUint, BigUint)> = lines[4..]
                .iter()
                .map(|l| {
                    let (x, y) = l.split_once(' ').unwrap();
                    assert!(x.len() == 64 && y.len() == 64);
                    (plain(x), plain(y))
                })
                .collect();
            let edges = [BigUint::from(0u8), BigUint::from(1u8), p - 1u8];
            for (i, (x, y)) in pairs.iter().enumerate() {
                if i < 3 {
                    assert_eq!(x, &edges[i], "{field} x^{alpha}: edge input {i}");
                }
                assert_eq!(
                    y,
                    &x.modpow(&BigUint::from(alpha), p),
                    "{field} x^{alpha}: input {i}"
                );
            }
        }
    }
    let refused = zkaccel()
        .args(["hw", "acclmt-sbox-vectors", "--alpha", "4", "--out"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "alpha 4");
}

/// circomlibjs's published constants and hash (vectors/poseidon.json): the header, P', one,
/// the configuration's layout (the uniform rounds' constants at 0x1000 + 16·r + lane, the
/// blocks at 0x2000 + 16·n + 3·i + j), the first block (the dense MDS matrix: one beat at
/// t = 3) and round 0's constants (unchanged by the sparse form) out of Montgomery form, and the
/// permutation of [0, 1, 2] (the 4th state), whose lane 0 is circomlibjs's poseidon([1, 2]).
#[test]
fn acclmt_vectors_are_circomlibs_poseidon_in_montgomery_form() {
    use num_bigint::BigUint;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("acclmt.hex");
    let out = zkaccel()
        .args([
            "hw",
            "acclmt-vectors",
            "--preset",
            "circomlib",
            "--count",
            "5",
            "--out",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "256 3 5 8 57 5");
    // 65 rounds of 3 constants; blocks: M, D·M and one per partial round (57), 9 entries each.
    let words = 65 * 3 + (2 + 57) * 9;
    assert_eq!(lines[4], words.to_string());
    // Modulus, P', one, the count, the words, 5 × (3 in + 3 out).
    assert_eq!(lines.len(), 1 + 3 + 1 + words + 5 * 6);
    let config: std::collections::HashMap<u32, &str> = lines[5..5 + words]
        .iter()
        .map(|l| {
            let (a, w) = l.split_once(' ').unwrap();
            (a.parse().unwrap(), w)
        })
        .collect();
    assert_eq!(config.len(), words, "distinct addresses");
    for r in 0..65u32 {
        for lane in 0..3 {
            assert!(
                config.contains_key(&(0x1000 + 16 * r + lane)),
                "c_{r}[{lane}]"
            );
        }
    }
    for n in 0..59u32 {
        for e in 0..9 {
            assert!(
                config.contains_key(&(0x2000 + 16 * n + e)),
                "block {n} entry {e}"
            );
        }
    }
    assert!(lines[1..4]
        .iter()
        .chain(config.values())
        .chain(&lines[5 + words..])
        .all(|l| l.len() == 64));
    let big = |l: &str| BigUint::parse_bytes(l.as_bytes(), 16).unwrap();
    let dec =
        |v: &serde_json::Value| BigUint::parse_bytes(v.as_str().unwrap().as_bytes(), 10).unwrap();
    let v = poseidon_vectors();
    let c = &v["circomlibjs_bn254"];
    let p = dec(&c["params"]["p"]);
    let r_inv = check_montgomery_header(lines[1], lines[2], lines[3], &p);
    let plain = |l: &str| big(l) * &r_inv % &p;
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(
                plain(config[&(0x2000 + 3 * i + j)]),
                dec(&c["t3_mds"][i as usize][j as usize]),
                "M[{i}][{j}]"
            );
        }
    }
    for (k, rc) in c["t3_first_round_constants"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .enumerate()
    {
        assert_eq!(plain(config[&(0x1000 + k as u32)]), dec(rc), "c_0[{k}]");
    }
    let states = 5 + words;
    let ramp = &lines[states + 3 * 6..states + 4 * 6];
    for (lane, want) in ramp[..3].iter().zip([0u8, 1, 2]) {
        assert_eq!(plain(lane), BigUint::from(want));
    }
    let case = c["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|case| case["t"] == 3)
        .unwrap();
    assert_eq!(plain(ramp[3]), dec(&case["output"]), "poseidon([1, 2])");
}

/// The vector writer refuses instances the engine cannot run or the field cannot take, with a
/// message and nothing written: x^3 over BLS12-381 Fr and BN254 Fr (3 divides p − 1), a field
/// that contradicts the preset, custom rounds on a fixed preset, half a round pair, a file
/// too large to build in memory.
#[test]
fn acclmt_vectors_refuse_impossible_instances() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("acclmt.hex");
    let cases: [&[&str]; 7] = [
        &["--preset", "reference", "--alpha", "3"],
        // 10^6 permutations of width 12: 1.6 GB of text; refused before anything is computed.
        &["--arity", "11", "--count", "1000000"],
        &["--preset", "reference", "--field", "bn254", "--alpha", "3"],
        &["--preset", "neptune", "--field", "bn254"],
        &[
            "--preset",
            "circomlib",
            "--partial-rounds",
            "60",
            "--full-rounds",
            "8",
        ],
        &["--preset", "reference", "--full-rounds", "8"],
        &["--preset", "reference", "--alpha", "4"],
    ];
    for args in cases {
        let out = zkaccel()
            .args(["hw", "acclmt-vectors", "--out"])
            .arg(&path)
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "accepted {args:?}");
        assert!(!out.stderr.is_empty(), "no message for {args:?}");
        assert!(!path.exists(), "{args:?} wrote a file");
    }
}

/// The Merkle controller's trees: the header, the tag out of Montgomery form (neptune's
/// 2^arity − 1 = 3, circomlib's 0), and the root recomputed pair by pair with the single-hash
/// API (not the tree builder that wrote it), for both presets.
#[test]
fn acclmt_tree_vectors_hold_the_trees_root() {
    use num_bigint::BigUint;
    use zkaccel_field::PrimeField;
    use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};
    type Bls = zkaccel_bls12_381::Fr;
    type Bn = zkaccel_bn254::Fr;

    /// The lines' elements out of Montgomery form, as limbs.
    fn plain(lines: &[&str], p: &BigUint) -> Vec<Vec<u64>> {
        let r_inv = (BigUint::from(1u8) << 256u32).modpow(&(p - 2u8), p);
        lines
            .iter()
            .map(|l| (BigUint::parse_bytes(l.as_bytes(), 16).unwrap() * &r_inv % p).to_u64_digits())
            .collect()
    }
    fn root<F: PrimeField>(mut level: Vec<F>, arity: usize, hash: impl Fn(&[F]) -> F) -> F {
        while level.len() > 1 {
            level = level.chunks(arity).map(&hash).collect();
        }
        level[0]
    }

    let dir = tempfile::tempdir().unwrap();
    // (preset, arity, the size's flag and value, depth, header, tag, R_P): a tree of
    // arity^depth leaves, each `arity` elements; `--log-leaves` (log2 of the leaves) converts
    // to the depth for a power-of-two arity.
    for (preset, arity, flag, value, depth, header, tag, partial) in [
        (
            "neptune",
            2usize,
            "--log-leaves",
            3u32,
            3u32,
            "256 3 5 8 55 3 1",
            3u64,
            55usize,
        ),
        ("circomlib", 2, "--depth", 3, 3, "256 3 5 8 57 3 0", 0, 57),
        (
            "neptune",
            4,
            "--log-leaves",
            2,
            1,
            "256 5 5 8 56 1 1",
            15,
            56,
        ),
        ("circomlib", 4, "--depth", 2, 2, "256 5 5 8 60 2 0", 0, 60),
        (
            "neptune",
            8,
            "--log-leaves",
            3,
            1,
            "256 9 5 8 57 1 1",
            255,
            57,
        ),
        ("neptune", 3, "--depth", 3, 3, "256 4 5 8 56 3 1", 7, 56),
        ("circomlib", 3, "--depth", 2, 2, "256 4 5 8 56 2 0", 0, 56),
        (
            "neptune",
            11,
            "--depth",
            2,
            2,
            "256 12 5 8 57 2 1",
            2047,
            57,
        ),
    ] {
        let path = dir.path().join(format!("{preset}-{arity}.hex"));
        let out = zkaccel()
            .args([
                "hw",
                "acclmt-tree-vectors",
                "--preset",
                preset,
                "--arity",
                &arity.to_string(),
                flag,
                &value.to_string(),
                "--out",
            ])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], header);
        // Round constants (t per round), then 3 × 3 tiles: 2k² dense, ⌈(t − 1)/2⌉ per partial
        // round (k = ⌈t/3⌉).
        let t = arity + 1;
        let k = t.div_ceil(3);
        let words = t * (8 + partial) + 9 * (2 * k * k + partial * (t / 2));
        assert_eq!(lines[4], words.to_string());
        let tag_line = 1 + 3 + 1 + words;
        // Tag, arity^(depth + 1) elements, root.
        let elements = arity.pow(depth + 1);
        assert_eq!(lines.len(), tag_line + 1 + elements + 1);
        let p = BigUint::parse_bytes(lines[1].as_bytes(), 16).unwrap();
        let values = plain(&lines[tag_line..], &p);
        assert_eq!(
            values[0],
            if tag == 0 { vec![] } else { vec![tag] },
            "{preset} tag"
        );
        let (leaves, got) = (&values[1..=elements], &values[elements + 1]);
        if preset == "neptune" {
            let node = NeptunePoseidon::<Bls>::new(arity, Strength::Standard).unwrap();
            let leaves = leaves.iter().map(|l| Bls::from_limbs_reduced(l)).collect();
            let want = root(leaves, arity, |kids| node.hash(kids).unwrap());
            assert_eq!(
                Bls::from_limbs_reduced(got),
                want,
                "neptune arity {arity} root"
            );
        } else {
            let node = CircomPoseidon::get(t).unwrap();
            let leaves = leaves.iter().map(|l| Bn::from_limbs_reduced(l)).collect();
            let want = root(leaves, arity, |kids| node.hash(kids).unwrap());
            assert_eq!(
                Bn::from_limbs_reduced(got),
                want,
                "circomlib arity {arity} root"
            );
        }
    }
    // Trees the file format does not hold.
    for flag in ["--log-leaves", "--depth"] {
        for log in ["0", "19", "-1", "x"] {
            let out = zkaccel()
                .args(["hw", "acclmt-tree-vectors", flag, log, "--out"])
                .arg(dir.path().join("refused.hex"))
                .output()
                .unwrap();
            assert!(!out.status.success(), "accepted {flag} {log}");
            assert!(!dir.path().join("refused.hex").exists());
        }
    }
    // Log2 sizes that are no power of the arity, arities the engines do not take, files of
    // more than 2^19 elements (8^7, 11^6, 3^12), and no size or two.
    for args in [
        &["--arity", "4", "--log-leaves", "3"][..],
        &["--arity", "8", "--log-leaves", "4"],
        &["--arity", "3", "--log-leaves", "4"],
        &["--arity", "16", "--depth", "1"],
        &["--arity", "1", "--depth", "4"],
        &["--arity", "12", "--depth", "1"],
        &["--arity", "8", "--log-leaves", "18"],
        &["--arity", "11", "--depth", "5"],
        &["--arity", "3", "--depth", "11"],
        &["--arity", "2"],
        &["--depth", "3", "--log-leaves", "3"],
    ] {
        let out = zkaccel()
            .args(["hw", "acclmt-tree-vectors"])
            .args(args)
            .arg("--out")
            .arg(dir.path().join("refused.hex"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "no message for {args:?}");
        assert!(!dir.path().join("refused.hex").exists());
    }
}

#[test]
fn the_acclmt_model_prints_table_i_and_one_run() {
    let out = zkaccel()
        .args(["model", "acclmt", "tables"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("schedule = RTL"))
            .count(),
        1
    );
    assert_eq!(text.lines().filter(|l| l.contains("calibrated")).count(), 3);
    assert!(text.contains("time loss"));
    let out = zkaccel()
        .args([
            "model",
            "acclmt",
            "run",
            "--hashes",
            "320",
            "--partial-rounds",
            "56",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    // hw/acclmt/run.sh's RTL count for R_F 8, R_P 56 (table1-rp56, two-batch).
    assert!(String::from_utf8_lossy(&out.stdout).contains("cycles=11372"));
    // The wide-state RTL's count for neptune's arity 11 (t = 12, R_P 57), 200 hashes.
    let out = zkaccel()
        .args(["model", "acclmt", "run", "--hashes", "200", "--width", "12"])
        .args(["--partial-rounds", "57"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("cycles=62516"));
    let out = zkaccel()
        .args(["model", "acclmt", "run", "--hashes", "64", "--width", "13"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "t = 13 is bad input");
    let out = zkaccel()
        .args(["model", "acclmt", "run", "--hashes", "64", "--batch", "24"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a bad configuration is bad input"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("batch = 24"));
}

#[test]
fn the_acclmt_model_prints_table_ii_and_one_tree() {
    let out = zkaccel()
        .args(["model", "acclmt", "tables", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["table_ii"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["leaves"].as_u64(), Some(1 << (12 + i)));
        let error = row["error_percent"].as_f64().unwrap();
        assert!(error.abs() <= 2.0, "row {i}: {row}");
    }
    let text = |args: &[&str]| {
        let out = zkaccel().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let cycles = |t: &str| -> u64 {
        t.lines()
            .find_map(|l| l.strip_prefix("cycles="))
            .unwrap()
            .parse()
            .unwrap()
    };
    let merged = text(&["model", "acclmt", "run", "--leaves", "16384"]);
    let alone = text(&["model", "acclmt", "run", "--leaves", "16384", "--no-merger"]);
    assert!(merged.contains("utilisation_active lhe="));
    assert!(merged.contains("utilisation_occupied lhe="));
    assert!(cycles(&merged) < cycles(&alone), "{merged}\n{alone}");
    // Table II's 2^14 row, 1.83 ms at 500 MHz, within 2 %.
    assert!((cycles(&merged) as f64 / 915_000.0 - 1.0).abs() < 0.02);
    // An arity-4 tree of as many leaves: its leaves' hashes (t = 5) bind.
    let wide = text(&[
        "model", "acclmt", "run", "--leaves", "16384", "--width", "5",
    ]);
    assert!(
        wide.contains("arity=4 subtree_leaves=4096 level0_subtrees=64 level1_entries=16"),
        "{wide}"
    );
    assert!(cycles(&wide) > 2 * cycles(&merged), "{wide}");
    // The paper's overheads: the same row within 2 %, the LHE held back (occupied 100 %).
    let paper = text(&[
        "model",
        "acclmt",
        "run",
        "--leaves",
        "16384",
        "--paper-overheads",
    ]);
    assert!(
        (cycles(&paper) as f64 / 915_000.0 - 1.0).abs() < 0.02,
        "{paper}"
    );
    assert!(paper.contains("utilisation_occupied lhe=1.0000"), "{paper}");
    let tables = text(&["model", "acclmt", "tables", "--paper-overheads"]);
    assert!(tables.contains("loader 19.2 GB/s"), "{tables}");
    // The cycle-exact model on the small RTL controller (256-leaf subtrees, a 16-node scratch
    // pad, Level 0 and Level 1 of 4), neptune 2^10 at the bench's pace: Verilator's 75,111
    // cycles would be circomlib's (R_P 57); the model must give exactly the RTL's count, and
    // the JSON form the same.
    let small = [
        "model",
        "acclmt",
        "run",
        "--leaves",
        "1024",
        "--partial-rounds",
        "57",
        "--subtree-leaves",
        "256",
        "--scratch-pad-nodes",
        "16",
        "--level0-subtrees",
        "4",
        "--level1-entries",
        "4",
        "--cycle-exact",
        "--bytes-per-cycle",
        "1.74",
    ];
    let exact = text(&small);
    assert_eq!(cycles(&exact), 75_111, "{exact}");
    assert!(exact.contains("hashes lhe=1024 rhe=1023"), "{exact}");
    let json: serde_json::Value =
        serde_json::from_str(&text(&[&small[..], &["--json"]].concat())).unwrap();
    assert_eq!(json["run"]["cycles"], 75_111);
    // A trace with a neptune tree and a Goldilocks one: one modelled, one listed.
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trees.jsonl");
    let record = |id: u32, hash: &str| {
        format!(
            r#"{{"version":1,"id":{id},"deps":[],"phase":"commit","kind":"merkle","hash":"{hash}","log_leaves":14,"leaf_width":2,"cap_height":0,"arity":2,"leaf_layout":"rows"}}"#
        )
    };
    std::fs::write(
        &trace,
        format!(
            "{}\n{}\n",
            record(0, "poseidon-bls12-381-3"),
            record(1, "poseidon-goldilocks-12")
        ),
    )
    .unwrap();
    let replayed = text(&[
        "model",
        "acclmt",
        "replay",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(
        replayed.contains("total: 1 Merkle record(s)") && replayed.contains("not modelled: 1"),
        "{replayed}"
    );
    // A sweep writes its CSV and plots; an unknown knob writes nothing.
    let out = dir.path().join("sweeps");
    let swept = text(&[
        "model",
        "acclmt",
        "sweep",
        "--leaves",
        "8192",
        "--param",
        "bandwidth_gbps=0.5,19.2",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(
        swept.contains("bandwidth_gbps (base: 8192 leaves)"),
        "{swept}"
    );
    let csv = std::fs::read_to_string(out.join("acclmt-sweep-bandwidth_gbps.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    assert!(out.join("acclmt-sweep-bandwidth_gbps.png").exists());
    let nowhere = dir.path().join("nothing");
    let refused = zkaccel()
        .args([
            "model",
            "acclmt",
            "sweep",
            "--param",
            "colour=red",
            "--output",
        ])
        .arg(&nowhere)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(!nowhere.exists());
    // Hostile values of the overhead knobs: refused, nothing written.
    for knob in [
        "initial_load_ns=nan,-1",
        "initial_load_ns=inf",
        "initial_load_ns=1e308",
        "rhe_dispatch_cycles=18446744073709551615",
        "rhe_dispatch_cycles=-3",
    ] {
        let refused = zkaccel()
            .args([
                "model", "acclmt", "sweep", "--leaves", "4096", "--param", knob, "--output",
            ])
            .arg(&nowhere)
            .output()
            .unwrap();
        assert_eq!(refused.status.code(), Some(2), "{knob}");
        assert!(!nowhere.exists(), "{knob}");
    }
    // The largest overheads allowed run in bounded time.
    let slowest = text(&[
        "model",
        "acclmt",
        "run",
        "--leaves",
        "4096",
        "--initial-load-ns",
        "1e9",
        "--rhe-dispatch-cycles",
        "1048576",
    ]);
    assert!(cycles(&slowest) > 500_000_000, "{slowest}");
    for bad in [
        &["model", "acclmt", "run", "--leaves", "12288"][..],
        &["model", "acclmt", "run", "--leaves", "16777216"],
        &["model", "acclmt", "tables", "--bandwidth-gbps", "0"],
        // The overheads: out of range, or given twice (the preset and a value).
        &["model", "acclmt", "tables", "--initial-load-ns", "-1"],
        &["model", "acclmt", "tables", "--initial-load-ns", "nan"],
        &[
            "model",
            "acclmt",
            "tables",
            "--rhe-dispatch-cycles",
            "18446744073709551615",
        ],
        &[
            "model",
            "acclmt",
            "tables",
            "--paper-overheads",
            "--bandwidth-gbps",
            "1",
        ],
        &[
            "model",
            "acclmt",
            "run",
            "--paper-overheads",
            "--leaves",
            "4096",
            "--cycle-exact",
        ],
        &[
            "model",
            "acclmt",
            "run",
            "--rhe-dispatch-cycles",
            "5",
            "--leaves",
            "4096",
            "--cycle-exact",
        ],
        &["model", "acclmt", "tables", "--subtree-leaves", "100"],
        &[
            "model", "acclmt", "run", "--leaves", "4096", "--hashes", "64",
        ],
        &["model", "acclmt", "run", "--leaves", "8192", "--width", "5"],
        &[
            "model", "acclmt", "run", "--leaves", "14641", "--width", "13",
        ],
        &["model", "acclmt", "run", "--leaves", "4096", "--width", "2"],
        // The cycle-exact model: no tree, sizes it does not build (near 2^64 too).
        &["model", "acclmt", "run", "--cycle-exact"],
        &["model", "acclmt", "run", "--hashes", "64", "--cycle-exact"],
        &[
            "model",
            "acclmt",
            "run",
            "--leaves",
            "2048",
            "--cycle-exact",
        ],
        &[
            "model",
            "acclmt",
            "run",
            "--leaves",
            "12288",
            "--cycle-exact",
        ],
        &[
            "model",
            "acclmt",
            "run",
            "--leaves",
            "16777216",
            "--cycle-exact",
        ],
        &[
            "model",
            "acclmt",
            "run",
            "--leaves",
            "18446744073709551615",
            "--cycle-exact",
        ],
        &[
            "model",
            "acclmt",
            "run",
            "--leaves",
            "9",
            "--width",
            "4",
            "--cycle-exact",
        ],
        &[
            "model",
            "acclmt",
            "run",
            "--leaves",
            "4096",
            "--bytes-per-cycle",
            "1",
        ],
    ] {
        let out = zkaccel().args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
    // Hostile paces, and one slow enough to run for hours: refused before the run starts.
    for (leaves, pace) in [
        ("4096", "nan"),
        ("4096", "0"),
        ("4096", "-1"),
        ("4096", "1e300"),
        ("8388608", "0.01"),
    ] {
        let out = zkaccel()
            .args([
                "model",
                "acclmt",
                "run",
                "--leaves",
                leaves,
                "--cycle-exact",
            ])
            .args(["--bytes-per-cycle", pace])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{leaves} leaves at {pace}");
    }
}

#[test]
fn the_ntt_fpga_model_prints_table_iii_and_one_configuration() {
    let out = zkaccel()
        .args(["model", "ntt-fpga", "tables"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().filter(|l| l.contains(" rounds & ")).count(),
        5,
        "{text}"
    );
    assert!(text.contains("39094"), "{text}");
    let out = zkaccel()
        .args([
            "model",
            "ntt-fpga",
            "run",
            "--log-points",
            "3",
            "--pipelines",
            "3",
        ])
        .args(["--mul-latency", "0", "--points", "400", "--core", "pipezk"])
        .output()
        .unwrap();
    assert!(out.status.success());
    // Measured on the RTL (hw/ntt/run.sh runs this configuration).
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "cycles=799");
    let bad = zkaccel()
        .args([
            "model",
            "ntt-fpga",
            "run",
            "--log-points",
            "3",
            "--points",
            "100",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("multiple of the sub-task size"));
}

/// `zkaccel ntt --trace` writes one `ntt` record with its time; `zkaccel model ntt-fpga --trace`
/// replays it at Table V's latency (2^12 BLS12-381 Fr points: 3.984 ms in the paper, the
/// model within 5 %) beside the CPU's, and lists a Goldilocks record as not modelled.
#[test]
fn ntt_traces_replay_on_the_ntt_fpga_model() {
    let dir = tempfile::tempdir().unwrap();
    let run = |field: &str, name: &str| {
        let path = dir.path().join(name);
        let out = zkaccel()
            .args([
                "ntt", "--field", field, "--random", "12", "--coset", "--order", "nr",
            ])
            .arg("--trace")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        path
    };
    let bls = run("bls12-381", "bls.jsonl");
    let text = std::fs::read_to_string(&bls).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    for needle in [
        r#""kind":"ntt""#,
        r#""field":"bls12-381""#,
        r#""log_n":12"#,
        r#""coset":true"#,
        r#""order":"nr""#,
        r#""wall_ns":"#,
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    let out = zkaccel()
        .args(["model", "ntt-fpga", "replay", "--json", "--trace"])
        .arg(&bls)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &report["rows"][0];
    let scaler_ms = 4096.0 * 19.0 / 68e3;
    let model_ms = row["model_ms"].as_f64().unwrap();
    assert!(
        ((model_ms - scaler_ms) / 3.984 - 1.0).abs() < 0.05,
        "{report}"
    );
    assert!(row["cpu_ms"].as_f64().unwrap() > 0.0);
    let goldilocks = run("goldilocks", "g.jsonl");
    let out = zkaccel()
        .args(["model", "ntt-fpga", "replay", "--core", "pipezk", "--trace"])
        .arg(&goldilocks)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("the PipeZK replica") && text.contains("not modelled: 1"),
        "{text}"
    );
    let bad = zkaccel()
        .args(["model", "ntt-fpga", "replay", "--trace"])
        .arg(dir.path().join("absent.jsonl"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let unknown = zkaccel()
        .args(["model", "ntt-fpga", "run", "--core", "gpu"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("ours, pipezk, pipelined"));
}

/// `zkaccel model ntt-fpga sweep` writes a CSV, an SVG and a PNG per knob; its CSV rows
/// carry the cycles the RTL measured (hw/ntt/run.sh) for those configurations.
#[test]
fn ntt_fpga_sweeps_write_csv_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = zkaccel()
        .args([
            "model",
            "ntt-fpga",
            "sweep",
            "--param",
            "pipelines=1,2",
            "--param",
            "core=ours,pipezk",
        ])
        .arg("--output")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.path().join("ntt-sweep-pipelines.csv")).unwrap();
    let cycles: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(8).unwrap())
        .collect();
    assert_eq!(cycles, ["41493", "22037"], "{csv}");
    let csv = std::fs::read_to_string(dir.path().join("ntt-sweep-core.csv")).unwrap();
    assert!(csv.lines().nth(2).unwrap().starts_with("pipezk,"), "{csv}");
    for ext in ["svg", "png"] {
        let plot = std::fs::read(dir.path().join(format!("ntt-sweep-core.{ext}"))).unwrap();
        assert!(plot.len() > 1000, "{ext}");
    }
    for bad in ["pipelines=", "colour=1", "pipelines=0"] {
        let out = zkaccel()
            .args(["model", "ntt-fpga", "sweep", "--param", bad])
            .arg("--output")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

/// The √N×√N vectors: the header, the shapes, and the transform's frequency 0 (the sum of the
/// input) and the scaling twiddles' first row (ω^0 = R mod p), checked with big integers.
#[test]
fn ntt_four_step_vectors_have_the_plan_the_bench_reads() {
    use num_bigint::BigUint;
    let dir = tempfile::tempdir().unwrap();
    let run = |log_n: &str| {
        zkaccel()
            .args([
                "hw",
                "ntt-four-step-vectors",
                "--field",
                "bls12-377-fq",
                "--log-n",
                log_n,
            ])
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let odd = run("5");
    assert!(!odd.status.success());
    assert!(String::from_utf8_lossy(&odd.stderr).contains("even"));
    let out = run("4");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text =
        std::fs::read_to_string(dir.path().join("ntt_four_step_bls12-377-fq_4.hex")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "384 4 2");
    // Modulus, P', 2 core twiddles, 16 scaling twiddles, 16 inputs, 16 outputs.
    assert_eq!(lines.len(), 1 + 2 + 2 + 16 + 16 + 16);
    assert!(lines[1..].iter().all(|l| l.len() == 96));
    let big = |l: &str| BigUint::parse_bytes(l.as_bytes(), 16).unwrap();
    let p = big(lines[1]);
    let r = (BigUint::from(1u8) << 384) % &p;
    assert_eq!(big(lines[3]), r);
    // Sub-task n2 = 0 scales by ω^0 everywhere; output t = 0 of every sub-task too.
    for t in 0..4 {
        assert_eq!(big(lines[5 + t]), r, "n2 = 0, t = {t}");
        assert_eq!(big(lines[5 + 4 * t]), r, "t = 0, n2 = {t}");
    }
    let input: Vec<BigUint> = (0..16).map(|i| big(lines[21 + i])).collect();
    let sum = input.iter().fold(BigUint::from(0u8), |a, b| (a + b) % &p);
    assert_eq!(big(lines[37]), sum, "X[0] is the sum");
}

/// Output into a closed pipe (`zkaccel … | head`) ends the process quietly, as other Unix
/// tools do: no panic message from `println!`.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_process_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("zkaccel"))
        .args(["model", "acclmt", "tables"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before the tables are printed.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.signal(), Some(13), "{:?}: {stderr}", out.status);
}

/// The `zkaccel model` spellings before the actions still work for one release: the same
/// output as the action's, a note on stderr naming the new spelling (none for the action).
#[test]
fn old_model_spellings_print_the_actions_output_and_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| zkaccel().args(["model"]).args(args).output().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (old_sweep, new_sweep) = (out("old"), out("new"));
    let pairs: [(Vec<&str>, Vec<&str>); 9] = [
        (
            vec!["amaze", "--design", "AMZ-1"],
            vec!["amaze", "tables", "--design", "AMZ-1"],
        ),
        (
            vec!["ntt-fpga", "--json"],
            vec!["ntt-fpga", "tables", "--json"],
        ),
        (
            vec![
                "ntt-fpga",
                "--log-points",
                "4",
                "--pipelines",
                "2",
                "--pipelined",
            ],
            vec![
                "ntt-fpga",
                "run",
                "--log-points",
                "4",
                "--pipelines",
                "2",
                "--core",
                "pipelined",
            ],
        ),
        (
            vec![
                "ntt-fpga",
                "--sweep",
                "pipelines=1,2",
                "--out",
                &old_sweep,
                "--json",
            ],
            vec![
                "ntt-fpga",
                "sweep",
                "--param",
                "pipelines=1,2",
                "--output",
                &new_sweep,
                "--json",
            ],
        ),
        (
            vec!["unizk", "--workload", "fibonacci"],
            vec!["unizk", "replay", "--workload", "fibonacci"],
        ),
        (
            vec!["acclmt", "--hashes", "100", "--baseline"],
            vec!["acclmt", "run", "--hashes", "100", "--baseline"],
        ),
        (
            vec!["acclmt", "--leaves", "4096", "--json"],
            vec!["acclmt", "run", "--leaves", "2^12", "--json"],
        ),
        (
            vec![
                "acclmt",
                "--leaves",
                "1024",
                "--cycle-exact",
                "--subtree-leaves",
                "256",
            ],
            vec![
                "acclmt",
                "run",
                "--leaves",
                "1<<10",
                "--cycle-exact",
                "--subtree-leaves",
                "256",
            ],
        ),
        (
            vec!["acclmt", "--no-merger", "--json"],
            vec!["acclmt", "tables", "--no-merger", "--json"],
        ),
    ];
    for (old, new) in &pairs {
        let (before, now) = (run(old), run(new));
        assert!(
            now.status.success(),
            "{new:?}: {}",
            String::from_utf8_lossy(&now.stderr)
        );
        assert_eq!(before.stdout, now.stdout, "{old:?} against {new:?}");
        let note = String::from_utf8_lossy(&before.stderr);
        assert!(
            note.contains("deprecated") && note.contains(new[1]),
            "{old:?}: {note}"
        );
        assert!(now.stderr.is_empty(), "{new:?}");
    }
    let csv =
        |d: &str| std::fs::read(std::path::Path::new(d).join("ntt-sweep-pipelines.csv")).unwrap();
    assert_eq!(csv(&old_sweep), csv(&new_sweep));
    // A bare paper runs its tables without a note; the old line's own refusals stay.
    let bare = run(&["amaze"]);
    assert!(bare.status.success() && bare.stderr.is_empty());
    assert_eq!(bare.stdout, run(&["amaze", "tables"]).stdout);
    for refused in [
        &["ntt-fpga", "--pipezk"][..],
        &["acclmt", "--sweep", "batch=16"],
    ] {
        assert_eq!(run(refused).status.code(), Some(2), "{refused:?}");
    }
    // The old flags are hidden from the paper's help, which lists the actions.
    let help = String::from_utf8_lossy(&run(&["acclmt", "--help"]).stdout).into_owned();
    assert!(help.contains("tables") && help.contains("sweep"), "{help}");
    assert!(!help.contains("--no-merger"), "{help}");
}

/// `--field` through the registry's parser: every hostile spelling is refused before anything
/// runs, with exit 2 and the accepted names listed; the 384-bit field, which the registry has
/// but these commands do not offer, is refused the same way.
#[test]
fn hostile_field_names_are_refused_with_the_accepted_ones() {
    let long = "g".repeat(100_000);
    for bad in [
        "",
        "Goldilocks",
        "goldilocks ",
        "bls12_381",
        "bls12-377-fq",
        "bn254\u{7f}",
        &long,
    ] {
        for args in [
            vec!["field", "info", "--field", bad],
            vec!["poseidon", "params", "--field", bad, "--width", "3"],
        ] {
            let out = zkaccel().args(&args).output().expect("the CLI runs");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:.60?}: {err}");
            assert!(
                err.contains("possible values: goldilocks, bn254, bls12-381"),
                "{args:.60?}: {err:.300}"
            );
        }
    }
    // The hardware vectors' aliases name the same field.
    let out = zkaccel()
        .args(["field", "info", "--field", "bn254-fr"])
        .output()
        .expect("the CLI runs");
    assert!(out.status.success());
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(info["name"], "BN254 Fr");
}
