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
        err.contains("operand 2") && err.contains(p) && err.contains("not canonical"),
        "{err}"
    );
    let out = zkaccel()
        .args(["field", "mul", "--field", "bn254", "12x", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("operand 1"));
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
