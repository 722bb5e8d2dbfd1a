//! Every subcommand driven with random, mostly hostile arguments (sizes past every limit,
//! overflowing integers, malformed numbers, missing, empty and foreign files): each run must
//! end by itself within a bounded time and memory, with exit status 0, 1 (rejected) or 2
//! (bad input), and never with a panic or a signal.
//!
//! Cases: `ZKACCEL_CLI_FUZZ_CASES` per subcommand (default 12, about 150 runs in all); seed:
//! `ZKACCEL_CLI_FUZZ_SEED`. Each run gets [`TIME_LIMIT`] and an address-space limit of
//! [`MEMORY_LIMIT_KIB`].
//!
//! The pools hold the hostile values of issue 26 (a long number with `--reduce`, arity 10^9,
//! width 100000, 2000 full rounds, `--random 32`, 2^64 − 1 subtree leaves, a leaf width of
//! 2^61, `merkle open` of 2^40 leaves, empty leaf rows) and valid small values, so that both
//! the checks and the work behind them run. Valid jobs that are merely large (a streaming
//! build of 2^40 leaves is hours of honest work in bounded memory) are left out of the pools.

use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Wall-clock limit of one run (debug build, a busy 2-core machine).
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Address-space limit of one run: 4 GiB.
const MEMORY_LIMIT_KIB: u64 = 4 << 20;

/// Files the pools point at, made once per test run.
struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write("empty.txt", "");
        write("blank-rows.txt", ",\n,\n");
        write("ragged.txt", "1,2\n3\n");
        write("junk.txt", "hello\nworld\n");
        write("values.txt", "1\n2\n3\n4\n");
        write("long.txt", &"9".repeat(200_000));
        write("zeros.txt", &format!("{}1\n", "0".repeat(200_000)));
        write("not-json.json", "{{{");
        write("null.json", "null");
        let trace = include_str!("../../hwmodel/tests/data/starky-fibonacci-2e20.jsonl");
        write("trace.jsonl", trace);
        // The same trace with a shape no memory holds and ids out of sequence.
        write(
            "trace-huge.jsonl",
            &trace.replace(r#""log_n":21"#, r#""log_n":63"#).replace(
                r#""leaf_width":2,"#,
                r#""leaf_width":18446744073709551615,"#,
            ),
        );
        write(
            "trace-reordered.jsonl",
            &trace.replacen(r#""id":1,"#, r#""id":7,"#, 1),
        );
        // Wide-field NTT records for the FPGA NTT model: a sane one, then shapes no time fits.
        let wide = |field: &str, log_n: &str, batch: &str| {
            format!(
                r#"{{"version":1,"id":0,"deps":[],"phase":"standalone","kind":"ntt","field":"{field}","log_n":{log_n},"batch":{batch},"inverse":false,"coset":true,"order":"nn","layout":"poly-major","zero_log":0}}"#
            ) + "\n"
        };
        write("trace-wide.jsonl", &wide("bls12-377-fq", "16", "3"));
        write(
            "trace-wide-huge.jsonl",
            &(wide("bn254", "40", "18446744073709551615") + &wide("bls12-381", "63", "1")),
        );
        let c = |preset: &str, arity: &str, leaves: &str, width: &str, cap_h: &str, cap: &str| {
            format!(
                r#"{{"format":"zkaccel-merkle-commitment","version":1,"preset":"{preset}","strength":"standard","field":"{}","arity":{arity},"num_leaves":{leaves},"leaf_width":{width},"cap_height":{cap_h},"cap":{cap}}}"#,
                match preset {
                    "plonky2" => "Goldilocks",
                    "neptune" => "BLS12-381 Fr",
                    _ => "BN254 Fr",
                }
            )
        };
        write(
            "c-huge-arity.json",
            &c("neptune", "1000000000", "4", "1", "0", r#"[["1"]]"#),
        );
        write(
            "c-huge-leaves.json",
            &c(
                "plonky2",
                "2",
                "18446744073709551615",
                "1",
                "0",
                r#"[["1","2","3","4"]]"#,
            ),
        );
        write(
            "c-deep-cap.json",
            &c(
                "plonky2",
                "2",
                "9223372036854775808",
                "1",
                "63",
                r#"[["1","2","3","4"]]"#,
            ),
        );
        write(
            "c-wide.json",
            &c(
                "plonky2",
                "2",
                "4",
                "2305843009213693952",
                "0",
                r#"[["1","2","3","4"]]"#,
            ),
        );
        write(
            "c-ok.json",
            &c("plonky2", "2", "4", "1", "0", r#"[["1","2","3","4"]]"#),
        );
        write(
            "o-empty-row.json",
            r#"{"preset":"plonky2","arity":2,"indices":[0],"leaves":[[]],"proof":"5a4b4d5001010202000408010000000000000000000000000000000000"}"#,
        );
        write(
            "o-huge-counts.json",
            r#"{"preset":"plonky2","leaves":[["1"]],"proof":"5a4b4d500101024000040 8ffffffff"}"#,
        );
        write(
            "o-garbage.json",
            &format!(
                r#"{{"preset":"neptune","leaves":[["1"]],"proof":"{}"}}"#,
                "ab".repeat(5000)
            ),
        );
        write("model-huge.json", r#"{"rounds": 18446744073709551615}"#);
        std::fs::create_dir(dir.path().join("a-directory")).unwrap();
        // A real proof, and hostile variants of it: a flipped byte, cut short, an unknown
        // AIR, a header claiming 2^255 rows, an absurd configuration.
        let proof = dir.path().join("proof.bin");
        let made = std::process::Command::new(assert_cmd::cargo::cargo_bin("zkaccel"))
            .args([
                "prove",
                "--air",
                "fibonacci",
                "--log-rows",
                "4",
                "--queries",
                "8",
            ])
            .args(["--pow-bits", "2", "--security-bits", "10", "--output"])
            .arg(&proof)
            .output()
            .unwrap();
        assert!(made.status.success(), "{made:?}");
        let bytes = std::fs::read(&proof).unwrap();
        let variant = |name: &str, f: &dyn Fn(&mut Vec<u8>)| {
            let mut b = bytes.clone();
            f(&mut b);
            std::fs::write(dir.path().join(name), b).unwrap();
        };
        variant("proof-flip.bin", &|b| {
            let i = b.len() / 2;
            b[i] ^= 4;
        });
        variant("proof-cut.bin", &|b| b.truncate(b.len() - 9));
        variant("proof-header-only.bin", &|b| b.truncate(20));
        variant("proof-unknown-air.bin", &|b| b[10] = b'x');
        variant("proof-huge-rows.bin", &|b| b[19] = 255);
        // Header: magic (8), version, name length, "fibonacci" (9), log rows at 19,
        // security (2), challenges, rate, cap, pow bits, strategy [1, a, f], queries at 29.
        variant("proof-zero-queries.bin", &|b| {
            b[29] = 0;
            b[30] = 0;
        });
        Self { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }

    /// A path for outputs that does not exist yet.
    fn fresh(&self, rng: &mut StdRng) -> String {
        self.path(&format!("out-{}", rng.gen::<u64>()))
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "16",
    "-1",
    "",
    " ",
    "abc",
    "0x10",
    "1e9",
    "4294967296",
    "1099511627776",
    "2305843009213693952",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
];

fn number(rng: &mut StdRng) -> String {
    (*NUMBERS.choose(rng).unwrap()).to_owned()
}

fn one_of(rng: &mut StdRng, pool: &[&str]) -> String {
    (*pool.choose(rng).unwrap()).to_owned()
}

/// A valid value three times in four, so that most runs get past the first check.
fn mostly(rng: &mut StdRng, valid: &[&str], hostile: &[&str]) -> String {
    if !valid.is_empty() && rng.gen_bool(0.75) {
        one_of(rng, valid)
    } else {
        one_of(rng, hostile)
    }
}

/// A field element as a user might type it, or not.
fn value(rng: &mut StdRng) -> String {
    match rng.gen_range(0..9) {
        6..=8 => rng.gen_range(0u64..1 << 40).to_string(),
        0 => "9".repeat(rng.gen_range(1..3000)),
        1 => format!("0x{}", "f".repeat(rng.gen_range(0..200))),
        2 => one_of(
            rng,
            &[
                "21888242871839275222246405745257275088548364400416034343698204186575808495617",
                "18446744069414584321",
                "１２",
                "-0",
                "0b1",
            ],
        ),
        _ => number(rng),
    }
}

fn file(rng: &mut StdRng, files: &Files) -> String {
    let names = [
        "empty.txt",
        "blank-rows.txt",
        "ragged.txt",
        "junk.txt",
        "values.txt",
        "long.txt",
        "zeros.txt",
        "missing.txt",
        "a-directory",
        "not-json.json",
    ];
    files.path(names.choose(rng).unwrap())
}

/// Draws an option's value.
type Pick<'a> = dyn Fn(&mut StdRng) -> String + 'a;

/// Adds each option with probability 1/2, its value from `pick`.
fn options(rng: &mut StdRng, args: &mut Vec<String>, table: &[(&str, &Pick)]) {
    for (flag, pick) in table {
        if rng.gen_bool(0.5) {
            args.push((*flag).to_owned());
            let v = pick(rng);
            if !v.is_empty() || rng.gen_bool(0.5) {
                args.push(v);
            }
        }
    }
}

fn field(rng: &mut StdRng) -> String {
    mostly(rng, &["goldilocks", "bn254", "bls12-381"], &["bn128", ""])
}

fn case(sub: &str, rng: &mut StdRng, f: &Files) -> Vec<String> {
    let mut a: Vec<String> = sub.split(' ').map(str::to_owned).collect();
    let flag = |rng: &mut StdRng, a: &mut Vec<String>, name: &str| {
        if rng.gen_bool(0.5) {
            a.push(name.to_owned());
        }
    };
    let push = |a: &mut Vec<String>, name: &str, v: String| {
        a.push(name.to_owned());
        a.push(v);
    };
    match sub {
        "field mul" => {
            push(&mut a, "--field", field(rng));
            let algorithms = ["montgomery", "barrett", "peasant"];
            options(
                rng,
                &mut a,
                &[("--algorithm", &|r| mostly(r, &algorithms, &["karatsuba"]))],
            );
            a.push(value(rng));
            a.push(value(rng));
        }
        "field info" => push(&mut a, "--field", field(rng)),
        "mimc cipher" | "mimc hash" => {
            let presets = ["circomlib", "gnark", "ethsnarks", "circomlib-sponge"];
            push(&mut a, "--preset", mostly(rng, &presets, &["x", ""]));
            if sub == "mimc cipher" || rng.gen_bool(0.3) {
                push(&mut a, "--key", value(rng));
            }
            let algorithms = ["montgomery", "barrett", "peasant"];
            options(rng, &mut a, &[("--algorithm", &|r| one_of(r, &algorithms))]);
            flag(rng, &mut a, "--reduce");
            flag(rng, &mut a, "--json");
            if sub == "mimc hash" && rng.gen_bool(0.3) {
                push(&mut a, "--file", file(rng, f));
            } else {
                let count = if sub == "mimc cipher" {
                    1
                } else {
                    rng.gen_range(1..4)
                };
                for _ in 0..count {
                    a.push(value(rng));
                }
            }
        }
        "poseidon hash" => {
            let preset = mostly(rng, &["plonky2", "neptune", "circomlib"], &["x"]);
            push(&mut a, "--preset", preset.clone());
            let arities = ["1", "2", "4", "11", "63"];
            let hostile = ["0", "64", "1000000000", "18446744073709551615", "-2"];
            let arity = mostly(rng, &arities, &hostile);
            if preset == "neptune" || rng.gen_bool(0.2) {
                push(&mut a, "--arity", arity.clone());
            }
            options(
                rng,
                &mut a,
                &[("--strength", &|r| {
                    mostly(r, &["standard", "strengthened"], &["x"])
                })],
            );
            flag(rng, &mut a, "--reduce");
            if rng.gen_bool(0.3) {
                push(&mut a, "--file", file(rng, f));
            } else {
                let count = match (preset.as_str(), arity.parse::<usize>()) {
                    ("neptune", Ok(n)) if n < 100 && rng.gen_bool(0.7) => n,
                    _ => rng.gen_range(1..20),
                };
                for _ in 0..count {
                    a.push(value(rng));
                }
            }
        }
        "poseidon params" => {
            push(&mut a, "--field", field(rng));
            let widths = ["2", "3", "5", "12", "24"];
            let hostile = ["0", "1", "65", "100000", "18446744073709551615"];
            push(&mut a, "--width", mostly(rng, &widths, &hostile));
            let alphas = ["3", "5", "7", "17"];
            options(
                rng,
                &mut a,
                &[
                    ("--alpha", &|r| {
                        mostly(r, &alphas, &["0", "1", "2", "18446744073709551615"])
                    }),
                    ("--style", &|r| mostly(r, &["reference", "neptune"], &["x"])),
                ],
            );
            if rng.gen_bool(0.5) {
                let full = ["8", "16", "1022"];
                let partial = ["22", "57", "1023"];
                let bad_full = ["0", "1", "1024", "2000", "18446744073709551615"];
                let bad_partial = ["1024", "18446744073709551615"];
                push(&mut a, "--full-rounds", mostly(rng, &full, &bad_full));
                push(
                    &mut a,
                    "--partial-rounds",
                    mostly(rng, &partial, &bad_partial),
                );
            }
        }
        "merkle build" | "merkle open" => {
            let build = sub == "merkle build";
            let preset = mostly(rng, &["plonky2", "neptune", "circomlib"], &["x"]);
            push(&mut a, "--preset", preset.clone());
            let hostile_width = [
                "0",
                "2",
                "1048577",
                "2305843009213693952",
                "18446744073709551615",
            ];
            let width_ok: &[&str] = if preset == "plonky2" {
                &["1", "4", "135"]
            } else {
                &["1"]
            };
            let arity_ok: &[&str] = if preset == "plonky2" {
                &["2"]
            } else {
                &["2", "4", "8"]
            };
            let hostile_arity = ["0", "1", "64", "1000000000", "18446744073709551615"];
            if preset != "plonky2" || rng.gen_bool(0.2) {
                push(&mut a, "--arity", mostly(rng, arity_ok, &hostile_arity));
            }
            let budgets = ["64K", "1G"];
            let hostile_budgets = ["0", "1K", "99999999999999999999G", "-1", "x"];
            options(
                rng,
                &mut a,
                &[
                    ("--cap-height", &|r| {
                        mostly(r, &["0", "1", "2"], &["64", "18446744073709551615"])
                    }),
                    ("--seed", &number),
                    ("--memory-budget", &|r| {
                        mostly(r, &budgets, &hostile_budgets)
                    }),
                ],
            );
            if rng.gen_bool(0.8) {
                let hostile_leaves: &[&str] = if build {
                    &["0", "3", "18446744073709551615", "-4", "x"]
                } else {
                    &[
                        "0",
                        "3",
                        "1099511627776",
                        "9223372036854775808",
                        "18446744073709551615",
                    ]
                };
                let leaves = ["1", "4", "16", "64", "256", "4096"];
                push(&mut a, "--leaves", mostly(rng, &leaves, hostile_leaves));
                push(
                    &mut a,
                    "--leaf-width",
                    mostly(rng, width_ok, &hostile_width),
                );
            } else {
                push(&mut a, "--input", file(rng, f));
            }
            if build {
                let subtrees = ["2", "16", "4096"];
                let hostile_subtrees = ["0", "1", "18446744073709551615"];
                options(
                    rng,
                    &mut a,
                    &[
                        ("--subtree-leaves", &|r| {
                            mostly(r, &subtrees, &hostile_subtrees)
                        }),
                        ("--output", &|r| {
                            mostly(r, &[], &["/nonexistent/dir/cap.txt", ""])
                        }),
                        ("--commitment", &|r| f.fresh(r)),
                    ],
                );
                if rng.gen_bool(0.3) {
                    push(&mut a, "--store", f.fresh(rng));
                }
                flag(rng, &mut a, "--json");
            } else {
                let hostile = ["18446744073709551615", "-1", "", "1,x"];
                push(
                    &mut a,
                    "--index",
                    mostly(rng, &["0", "1,2,3", "0,0,0"], &hostile),
                );
                push(&mut a, "--output", f.fresh(rng));
                if rng.gen_bool(0.2) {
                    let store = one_of(rng, &["a-directory", "missing"]);
                    push(&mut a, "--store", f.path(&store));
                }
            }
        }
        "merkle verify" => {
            let openings = [
                "o-empty-row.json",
                "o-huge-counts.json",
                "o-garbage.json",
                "null.json",
                "not-json.json",
                "missing.json",
            ];
            let commitments = [
                "c-huge-arity.json",
                "c-huge-leaves.json",
                "c-deep-cap.json",
                "c-wide.json",
                "c-ok.json",
                "null.json",
                "missing.json",
            ];
            push(&mut a, "--opening", f.path(openings.choose(rng).unwrap()));
            push(
                &mut a,
                "--commitment",
                f.path(commitments.choose(rng).unwrap()),
            );
        }
        "prove" => {
            push(
                &mut a,
                "--air",
                mostly(rng, &["fibonacci", "factorial"], &["x", ""]),
            );
            let rows = ["1", "3", "6"];
            let hostile_rows = ["0", "27", "64", "18446744073709551615", "-1"];
            push(&mut a, "--log-rows", mostly(rng, &rows, &hostile_rows));
            push(&mut a, "--output", f.fresh(rng));
            options(
                rng,
                &mut a,
                &[
                    ("--inputs", &|r| {
                        mostly(
                            r,
                            &["0,1", "2,7"],
                            &[
                                "1",
                                "1,2,3",
                                "x,y",
                                "18446744073709551616,1",
                                &format!("a{}", "é".repeat(60)),
                            ],
                        )
                    }),
                    ("--security-bits", &|r| {
                        mostly(r, &["4", "40"], &["0", "129", "65536"])
                    }),
                    ("--config", &|r| {
                        mostly(r, &["standard-fast", "small-proofs"], &["fast", ""])
                    }),
                    ("--rate-bits", &|r| {
                        mostly(r, &["1", "2"], &["0", "9", "64"])
                    }),
                    ("--cap-height", &|r| mostly(r, &["0", "2"], &["17", "64"])),
                    ("--pow-bits", &|r| {
                        mostly(r, &["0", "4"], &["33", "4294967295"])
                    }),
                    ("--queries", &|r| {
                        mostly(r, &["4", "20"], &["0", "1025", "18446744073709551615"])
                    }),
                    ("--encoding", &|r| {
                        mostly(r, &["zkaccel", "plonky2"], &["json"])
                    }),
                ],
            );
        }
        "verify" => {
            let proofs = [
                "proof.bin",
                "proof-flip.bin",
                "proof-cut.bin",
                "proof-header-only.bin",
                "proof-unknown-air.bin",
                "proof-huge-rows.bin",
                "proof-zero-queries.bin",
                "empty.txt",
                "junk.txt",
                "long.txt",
                "a-directory",
                "missing",
            ];
            a.push(f.path(proofs.choose(rng).unwrap()));
            options(
                rng,
                &mut a,
                &[
                    ("--air", &|r| mostly(r, &["fibonacci", "factorial"], &["x"])),
                    ("--log-rows", &|r| {
                        mostly(r, &["4", "5"], &["0", "64", "18446744073709551615"])
                    }),
                    // A value cut inside a multibyte character panicked (issue 81).
                    ("--inputs", &|r| {
                        mostly(
                            r,
                            &["0,1,987", "0,1"],
                            &["x", "", &format!("a{}", "é".repeat(60))],
                        )
                    }),
                    ("--min-security-bits", &|r| {
                        mostly(r, &["10", "1"], &["0", "129", "65536"])
                    }),
                    ("--config", &|r| {
                        mostly(r, &["standard-fast", "small-proofs"], &["fast"])
                    }),
                    ("--encoding", &|r| {
                        mostly(r, &["zkaccel", "plonky2"], &["json"])
                    }),
                    ("--queries", &|r| mostly(r, &["8"], &["0"])),
                ],
            );
            flag(rng, &mut a, "--starky-compatible");
        }
        "ntt" => {
            push(&mut a, "--field", field(rng));
            let cores = ["1", "2", "8"];
            let hostile_cores = ["0", "64", "1000", "18446744073709551615"];
            options(
                rng,
                &mut a,
                &[
                    ("--order", &|r| mostly(r, &["nn", "nr", "rn", "rr"], &["x"])),
                    ("--seed", &number),
                    ("--core-log", &|r| mostly(r, &cores, &hostile_cores)),
                    ("--memory-budget", &|r| {
                        mostly(r, &["4G"], &["0", "1K", "x"])
                    }),
                ],
            );
            if rng.gen_bool(0.7) {
                let sizes = ["0", "1", "4", "12", "16"];
                let hostile = ["29", "32", "33", "64", "18446744073709551615"];
                push(&mut a, "--random", mostly(rng, &sizes, &hostile));
            } else {
                push(&mut a, "--input", file(rng, f));
            }
            if rng.gen_bool(0.3) {
                push(
                    &mut a,
                    "--output",
                    one_of(rng, &["/nonexistent/dir/out.txt"]),
                );
            }
            if rng.gen_bool(0.3) {
                let trace = if rng.gen_bool(0.5) {
                    f.fresh(rng)
                } else {
                    "/nonexistent/dir/trace.jsonl".to_owned()
                };
                push(&mut a, "--trace", trace);
            }
            flag(rng, &mut a, "--inverse");
            flag(rng, &mut a, "--coset");
            flag(rng, &mut a, "--radix2");
        }
        "model amaze" => {
            options(
                rng,
                &mut a,
                &[
                    ("--design", &|r| {
                        mostly(r, &["AMZ-1", "AMZ-2b"], &["AMZ-9", ""])
                    }),
                    ("--config", &|r| {
                        if r.gen_bool(0.5) {
                            f.path("model-huge.json")
                        } else {
                            file(r, f)
                        }
                    }),
                ],
            );
            flag(rng, &mut a, "--json");
        }
        "model unizk" | "model unizk sweep" => {
            if sub.ends_with("sweep") {
                push(&mut a, "--out", f.fresh(rng));
                options(
                    rng,
                    &mut a,
                    &[("--param", &|r| {
                        mostly(
                            r,
                            &["vsas=16,32", "spm_mb=1,8", "bw_tbps=0.5,2"],
                            &["vsas=", "vsas=0,1", "x=1", "vsas=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65"],
                        )
                    })],
                );
            }
            push(
                &mut a,
                "--trace",
                if rng.gen_bool(0.6) {
                    f.path(&one_of(
                        rng,
                        &["trace.jsonl", "trace-huge.jsonl", "trace-reordered.jsonl"],
                    ))
                } else {
                    file(rng, f)
                },
            );
            options(
                rng,
                &mut a,
                &[
                    ("--mode", &|r| {
                        mostly(r, &["paper", "unizk-sim"], &["fast", ""])
                    }),
                    ("--set", &|r| {
                        mostly(
                            r,
                            &["vsas=64", "spm_mb=2", "bw_tbps=0.5", "batch=0"],
                            &["vsas=0", "x", "array=7", "bw_tbps=1e999", "spm_mb=-1", "=1"],
                        )
                    }),
                ],
            );
            flag(rng, &mut a, "--json");
        }
        "hw amaze-vectors" => {
            push(&mut a, "--out", f.fresh(rng));
            let hostile = ["4294967296", "18446744073709551615", "-1"];
            options(
                rng,
                &mut a,
                &[
                    ("--count", &|r| mostly(r, &["0", "1", "10"], &hostile)),
                    ("--hashes", &|r| mostly(r, &["0", "1", "3"], &hostile)),
                    ("--seed", &number),
                ],
            );
        }
        "hw mont-vectors" => {
            push(&mut a, "--out", f.fresh(rng));
            options(
                rng,
                &mut a,
                &[
                    ("--width", &|r| {
                        mostly(r, &["256", "384"], &["255", "512", "", "-384"])
                    }),
                    ("--count", &|r| {
                        mostly(r, &["1", "7", "50"], &["0", "4294967296", "-1", "1e6"])
                    }),
                    ("--seed", &number),
                ],
            );
        }
        "hw acclmt-tree-vectors" => {
            push(&mut a, "--out", f.fresh(rng));
            options(
                rng,
                &mut a,
                &[
                    ("--preset", &|r| {
                        mostly(r, &["neptune", "circomlib"], &["reference", ""])
                    }),
                    ("--log-leaves", &|r| {
                        mostly(r, &["1", "4", "6"], &["0", "19", "-1", "4294967296"])
                    }),
                    ("--depth", &|r| {
                        mostly(r, &["1", "2", "3"], &["0", "19", "-2", "99999999999"])
                    }),
                    ("--arity", &|r| {
                        mostly(r, &["2", "3", "4", "11"], &["0", "1", "12", "-3", "x"])
                    }),
                    ("--seed", &number),
                ],
            );
        }
        "hw acclmt-vectors" => {
            push(&mut a, "--out", f.fresh(rng));
            options(
                rng,
                &mut a,
                &[
                    ("--preset", &|r| {
                        mostly(r, &["neptune", "circomlib", "reference"], &["plonky2", ""])
                    }),
                    ("--arity", &|r| {
                        mostly(r, &["2", "4", "11"], &["0", "1", "12", "-1"])
                    }),
                    ("--field", &|r| {
                        mostly(r, &["bls12-381", "bn254"], &["bls12-381-fq", ""])
                    }),
                    ("--alpha", &|r| {
                        mostly(r, &["3", "5", "7"], &["0", "9", "-1"])
                    }),
                    ("--full-rounds", &|r| {
                        mostly(r, &["2", "8"], &["0", "65", "-2"])
                    }),
                    ("--partial-rounds", &|r| {
                        mostly(r, &["1", "56"], &["0", "201", "4294967296"])
                    }),
                    ("--count", &|r| {
                        mostly(r, &["1", "5"], &["0", "4294967296", "-1", "1e6"])
                    }),
                    ("--seed", &number),
                ],
            );
        }
        "hw acclmt-sbox-vectors" => {
            push(&mut a, "--out", f.fresh(rng));
            options(
                rng,
                &mut a,
                &[
                    ("--field", &|r| {
                        mostly(r, &["bls12-381", "bn254"], &["goldilocks", ""])
                    }),
                    ("--alpha", &|r| {
                        mostly(r, &["3", "5", "7"], &["4", "6", "0", "8", "-3"])
                    }),
                    ("--count", &|r| {
                        mostly(r, &["1", "5"], &["0", "1000001", "-1", "1e6"])
                    }),
                    ("--seed", &number),
                ],
            );
        }
        "model acclmt" => {
            options(
                rng,
                &mut a,
                &[
                    ("--hashes", &|r| {
                        mostly(r, &["1", "64", "100"], &["0", "4294967296", "-1", "1e12"])
                    }),
                    ("--alpha", &|r| mostly(r, &["5", "7"], &["4", "0", "-7"])),
                    ("--full-rounds", &|r| mostly(r, &["8"], &["7", "0", "300"])),
                    ("--partial-rounds", &|r| {
                        mostly(r, &["56"], &["1", "200", "-1"])
                    }),
                    ("--batch", &|r| {
                        mostly(r, &["16", "32"], &["0", "3", "4096"])
                    }),
                    ("--slot-gap", &|r| mostly(r, &["0", "1"], &["256", "-1"])),
                    ("--handover-gap", &|r| mostly(r, &["0", "9"], &["1000"])),
                    ("--mul-latency", &|r| mostly(r, &["0", "1"], &["17", "-1"])),
                    ("--clock-mhz", &|r| {
                        mostly(r, &["500"], &["nan", "-1", "0", "inf"])
                    }),
                    ("--leaves", &|r| {
                        mostly(
                            r,
                            &["4096", "16384"],
                            &["0", "3", "1099511627776", "-1", "8388609"],
                        )
                    }),
                    ("--bandwidth-gbps", &|r| {
                        mostly(
                            r,
                            &["0.87", "19.2"],
                            &["nan", "0", "-1", "inf", "1e300", "1e-300"],
                        )
                    }),
                    ("--subtree-leaves", &|r| {
                        mostly(r, &["4096", "1024"], &["0", "7", "1099511627776"])
                    }),
                    ("--scratch-pad-nodes", &|r| {
                        mostly(r, &["128", "64"], &["0", "3", "1048576"])
                    }),
                    ("--level0-subtrees", &|r| {
                        mostly(r, &["128"], &["0", "1099511627776"])
                    }),
                    ("--level1-entries", &|r| {
                        mostly(r, &["16", "1"], &["0", "5"])
                    }),
                    ("--bytes-per-cycle", &|r| {
                        mostly(
                            r,
                            &["1.74", "32"],
                            &["nan", "0", "-1", "inf", "1e300", "0.001", ""],
                        )
                    }),
                ],
            );
            flag(rng, &mut a, "--cycle-exact");
            flag(rng, &mut a, "--baseline");
            flag(rng, &mut a, "--no-merger");
            flag(rng, &mut a, "--json");
        }
        "hw ntt-vectors" => {
            push(&mut a, "--out", f.fresh(rng));
            options(
                rng,
                &mut a,
                &[
                    ("--field", &|r| {
                        mostly(
                            r,
                            &["bn254-fr", "bls12-377-fq"],
                            &["bls12-381-fq", "", "-1"],
                        )
                    }),
                    ("--log-points", &|r| {
                        mostly(r, &["2", "4", "6"], &["0", "1", "13", "64", "-3"])
                    }),
                    ("--subtasks", &|r| {
                        mostly(r, &["1", "3"], &["0", "65537", "4294967296", "-1"])
                    }),
                    ("--seed", &number),
                ],
            );
        }
        "hw ntt-four-step-vectors" => {
            push(&mut a, "--out", f.fresh(rng));
            options(
                rng,
                &mut a,
                &[
                    ("--field", &|r| {
                        mostly(r, &["bn254-fr", "bls12-381-fr"], &["goldilocks", ""])
                    }),
                    ("--log-n", &|r| {
                        mostly(r, &["4", "6", "8"], &["5", "2", "22", "-4"])
                    }),
                    ("--seed", &number),
                ],
            );
        }
        "model ntt-fpga" => {
            options(
                rng,
                &mut a,
                &[
                    ("--log-points", &|r| {
                        mostly(r, &["4", "8"], &["0", "1", "17", "-1"])
                    }),
                    ("--pipelines", &|r| {
                        mostly(r, &["1", "4"], &["0", "1025", "-2"])
                    }),
                    ("--mul-latency", &|r| {
                        mostly(r, &["0", "5"], &["65", "4294967296"])
                    }),
                    ("--width", &|r| {
                        mostly(r, &["256", "384"], &["0", "100", "-64"])
                    }),
                    ("--points", &|r| {
                        mostly(r, &["4096", "65536"], &["0", "100", "18446744073709551615"])
                    }),
                    ("--clock-mhz", &|r| {
                        mostly(r, &["68", "250.5"], &["0", "-1", "NaN", "inf"])
                    }),
                ],
            );
            if rng.gen_bool(0.3) {
                let sweeps = ["pipelines=1,2,4", "core=ours,pipezk", "mul_latency=0,5"];
                let hostile = [
                    "pipelines=",
                    "x=1",
                    "points=18446744073709551615",
                    "log_points=1,2,99",
                    "clock_mhz=0,NaN",
                    "width=64,100",
                ];
                push(&mut a, "--sweep", mostly(rng, &sweeps, &hostile));
                let out = if rng.gen_bool(0.8) {
                    f.fresh(rng)
                } else {
                    "/nonexistent/dir".to_owned()
                };
                push(&mut a, "--out", out);
            }
            if rng.gen_bool(0.4) {
                let traces = ["trace-wide.jsonl", "trace-wide-huge.jsonl", "trace.jsonl"];
                let trace = if rng.gen_bool(0.7) {
                    f.path(&one_of(rng, &traces))
                } else {
                    file(rng, f)
                };
                push(&mut a, "--trace", trace);
            }
            flag(rng, &mut a, "--pipezk");
            flag(rng, &mut a, "--json");
        }
        other => panic!("no grammar for {other}"),
    }
    // Half the model lines in the spelling with an action, half in the old one (which still
    // works for a release): both reach the same runs.
    if sub.starts_with("model ") && sub != "model unizk sweep" && rng.gen_bool(0.5) {
        return with_action(&a);
    }
    a
}

/// A `zkaccel model <paper> …` line of the old spelling in the spelling with an action
/// (`tables`, `run`, `replay`, `sweep`), as `model_legacy` maps it.
fn with_action(old: &[String]) -> Vec<String> {
    let has = |flag: &str| old.iter().any(|a| a == flag);
    let action = match old[1].as_str() {
        "amaze" if has("--config") => "run",
        "amaze" => "tables",
        "unizk" => "replay",
        "ntt-fpga" | "acclmt" if has("--sweep") => "sweep",
        "ntt-fpga" | "acclmt" if has("--trace") => "replay",
        "ntt-fpga" if has("--log-points") => "run",
        "acclmt" if has("--leaves") || has("--hashes") => "run",
        "ntt-fpga" | "acclmt" => "tables",
        _ => return old.to_vec(),
    };
    let mut new = vec![old[0].clone(), old[1].clone(), action.to_owned()];
    for arg in &old[2..] {
        match arg.as_str() {
            "--sweep" => new.push("--param".to_owned()),
            "--out" => new.push("--output".to_owned()),
            "--pipezk" | "--pipelined" => {
                new.push("--core".to_owned());
                new.push(arg.trim_start_matches("--").to_owned());
            }
            _ => new.push(arg.clone()),
        }
    }
    new
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `zkaccel args` under the time and memory limits; `None` when it ran out of time.
fn run_bounded(args: &[String]) -> Option<std::process::Output> {
    let bin: PathBuf = assert_cmd::cargo::cargo_bin("zkaccel");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_LIMIT_KIB}; exec \"$0\" \"$@\""))
        .arg(&bin)
        .args(args)
        .env("RAYON_NUM_THREADS", "2")
        .timeout(TIME_LIMIT)
        .output()
        .unwrap();
    // assert_cmd ends a run that outlives its timeout with a kill: no exit code then.
    (out.status.code().is_some() || !timed_out(&out)).then_some(out)
}

fn timed_out(out: &std::process::Output) -> bool {
    use std::os::unix::process::ExitStatusExt;
    out.status.signal() == Some(9)
}

#[test]
fn hostile_arguments_end_in_bounded_time_with_a_typed_error() {
    let files = Files::new();
    let cases = env_number("ZKACCEL_CLI_FUZZ_CASES", 12);
    let seed = env_number("ZKACCEL_CLI_FUZZ_SEED", 26);
    let mut rng = StdRng::seed_from_u64(seed);
    let subcommands = [
        "field mul",
        "field info",
        "mimc cipher",
        "mimc hash",
        "poseidon hash",
        "poseidon params",
        "merkle build",
        "merkle open",
        "merkle verify",
        "ntt",
        "prove",
        "verify",
        "model amaze",
        "model unizk",
        "model unizk sweep",
        "hw amaze-vectors",
        "hw mont-vectors",
        "hw ntt-vectors",
        "hw ntt-four-step-vectors",
        "hw acclmt-vectors",
        "hw acclmt-tree-vectors",
        "hw acclmt-sbox-vectors",
        "model acclmt",
        "model ntt-fpga",
    ];
    let mut seen = std::collections::BTreeMap::<(String, i32), usize>::new();
    for sub in subcommands {
        for _ in 0..cases {
            let args = case(sub, &mut rng, &files);
            let shown = shorten(&args);
            let Some(out) = run_bounded(&args) else {
                panic!("no answer within {TIME_LIMIT:?}: zkaccel {shown}");
            };
            let stderr = String::from_utf8_lossy(&out.stderr);
            let code = out.status.code().unwrap_or_else(|| {
                panic!(
                    "ended by a signal ({:?}): zkaccel {shown}\n{stderr}",
                    out.status
                )
            });
            assert!(
                !stderr.contains("panicked"),
                "panic: zkaccel {shown}\n{stderr}"
            );
            assert!(
                matches!(code, 0..=2),
                "exit {code}: zkaccel {shown}\n{stderr}"
            );
            if code != 0 {
                assert!(
                    !stderr.trim().is_empty(),
                    "exit {code} without a message: zkaccel {shown}"
                );
            }
            if std::env::var_os("ZKACCEL_CLI_FUZZ_VERBOSE").is_some() {
                eprintln!(
                    "{code} zkaccel {shown}: {}",
                    stderr.lines().next().unwrap_or("")
                );
            }
            *seen.entry((sub.to_owned(), code)).or_default() += 1;
        }
    }
    eprintln!("outcomes (subcommand, exit status) -> runs: {seen:?}");
    // The pools reach both outcomes for the subcommands that do work.
    for sub in ["merkle build", "ntt", "poseidon params"] {
        let total: usize = (0..=2).filter_map(|c| seen.get(&(sub.to_owned(), c))).sum();
        assert!(
            seen.get(&(sub.to_owned(), 2)).copied().unwrap_or(0) > 0 || total < 8,
            "{sub}: no case was rejected as bad input: {seen:?}"
        );
    }
}

/// The arguments for a message, long values cut.
fn shorten(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.len() > 60 {
                // At most 40 characters (a byte index could cut one in two).
                let head: String = a.chars().take(40).collect();
                format!("{head}…({} bytes)", a.len())
            } else {
                format!("{a:?}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
