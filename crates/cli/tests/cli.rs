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
