//! `zkaccel model unizk` end to end, and the committed traces it is tested on still being what
//! the prover records.

use std::collections::BTreeSet;
use std::io::BufReader;

use assert_cmd::Command;
use zkaccel_kernel_trace::{read_jsonl, KernelRecord};

fn zkaccel() -> Command {
    Command::cargo_bin("zkaccel").expect("binary is built")
}

fn fixture(name: &str) -> String {
    format!(
        "{}/../hwmodel/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn read(path: &str) -> Vec<KernelRecord> {
    read_jsonl(BufReader::new(std::fs::File::open(path).unwrap())).unwrap()
}

#[test]
fn a_recorded_trace_is_replayed_in_both_modes_with_a_table_and_json() {
    let trace = fixture("starky-factorial-2e20.jsonl");
    for mode in ["paper", "unizk-sim"] {
        let out = zkaccel()
            .args([
                "model", "unizk", "replay", "--trace", &trace, "--mode", mode,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!("mode {mode}")), "{text}");
        for class in ["NTT", "polynomial", "hash", "layout", "total"] {
            assert!(
                text.lines().any(|l| l.starts_with(class)),
                "{class}: {text}"
            );
        }
    }
    let out = zkaccel()
        .args([
            "model", "unizk", "replay", "--trace", &trace, "--set", "vsas=64", "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["config"]["vsas"], 64);
    assert_eq!(
        json["kernels"].as_array().unwrap().len(),
        read(&trace).len()
    );
    assert!(json["ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_knobs_and_traces_exit_2_with_a_message() {
    let trace = fixture("starky-fibonacci-2e20.jsonl");
    // The recorded trace with its quotient's gathered rows forged: wider than their pitch, from
    // a matrix of other points, 2^64 rows.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(&trace).unwrap();
    let gathered =
        r#""gathers":[{"log_rows":21,"stride_log":1,"pitch_bytes":16,"bytes":9,"shift":0}"#;
    assert!(
        text.contains(gathered),
        "the fixture's quotient gathers rows"
    );
    let forged: Vec<String> = [
        r#""log_rows":21,"stride_log":1,"pitch_bytes":16,"bytes":17"#,
        r#""log_rows":22,"stride_log":1,"pitch_bytes":16,"bytes":9"#,
        r#""log_rows":64,"stride_log":44,"pitch_bytes":16,"bytes":9"#,
    ]
    .iter()
    .enumerate()
    .map(|(k, row)| {
        let path = dir.path().join(format!("forged-{k}.jsonl"));
        let bad = format!(r#""gathers":[{{{row},"shift":0}}"#);
        std::fs::write(&path, text.replacen(gathered, &bad, 1)).unwrap();
        path.to_str().unwrap().to_owned()
    })
    .collect();
    for path in &forged {
        let out = zkaccel()
            .args([
                "model",
                "unizk",
                "replay",
                "--mode",
                "unizk-sim",
                "--trace",
                path,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{path}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("gathered row"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for args in [
        vec!["--trace", trace.as_str(), "--set", "vsas=0"],
        vec!["--trace", trace.as_str(), "--set", "warp=9"],
        vec!["--trace", trace.as_str(), "--mode", "fast"],
        vec!["--trace", "/nonexistent/trace.jsonl"],
        vec!["--trace", "/dev/null"],
    ] {
        let out = zkaccel()
            .args(["model", "unizk", "replay"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// One record's kind, phase and dependencies.
type Step = (String, String, Vec<u64>, usize);

/// Kind, phase, dependencies and gathered matrices of every record before FRI folds (whose
/// count depends on the size), and the set of (kind, phase) pairs overall.
fn skeleton(records: &[KernelRecord]) -> (Vec<Step>, BTreeSet<(String, String)>) {
    let prefix = records
        .iter()
        .take_while(|r| r.phase != "fri-commit")
        .map(|r| {
            let gathers = match &r.kernel {
                zkaccel_kernel_trace::Kernel::Vector { gathers, .. } => gathers.len(),
                _ => 0,
            };
            (
                r.kernel.kind().to_owned(),
                r.phase.clone(),
                r.deps.clone(),
                gathers,
            )
        })
        .collect();
    let kinds = records
        .iter()
        .map(|r| (r.kernel.kind().to_owned(), r.phase.clone()))
        .collect();
    (prefix, kinds)
}

#[test]
fn the_committed_traces_are_what_the_prover_records_today() {
    let dir = tempfile::tempdir().unwrap();
    for air in ["fibonacci", "factorial"] {
        let trace = dir.path().join(format!("{air}.jsonl"));
        let out = zkaccel()
            .args(["prove", "--air", air, "--log-rows", "12", "--output"])
            .arg(dir.path().join(format!("{air}.proof")))
            .arg("--trace")
            .arg(&trace)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let today = skeleton(&read(trace.to_str().unwrap()));
        let sizes: &[u32] = if air == "fibonacci" {
            &[14, 16, 18, 20]
        } else {
            &[20]
        };
        for log_rows in sizes {
            let committed = skeleton(&read(&fixture(&format!("starky-{air}-2e{log_rows}.jsonl"))));
            assert_eq!(
                today, committed,
                "{air} at 2^{log_rows}: re-record tests/data (see its README)"
            );
        }
    }
}

#[test]
fn a_sweep_writes_csv_svg_and_png_per_knob() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("figure10");
    let result = zkaccel()
        .args(["model", "unizk", "sweep", "--trace"])
        .arg(fixture("starky-factorial-2e20.jsonl"))
        .args([
            "--param",
            "spm_mb=1,8",
            "--param",
            "vsas=16,32,64",
            "--output",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    for knob in ["spm_mb", "vsas"] {
        let csv = std::fs::read_to_string(out.join(format!("sweep-{knob}.csv"))).unwrap();
        assert!(csv.starts_with(&format!("{knob},ntt_ms,")), "{csv}");
        let svg = std::fs::read_to_string(out.join(format!("sweep-{knob}.svg"))).unwrap();
        assert!(svg.contains("<svg") && svg.contains(knob));
        let png = std::fs::read(out.join(format!("sweep-{knob}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        6,
        "no temporary files are left behind"
    );
    // Refused values write nothing.
    let refused = dir.path().join("refused");
    let result = zkaccel()
        .args(["model", "unizk", "sweep", "--trace"])
        .arg(fixture("starky-factorial-2e20.jsonl"))
        .args(["--param", "vsas=16,0", "--output"])
        .arg(&refused)
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2));
    assert!(!refused.exists());
    let result = zkaccel()
        .args(["model", "unizk", "sweep", "--param", "vsas=1", "--output"])
        .arg(&refused)
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(2), "--trace is required");
}

#[test]
fn plonky2_workloads_and_shape_files_are_modelled() {
    for workload in ["fibonacci", "mvm", "ecdsa", "sha256", "image-crop"] {
        let out = zkaccel()
            .args(["model", "unizk", "replay", "--workload", workload])
            .args(["--mode", "unizk-sim", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(json["ms"].as_f64().unwrap() > 1.0);
    }
    let shape = format!(
        "{}/../hwmodel/shapes/plonky2-factorial.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = zkaccel()
        .args(["model", "unizk", "replay", "--shape", &shape])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\":\"zkaccel-plonky2-shape\"}").unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, " ".repeat(2 << 20)).unwrap();
    for args in [
        vec!["--workload", "keccak"],
        vec!["--shape", bad.to_str().unwrap()],
        vec!["--shape", big.to_str().unwrap()],
        vec!["--shape", "/nonexistent.json"],
        vec![],
    ] {
        let out = zkaccel()
            .args(["model", "unizk", "replay"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}
