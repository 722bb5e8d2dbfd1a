//! What the user asked for is what the commands do: verifiers enforce a security policy and
//! check every statement a document makes, outputs respect what is already at their path, and
//! every input is read through a bound, under a memory and a time limit.
//!
//! Each test names the behaviour it pins; every one of them failed on the main branch before
//! the verifier-policy work (issue 81) and passes after.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

/// Address-space limit of the runs that read hostile inputs: 1 GiB, so a command that read a
/// 1 GiB line or a 100 M-line file into memory would fail.
const MEMORY_LIMIT_KIB: u64 = 1 << 20;
/// Wall-clock limit of one run (debug build, a busy 2-core machine).
const TIME_LIMIT: Duration = Duration::from_secs(60);

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("zkaccel")
}

/// Runs `zkaccel args` under the memory and time limits; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_LIMIT_KIB}; exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .timeout(TIME_LIMIT)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("zkaccel {args:?} ended by a signal or timed out: {stderr}"));
    assert!(!stderr.contains("panicked"), "zkaccel {args:?}: {stderr}");
    (
        code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

fn expect(code: i32, args: &[&str], message: &str) -> String {
    let (got, stdout, stderr) = run(args);
    assert_eq!(got, code, "zkaccel {args:?}: {stdout}{stderr}");
    let all = format!("{stdout}{stderr}");
    assert!(
        all.contains(message),
        "zkaccel {args:?}: wanted {message:?} in {all}"
    );
    all
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A proof of 2^3 Fibonacci rows: 100 query rounds at rate 1/2 and no grinding, 100
/// conjectured bits (fast in a debug build), or weaker with `extra`.
fn prove(out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "prove",
        "--air",
        "fibonacci",
        "--log-rows",
        "3",
        "--output",
        s(out),
    ];
    args.extend_from_slice(extra);
    expect(0, &args, "conjectured bits")
}

const STRONG: &[&str] = &["--queries", "100", "--pow-bits", "0"];

#[test]
fn prove_refuses_overrides_below_the_target_unless_told() {
    let dir = tempfile::tempdir().unwrap();
    let weak = dir.path().join("weak.bin");
    let err = expect(
        2,
        &[
            "prove",
            "--air",
            "fibonacci",
            "--log-rows",
            "3",
            "--queries",
            "1",
            "--pow-bits",
            "0",
        ]
        .into_iter()
        .chain(["--output", s(&weak)])
        .collect::<Vec<_>>(),
        "--security-bits",
    );
    assert!(err.contains("1 conjectured bits"), "{err}");
    assert!(
        !weak.exists(),
        "nothing is written for a refused configuration"
    );
    let said = prove(
        &weak,
        &["--queries", "1", "--pow-bits", "0", "--security-bits", "1"],
    );
    assert!(
        said.contains("1 conjectured bits of security (target 1)"),
        "{said}"
    );
    let strong = dir.path().join("strong.bin");
    let said = prove(&strong, STRONG);
    assert!(
        said.contains("100 conjectured bits of security (target 100)"),
        "{said}"
    );
}

#[test]
fn verify_enforces_the_minimum_and_every_configuration_flag() {
    let dir = tempfile::tempdir().unwrap();
    let weak = dir.path().join("weak.bin");
    prove(
        &weak,
        &["--queries", "1", "--pow-bits", "0", "--security-bits", "1"],
    );
    let w = s(&weak);
    // The proof does not choose its own security: the default minimum is 100 bits.
    expect(1, &["verify", w], "below the 100");
    expect(1, &["verify", "--config", "standard-fast", w], "rejected");
    expect(
        1,
        &["verify", "--queries", "84", "--pow-bits", "16", w],
        "not the 16 required",
    );
    expect(1, &["verify", "--min-security-bits", "2", w], "below the 2");
    // Lowered explicitly, it verifies, and the verdict says how strong it is.
    let ok = expect(0, &["verify", "--min-security-bits", "1", w], "valid");
    assert!(ok.contains("1 conjectured bits of security"), "{ok}");
    expect(
        0,
        &["verify", "--min-security-bits", "1", "--queries", "1", w],
        "valid",
    );
    expect(
        2,
        &["verify", "--min-security-bits", "0", w],
        "0 is not in 1..=128",
    );

    let strong = dir.path().join("strong.bin");
    prove(&strong, STRONG);
    let st = s(&strong);
    let ok = expect(0, &["verify", st], "valid");
    assert!(ok.contains("100 conjectured bits of security"), "{ok}");
    // A flag given must match the header: the named preset in full, or each override.
    expect(
        1,
        &["verify", "--config", "standard-fast", st],
        "proof-of-work bits is 0",
    );
    expect(
        0,
        &[
            "verify",
            "--config",
            "standard-fast",
            "--queries",
            "100",
            "--pow-bits",
            "0",
            st,
        ],
        "valid",
    );
    expect(1, &["verify", "--config", "small-proofs", st], "rejected");
    expect(1, &["verify", "--rate-bits", "2", st], "rate bits");
    expect(1, &["verify", "--cap-height", "3", st], "cap height");
    expect(
        1,
        &["verify", "--security-bits", "90", st],
        "security target",
    );
    expect(
        0,
        &["verify", "--queries", "100", "--rate-bits", "1", st],
        "valid",
    );
}

#[test]
fn verify_input_errors_are_typed_and_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.bin");
    prove(&proof, STRONG);
    let p = s(&proof);
    // A wrong number of expected inputs is a usage error (2), not a rejection (1).
    expect(2, &["verify", "--inputs", "0,1", p], "3 public inputs");
    expect(1, &["verify", "--inputs", "0,1,22", p], "public inputs");
    // An over-long value of multibyte characters: the message is cut on a character boundary.
    // An ASCII letter first puts byte 16 inside a character: the old message cut there panicked.
    let wide = format!("a{}", "é".repeat(60));
    expect(2, &["verify", "--inputs", &wide, p], "value 1 of --inputs");
    expect(
        2,
        &[
            "prove",
            "--air",
            "fibonacci",
            "--log-rows",
            "3",
            "--inputs",
            &format!("{wide},1"),
            "--output",
            s(&dir.path().join("x")),
        ],
        "value 1 of --inputs",
    );
    // A file that is not a proof does not verify (1, as a malformed Merkle opening), and the
    // message names the file; a file that cannot be read is bad input (2).
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"not a proof").unwrap();
    expect(1, &["verify", s(&junk)], "junk.bin");
    expect(
        2,
        &["verify", s(&dir.path().join("missing.bin"))],
        "missing.bin",
    );
}

/// A plonky2-preset tree of 8 leaves: its commitment and an opening of leaves 3 and 5.
fn merkle_fixture(dir: &Path) -> (PathBuf, serde_json::Value) {
    let commitment = dir.join("c.json");
    let opening = dir.join("o.json");
    let tree = ["--preset", "plonky2", "--leaves", "8", "--leaf-width", "2"];
    let mut build = vec!["merkle", "build"];
    build.extend_from_slice(&tree);
    build.extend_from_slice(&["--commitment", s(&commitment)]);
    expect(0, &build, "");
    let mut open = vec!["merkle", "open"];
    open.extend_from_slice(&tree);
    open.extend_from_slice(&["--index", "3,5", "--output", s(&opening)]);
    expect(0, &open, "");
    let o = serde_json::from_str(&std::fs::read_to_string(&opening).unwrap()).unwrap();
    (commitment, o)
}

#[test]
fn merkle_verify_checks_every_statement_of_the_opening() {
    let dir = tempfile::tempdir().unwrap();
    let (commitment, opening) = merkle_fixture(dir.path());
    let c = s(&commitment);
    let check = |o: &serde_json::Value| {
        let path = dir.path().join("variant.json");
        std::fs::write(&path, o.to_string()).unwrap();
        run(&["merkle", "verify", "--opening", s(&path), "--commitment", c])
    };
    let (code, out, err) = check(&opening);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("at positions [3, 5]"), "{out}");
    type Edit = fn(&mut serde_json::Value);
    let variants: [(&str, Edit); 9] = [
        ("indices changed", |o| {
            o["indices"] = serde_json::json!([3, 4])
        }),
        ("indices removed", |o| {
            o.as_object_mut().unwrap().remove("indices");
        }),
        ("indices a string", |o| {
            o["indices"] = serde_json::json!("3,5")
        }),
        ("indices reordered", |o| {
            o["indices"] = serde_json::json!([5, 3])
        }),
        ("preset", |o| o["preset"] = serde_json::json!("neptune")),
        ("arity", |o| o["arity"] = serde_json::json!(4)),
        ("strength", |o| {
            o["strength"] = serde_json::json!("strengthened")
        }),
        ("cap height", |o| o["cap_height"] = serde_json::json!(1)),
        ("an unknown field", |o| o["root"] = serde_json::json!("0")),
    ];
    for (what, edit) in variants {
        let mut o = opening.clone();
        edit(&mut o);
        let (code, out, err) = check(&o);
        assert_eq!(code, 1, "{what}: {out}{err}");
        assert!(err.contains("rejected"), "{what}: {err}");
    }
    // The commitment, which the verifier trusts, may state nothing it does not check either.
    let mut c2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&commitment).unwrap()).unwrap();
    c2["root_hint"] = serde_json::json!("0");
    let forged = dir.path().join("c2.json");
    std::fs::write(&forged, c2.to_string()).unwrap();
    let good = dir.path().join("good.json");
    std::fs::write(&good, opening.to_string()).unwrap();
    expect(
        2,
        &[
            "merkle",
            "verify",
            "--opening",
            s(&good),
            "--commitment",
            s(&forged),
        ],
        "does not check",
    );
}

/// One classification serves every verifier (`zkaccel_codec::ErrorClass`): a Merkle opening
/// and a STARK proof cut short, or with a byte flipped, both exit 1 (they do not verify); a
/// commitment or a proof file that cannot be read both exit 2.
#[test]
fn malformed_merkle_and_stark_proofs_are_classified_alike() {
    let dir = tempfile::tempdir().unwrap();
    let (commitment, opening) = merkle_fixture(dir.path());
    let c = s(&commitment);
    let proof_hex = opening["proof"].as_str().unwrap().to_owned();
    let stark = dir.path().join("p.bin");
    prove(&stark, STRONG);
    let stark_bytes = std::fs::read(&stark).unwrap();
    for cut in [0usize, 1, 2] {
        // The Merkle proof: its hex cut by `cut` bytes' worth from a third of the way in.
        let mut o = opening.clone();
        let keep = proof_hex.len() / 3 / 2 * 2;
        o["proof"] = serde_json::json!(format!(
            "{}{}",
            &proof_hex[..keep],
            &proof_hex[keep + 2 * cut.max(1)..]
        ));
        if cut == 2 {
            // A flipped byte instead: the hasher id (the fifth byte of the encoding).
            let mut bytes = hex::decode(&proof_hex).unwrap();
            bytes[5] ^= 0x40;
            o["proof"] = serde_json::json!(hex::encode(bytes));
        }
        let path = dir.path().join("cut.json");
        std::fs::write(&path, o.to_string()).unwrap();
        let (merkle_code, _, merkle_err) =
            run(&["merkle", "verify", "--opening", s(&path), "--commitment", c]);
        // The STARK proof file: cut in its header, cut in its body, or a flipped body byte.
        let damaged = match cut {
            0 => stark_bytes[..12].to_vec(),
            1 => stark_bytes[..stark_bytes.len() / 2].to_vec(),
            _ => {
                let mut b = stark_bytes.clone();
                let at = b.len() - 20;
                b[at] ^= 1;
                b
            }
        };
        let damaged_path = dir.path().join("cut.bin");
        std::fs::write(&damaged_path, &damaged).unwrap();
        let (stark_code, _, stark_err) = run(&["verify", s(&damaged_path)]);
        assert_eq!(merkle_code, 1, "Merkle, case {cut}: {merkle_err}");
        assert_eq!(stark_code, 1, "STARK, case {cut}: {stark_err}");
        assert!(merkle_err.starts_with("rejected"), "{merkle_err}");
        assert!(stark_err.starts_with("rejected"), "{stark_err}");
    }
    let missing = s(&dir.path().join("missing")).to_owned();
    expect(2, &["verify", &missing], "missing");
    let good = dir.path().join("good.json");
    std::fs::write(&good, opening.to_string()).unwrap();
    expect(
        2,
        &[
            "merkle",
            "verify",
            "--opening",
            s(&good),
            "--commitment",
            &missing,
        ],
        "missing",
    );
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn outputs_respect_what_is_at_their_path() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hash = |output: &Path| {
        run(&[
            "merkle",
            "build",
            "--preset",
            "plonky2",
            "--leaves",
            "4",
            "--leaf-width",
            "1",
            "--output",
            s(output),
        ])
    };
    // A device is written in place, never replaced.
    let (code, _, err) = hash(Path::new("/dev/null"));
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A FIFO without a reader: an error at once, not a hang, and the FIFO stays.
    let fifo = d.join("fifo");
    mkfifo(&fifo);
    let (code, _, err) = hash(&fifo);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no process reads"), "{err}");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // With a reader, the output goes through it.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    std::thread::sleep(Duration::from_millis(200));
    let (code, out, err) = hash(&fifo);
    assert_eq!(code, 0, "{err}");
    assert_eq!(reader.join().unwrap(), out);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // An existing file keeps its permissions.
    let private = d.join("private.txt");
    std::fs::write(&private, "old").unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(hash(&private).0, 0);
    let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_ne!(std::fs::read_to_string(&private).unwrap(), "old");
    // A symbolic link to a file: the file is replaced, the link stays a link.
    let target = d.join("target.txt");
    let link = d.join("link.txt");
    std::fs::write(&target, "old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert_eq!(hash(&link).0, 0);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_ne!(std::fs::read_to_string(&target).unwrap(), "old");
    // A dangling link and a directory are refused and left as they are.
    let dangling = d.join("dangling.txt");
    std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
    assert_eq!(hash(&dangling).0, 2);
    assert!(!d.join("nowhere").exists());
    let sub = d.join("sub");
    std::fs::create_dir(&sub).unwrap();
    assert_eq!(hash(&sub).0, 2);
    assert!(sub.is_dir());
    // No temporary file is left beside the outputs.
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "dangling.txt",
            "fifo",
            "link.txt",
            "private.txt",
            "sub",
            "target.txt"
        ]
    );
}

#[test]
fn two_outputs_of_one_command_may_not_name_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("same.out");
    let via_dot = dir.path().join(".").join("same.out");
    let p = s(&same);
    expect(
        2,
        &[
            "prove",
            "--air",
            "factorial",
            "--log-rows",
            "2",
            "--output",
            p,
            "--trace",
            s(&via_dot),
        ],
        "the same file",
    );
    expect(
        2,
        &[
            "ntt",
            "--field",
            "goldilocks",
            "--random",
            "2",
            "--output",
            p,
            "--trace",
            p,
        ],
        "the same file",
    );
    expect(
        2,
        &[
            "merkle",
            "build",
            "--preset",
            "plonky2",
            "--leaves",
            "4",
            "--leaf-width",
            "1",
            "--output",
            p,
            "--commitment",
            p,
        ],
        "the same file",
    );
    assert!(!same.exists());
    // A sweep of one knob twice would overwrite its own files.
    let out = dir.path().join("sweeps");
    expect(
        2,
        &[
            "model",
            "unizk",
            "sweep",
            "--workload",
            "fibonacci",
            "--param",
            "spm_mb=2,4",
            "--param",
            "spm_mb=8",
            "--output",
            s(&out),
        ],
        "given twice",
    );
    assert!(!out.join("sweep-spm_mb.csv").exists());
}

#[test]
fn inputs_are_bounded_before_they_are_held() {
    let dir = tempfile::tempdir().unwrap();
    // A 1 GiB sparse file: one line of NUL bytes, no newline.
    let sparse = dir.path().join("sparse.img");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let sp = s(&sparse);
    expect(
        2,
        &["poseidon", "hash", "--preset", "circomlib", "--file", sp],
        "longer than",
    );
    expect(
        2,
        &["mimc", "hash", "--preset", "circomlib", "--file", sp],
        "longer than",
    );
    expect(
        2,
        &["ntt", "--field", "bn254", "--input", sp],
        "longer than",
    );
    expect(
        2,
        &["merkle", "build", "--preset", "plonky2", "--input", sp],
        "longer than",
    );
    expect(
        2,
        &[
            "merkle",
            "open",
            "--preset",
            "plonky2",
            "--input",
            sp,
            "--index",
            "0",
            "--output",
            s(&dir.path().join("o")),
        ],
        "longer than",
    );
    expect(2, &["verify", sp], "longer than");
    let opening = dir.path().join("o.json");
    std::fs::write(&opening, "{}").unwrap();
    expect(
        2,
        &[
            "merkle",
            "verify",
            "--opening",
            s(&opening),
            "--commitment",
            sp,
        ],
        "longer than",
    );
    // A device: read through the same bounds, whatever its metadata says.
    expect(2, &["verify", "/dev/zero"], "longer than");
    expect(
        2,
        &[
            "poseidon",
            "hash",
            "--preset",
            "plonky2",
            "--file",
            "/dev/zero",
        ],
        "longer than",
    );
    expect(
        2,
        &[
            "merkle",
            "build",
            "--preset",
            "plonky2",
            "--input",
            "/dev/zero",
        ],
        "not a regular file",
    );
    // 100 M lines (200 MB, written sparsely would be NULs: a real file of short lines).
    let many = dir.path().join("many.txt");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&many).unwrap());
        let chunk = "1\n".repeat(1 << 20);
        for _ in 0..100 {
            f.write_all(chunk.as_bytes()).unwrap();
        }
    }
    let m = s(&many);
    expect(
        2,
        &["poseidon", "hash", "--preset", "circomlib", "--file", m],
        "at most 16",
    );
    expect(
        2,
        &[
            "poseidon", "hash", "--preset", "neptune", "--arity", "4", "--file", m,
        ],
        "at most 4",
    );
    expect(
        2,
        &["mimc", "hash", "--preset", "circomlib", "--file", m],
        "at most 1048576",
    );
    expect(
        2,
        &[
            "ntt",
            "--field",
            "goldilocks",
            "--input",
            m,
            "--memory-budget",
            "1M",
        ],
        "at most 131072",
    );
}

#[test]
fn every_option_is_used_or_refused() {
    expect(
        2,
        &[
            "poseidon", "hash", "--preset", "plonky2", "--arity", "4", "1",
        ],
        "--preset neptune only",
    );
    expect(
        2,
        &[
            "poseidon",
            "hash",
            "--preset",
            "circomlib",
            "--strength",
            "strengthened",
            "1",
        ],
        "--preset neptune only",
    );
    expect(
        2,
        &[
            "mimc",
            "hash",
            "--preset",
            "circomlib-sponge",
            "--algorithm",
            "barrett",
            "1",
        ],
        "not to circomlib-sponge",
    );
    expect(
        2,
        &[
            "merkle",
            "build",
            "--preset",
            "circomlib",
            "--strength",
            "strengthened",
            "--leaves",
            "4",
            "--leaf-width",
            "1",
        ],
        "--preset neptune only",
    );
    expect(
        2,
        &[
            "ntt",
            "--field",
            "goldilocks",
            "--random",
            "4",
            "--radix2",
            "--core-log",
            "3",
        ],
        "not with --radix2",
    );
    expect(
        2,
        &["bench", "--quick", "--filter", "no-such-kernel"],
        "matches no kernel",
    );
}

#[test]
fn sizes_are_checked_before_arithmetic() {
    // The four-step core's `core_log + 1` wrapped in release builds.
    for core in ["18446744073709551615", "65", "33"] {
        expect(
            2,
            &[
                "ntt",
                "--field",
                "goldilocks",
                "--random",
                "4",
                "--core-log",
                core,
            ],
            "--core-log",
        );
    }
}

#[test]
fn messages_say_one_thing_and_stay_short() {
    // "1 leaves: a tree of arity 1 needs a power of 1 leaves" contradicted itself.
    let err = expect(
        2,
        &[
            "merkle",
            "build",
            "--preset",
            "circomlib",
            "--arity",
            "1",
            "--leaves",
            "1",
            "--leaf-width",
            "1",
        ],
        "a tree node has 2 to",
    );
    assert!(!err.contains("power of 1"), "{err}");
    // Absurd reals are refused at the flag, and a model's own message prints them short.
    for value in ["1e308", "inf", "NaN", "-0.5e1", "0"] {
        let flag = format!("--clock-mhz={value}");
        let err = expect(2, &["model", "acclmt", "tables", &flag], "--clock-mhz");
        assert!(err.len() < 400, "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let err = expect(
        2,
        &[
            "model",
            "acclmt",
            "sweep",
            "--param",
            "clock_mhz=1e308",
            "--output",
            s(&out),
        ],
        "1e308",
    );
    assert!(err.len() < 400, "{err}");
}

/// A FIFO whose writer never stops: the reader stops at its bound (the old code trusted the
/// file's metadata, which says 0 bytes for a FIFO, and read without end).
#[cfg(unix)]
#[test]
fn a_fifo_input_is_read_through_the_same_bounds() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let endless = |path: &Path, chunk: &'static [u8]| {
        let path = path.to_owned();
        std::thread::spawn(move || {
            // Opening blocks until the reader opens; writing stops when it goes away.
            let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
            while f.write_all(chunk).is_ok() {}
        })
    };
    let proof = dir.path().join("proof.fifo");
    mkfifo(&proof);
    let writer = endless(&proof, &[0u8; 1 << 16]);
    expect(2, &["verify", s(&proof)], "longer than");
    writer.join().unwrap();
    let values = dir.path().join("values.fifo");
    mkfifo(&values);
    let writer = endless(&values, b"1\n1\n1\n1\n");
    expect(
        2,
        &[
            "poseidon",
            "hash",
            "--preset",
            "circomlib",
            "--file",
            s(&values),
        ],
        "at most 16",
    );
    writer.join().unwrap();
}
