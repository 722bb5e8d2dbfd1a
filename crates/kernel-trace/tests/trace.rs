//! The schema round-trips, and a hostile trace is refused with a typed error.

use proptest::prelude::*;
use zkaccel_kernel_trace::{
    read_jsonl, validate, write_jsonl, CpuTime, GateEvaluation, Kernel, KernelRecord, LeafLayout,
    NttLayout, NttOrder, TraceError, TraceField, VectorForm, VectorOp, VectorOpKind,
    SCHEMA_VERSION,
};

fn kernels() -> Vec<Kernel> {
    let hash = "poseidon-goldilocks-12".to_string();
    vec![
        Kernel::Ntt {
            field: TraceField::Goldilocks2,
            log_n: 20,
            batch: 3,
            inverse: false,
            coset: true,
            order: NttOrder::Nr,
            layout: NttLayout::IndexMajor,
            zero_log: 3,
        },
        Kernel::Merkle {
            hash: hash.clone(),
            log_leaves: 21,
            leaf_width: 135,
            cap_height: 4,
            arity: 2,
            leaf_layout: LeafLayout::Rows,
        },
        Kernel::Sponge {
            hash: hash.clone(),
            absorbed: 64,
            squeezed: 2,
            permutations: 8,
        },
        Kernel::Grind {
            hash,
            pow_bits: 16,
            permutations: 65_536,
        },
        Kernel::Vector {
            field: TraceField::Goldilocks,
            len: 1 << 21,
            ops: vec![
                VectorOp {
                    op: VectorOpKind::Mul,
                    form: VectorForm::Vs,
                    ext: 2,
                },
                VectorOp {
                    op: VectorOpKind::Inv,
                    form: VectorForm::Vv,
                    ext: 1,
                },
            ],
            in_bytes: 16 << 21,
            out_bytes: 8 << 21,
            gather_bytes: 16,
            gathers: vec![zkaccel_kernel_trace::RowGather {
                log_rows: 22,
                stride_log: 1,
                pitch_bytes: 160,
                bytes: 9,
                shift: 8,
            }],
            scan: true,
            gates: vec![GateEvaluation {
                gate: "ArithmeticGate { num_ops: 20 }".into(),
                constraints: 20,
            }],
        },
        Kernel::PartialProducts {
            field: TraceField::Goldilocks,
            rows: 1 << 12,
            columns: 80,
            degree: 8,
        },
        Kernel::Transpose {
            rows: 1 << 21,
            cols: 2,
            elem_bytes: 8,
        },
        Kernel::Copy { bytes: 4096 },
        Kernel::Mimc {
            field: TraceField::Bn254,
            rounds: 91,
            exponent: 7,
            count: 1000,
        },
    ]
}

fn trace() -> Vec<KernelRecord> {
    kernels()
        .into_iter()
        .enumerate()
        .map(|(i, kernel)| KernelRecord {
            version: SCHEMA_VERSION,
            id: i as u64,
            deps: (0..i as u64).filter(|d| d % 2 == 0).collect(),
            phase: "fri-commit".into(),
            kernel,
            cpu: (i % 2 == 0).then_some(CpuTime {
                wall_ns: 1000 * i as u64,
                threads: 2,
            }),
        })
        .collect()
}

fn jsonl(records: &[KernelRecord]) -> String {
    let mut out = Vec::new();
    write_jsonl(records, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn every_kind_round_trips_with_the_spec_field_names() {
    let records = trace();
    let text = jsonl(&records);
    assert_eq!(read_jsonl(text.as_bytes()).unwrap(), records);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = lines.iter().map(|v| v["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "ntt",
            "merkle",
            "sponge",
            "grind",
            "vector",
            "partial-products",
            "transpose",
            "copy",
            "mimc"
        ]
    );
    // The spec's shape fields, flat beside id/deps/phase/kind.
    assert_eq!(lines[0]["order"], "nr");
    assert_eq!(lines[0]["layout"], "index-major");
    assert_eq!(lines[0]["zero_log"], 3);
    assert_eq!(lines[1]["leaf_layout"], "rows");
    assert_eq!(lines[4]["ops"][0]["form"], "vs");
    assert_eq!(lines[4]["ops"][1]["op"], "inv");
    assert_eq!(lines[4]["gathers"][0]["pitch_bytes"], 160);
    assert_eq!(lines[4]["gathers"][0]["stride_log"], 1);
    assert!(lines[0].get("gathers").is_none(), "omitted where empty");
    assert_eq!(lines[4]["gates"][0]["constraints"], 20);
    assert!(lines[0].get("gates").is_none(), "omitted where empty");
    assert_eq!(lines[8]["field"], "bn254");
    assert_eq!(lines[0]["cpu"]["threads"], 2);
    assert!(lines[1].get("cpu").is_none());
}

#[test]
fn hand_written_lines_in_the_spec_vocabulary_parse() {
    let text = r#"{"version":1,"id":0,"deps":[],"phase":"trace-commit","kind":"ntt","field":"bls12-381","log_n":4,"batch":1,"inverse":true,"coset":false,"order":"rn","layout":"poly-major","zero_log":0}

{"version":1,"id":1,"deps":[0],"phase":"challenger","kind":"sponge","hash":"poseidon-bn254-3","absorbed":2,"squeezed":1,"permutations":1,"cpu":{"wall_ns":5,"threads":1}}
"#;
    let records = read_jsonl(text.as_bytes()).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].deps, [0]);
}

fn refused(records: &[KernelRecord]) -> TraceError {
    let err = validate(records).unwrap_err();
    // The same verdict through the reader.
    assert!(read_jsonl(jsonl(records).as_bytes()).is_err());
    err
}

#[test]
fn broken_traces_are_refused_by_record() {
    let good = trace();
    let mut t = good.clone();
    t[3].id = 7;
    assert!(matches!(refused(&t), TraceError::Invalid { id: 3, .. }));
    let mut t = good.clone();
    t[2].deps = vec![2];
    assert!(matches!(refused(&t), TraceError::Invalid { id: 2, .. }));
    let mut t = good.clone();
    t[4].deps = vec![2, 0];
    assert!(matches!(refused(&t), TraceError::Invalid { id: 4, .. }));
    let mut t = good.clone();
    t[1].version = 2;
    assert!(matches!(refused(&t), TraceError::Version { found: 2, .. }));
    for phase in ["", "Trace", "fri--commit", "fri commit", "-x"] {
        let mut t = good.clone();
        t[0].phase = phase.into();
        assert!(
            matches!(refused(&t), TraceError::Invalid { id: 0, .. }),
            "{phase:?}"
        );
    }
    let mut t = good.clone();
    t[0].cpu = Some(CpuTime {
        wall_ns: 1,
        threads: 0,
    });
    assert!(matches!(refused(&t), TraceError::Invalid { id: 0, .. }));
}

#[test]
fn impossible_shapes_are_refused() {
    let shapes = [
        r#""kind":"ntt","field":"goldilocks","log_n":64,"batch":1,"inverse":false,"coset":false,"order":"nn","layout":"poly-major","zero_log":0"#,
        r#""kind":"ntt","field":"goldilocks","log_n":4,"batch":0,"inverse":false,"coset":false,"order":"nn","layout":"poly-major","zero_log":0"#,
        r#""kind":"ntt","field":"goldilocks","log_n":4,"batch":1,"inverse":false,"coset":false,"order":"nn","layout":"poly-major","zero_log":5"#,
        r#""kind":"merkle","hash":"h","log_leaves":4,"leaf_width":1,"cap_height":5,"arity":2,"leaf_layout":"rows""#,
        r#""kind":"merkle","hash":"h","log_leaves":4,"leaf_width":1,"cap_height":0,"arity":3,"leaf_layout":"rows""#,
        r#""kind":"merkle","hash":"","log_leaves":4,"leaf_width":1,"cap_height":0,"arity":2,"leaf_layout":"rows""#,
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[],"in_bytes":0,"out_bytes":0"#,
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":3}],"in_bytes":0,"out_bytes":0"#,
        // Gathered rows wider than their pitch, empty, from a matrix of other points, a stride
        // past the matrix, 2^64 rows.
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":0,"out_bytes":0,"gathers":[{"log_rows":2,"stride_log":0,"pitch_bytes":8,"bytes":9,"shift":0}]"#,
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":0,"out_bytes":0,"gathers":[{"log_rows":2,"stride_log":0,"pitch_bytes":8,"bytes":0,"shift":0}]"#,
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":0,"out_bytes":0,"gathers":[{"log_rows":3,"stride_log":0,"pitch_bytes":8,"bytes":8,"shift":0}]"#,
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":0,"out_bytes":0,"gathers":[{"log_rows":2,"stride_log":3,"pitch_bytes":8,"bytes":8,"shift":0}]"#,
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":0,"out_bytes":0,"gathers":[{"log_rows":64,"stride_log":62,"pitch_bytes":8,"bytes":8,"shift":0}]"#,
        // Gates with an empty id, an id past 1 KiB, more constraints than any gate has.
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":0,"out_bytes":0,"gates":[{"gate":"","constraints":1}]"#,
        &format!(
            r#""kind":"vector","field":"goldilocks","len":4,"ops":[{{"op":"add","form":"vv","ext":1}}],"in_bytes":0,"out_bytes":0,"gates":[{{"gate":"{}","constraints":1}}]"#,
            "G".repeat(1025)
        ),
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":0,"out_bytes":0,"gates":[{"gate":"G","constraints":262145}]"#,
        r#""kind":"sponge","hash":"h","absorbed":0,"squeezed":0,"permutations":0"#,
        r#""kind":"grind","hash":"h","pow_bits":3,"permutations":0"#,
        r#""kind":"transpose","rows":0,"cols":1,"elem_bytes":8"#,
        r#""kind":"copy","bytes":0"#,
    ];
    for shape in shapes {
        let line = format!(r#"{{"version":1,"id":0,"deps":[],"phase":"quotient",{shape}}}"#);
        let err = read_jsonl(line.as_bytes()).unwrap_err();
        assert!(
            matches!(err, TraceError::Invalid { id: 0, .. }),
            "{shape}: {err}"
        );
    }
}

#[test]
fn malformed_lines_name_their_line() {
    let good = jsonl(&trace()[..2]);
    let cases = [
        format!("{good}{{\"version\":1"),
        format!("{good}{{\"version\":1,\"id\":2,\"deps\":[],\"phase\":\"x\",\"kind\":\"fft\"}}"),
        format!("{good}{{\"version\":1,\"id\":2,\"deps\":[],\"phase\":\"x\",\"kind\":\"copy\",\"bytes\":-1}}"),
        format!("{good}{{\"version\":1,\"id\":2,\"deps\":[],\"phase\":\"x\",\"kind\":\"copy\",\"bytes\":1e3}}"),
        format!("{good}[]"),
        format!("{good}\u{0}"),
    ];
    for text in cases {
        match read_jsonl(text.as_bytes()) {
            Err(TraceError::Parse { line: 3, .. }) => {}
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn a_huge_line_is_refused_without_reading_it_all() {
    let mut text = vec![b' '; (1 << 20) + 10];
    text.push(b'\n');
    assert!(matches!(
        read_jsonl(text.as_slice()),
        Err(TraceError::Parse { line: 1, .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = read_jsonl(bytes.as_slice());
    }

    #[test]
    fn flipping_any_byte_of_a_trace_never_panics(at in 0usize..4096, bit in 0u8..8) {
        let mut text = jsonl(&trace()).into_bytes();
        let at = at % text.len();
        text[at] ^= 1 << bit;
        // Whatever survives reads back the same after writing.
        if let Ok(records) = read_jsonl(text.as_slice()) {
            prop_assert_eq!(read_jsonl(jsonl(&records).as_bytes()).unwrap(), records);
        }
    }
}

#[test]
fn numbers_near_two_to_the_64_are_refused_not_wrapped() {
    let ntt = r#""kind":"ntt","field":"goldilocks","batch":1,"inverse":false,"coset":false,"order":"nn","layout":"poly-major","zero_log":0"#;
    let cases = [
        // An id or a dependency at the top of the range.
        format!(
            r#"{{"version":1,"id":18446744073709551615,"deps":[],"phase":"q",{ntt},"log_n":4}}"#
        ),
        format!(
            r#"{{"version":1,"id":0,"deps":[18446744073709551615],"phase":"q",{ntt},"log_n":4}}"#
        ),
        // A log size past u32, and one past u64.
        format!(r#"{{"version":1,"id":0,"deps":[],"phase":"q",{ntt},"log_n":4294967296}}"#),
        format!(
            r#"{{"version":1,"id":0,"deps":[],"phase":"q",{ntt},"log_n":18446744073709551616}}"#
        ),
        format!(r#"{{"version":4294967296,"id":0,"deps":[],"phase":"q",{ntt},"log_n":4}}"#),
    ];
    for line in cases {
        assert!(read_jsonl(line.as_bytes()).is_err(), "{line}");
    }
}

/// A record moving more than 2^56 bytes, or a trace moving more than 2^60 in all, is refused
/// when read: the models' byte totals over a read trace cannot saturate.
#[test]
fn byte_volumes_past_any_memory_are_refused() {
    use zkaccel_kernel_trace::{MAX_KERNEL_BYTES, MAX_TRACE_BYTES};
    assert_eq!(MAX_KERNEL_BYTES, 1 << 56);
    assert_eq!(MAX_TRACE_BYTES, 1 << 60);
    let line = |id: u64, shape: &str| {
        format!(r#"{{"version":1,"id":{id},"deps":[],"phase":"quotient",{shape}}}"#) + "\n"
    };
    // 2^53 Goldilocks elements is 2^56 bytes: accepted; twice that, or 2^49 BN254 elements
    // times 2^3: refused.
    let at_limit = r#""kind":"ntt","field":"goldilocks","log_n":50,"batch":8,"inverse":false,"coset":false,"order":"nn","layout":"poly-major","zero_log":0"#;
    assert!(read_jsonl(line(0, at_limit).as_bytes()).is_ok());
    for shape in [
        r#""kind":"ntt","field":"goldilocks","log_n":50,"batch":9,"inverse":false,"coset":false,"order":"nn","layout":"poly-major","zero_log":0"#,
        r#""kind":"ntt","field":"bn254","log_n":62,"batch":18446744073709551615,"inverse":false,"coset":false,"order":"nn","layout":"poly-major","zero_log":0"#,
        r#""kind":"merkle","hash":"h","log_leaves":40,"leaf_width":18446744073709551615,"cap_height":0,"arity":2,"leaf_layout":"rows""#,
        r#""kind":"vector","field":"goldilocks","len":4,"ops":[{"op":"add","form":"vv","ext":1}],"in_bytes":18446744073709551615,"out_bytes":1"#,
        r#""kind":"transpose","rows":4294967296,"cols":4294967296,"elem_bytes":8"#,
        r#""kind":"copy","bytes":72057594037927937"#,
        r#""kind":"mimc","field":"bn254","rounds":91,"exponent":7,"count":18446744073709551615"#,
    ] {
        let err = read_jsonl(line(0, shape).as_bytes()).unwrap_err();
        assert!(err.to_string().contains("2^56"), "{shape}: {err}");
    }
    // Sixteen records at the limit are 2^60 bytes: accepted; a seventeenth is refused.
    let copy = format!(r#""kind":"copy","bytes":{}"#, MAX_KERNEL_BYTES);
    let text: String = (0..16).map(|i| line(i, &copy)).collect();
    assert!(read_jsonl(text.as_bytes()).is_ok());
    let text = text + &line(16, &copy);
    let err = read_jsonl(text.as_bytes()).unwrap_err();
    assert!(matches!(err, TraceError::Invalid { id: 16, .. }), "{err}");
    assert!(err.to_string().contains("2^60"), "{err}");
}

/// Each field is recognised by the modulus its own crate defines, and a field the schema does
/// not name (P-384, a 2^383 − 1 test field) is not mistaken for one.
#[test]
fn fields_are_named_by_their_moduli() {
    use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
    assert_eq!(
        TraceField::of_prime::<Goldilocks>(),
        Some(TraceField::Goldilocks)
    );
    assert_eq!(
        TraceField::of_extension::<Goldilocks, Goldilocks2>(),
        Some(TraceField::Goldilocks2)
    );
    assert_eq!(
        TraceField::of_prime::<zkaccel_bn254::Fr>(),
        Some(TraceField::Bn254)
    );
    assert_eq!(
        TraceField::of_prime::<zkaccel_bls12_381::Fr>(),
        Some(TraceField::Bls12381)
    );
    assert_eq!(
        TraceField::of_prime::<zkaccel_bls12_377::Fq>(),
        Some(TraceField::Bls12377Fq)
    );
    assert_eq!(
        TraceField::of_prime::<zkaccel_fp384::Fp384<zkaccel_fp384::NistP384>>(),
        None
    );
}

/// `NoTrace` never builds a description (the closure would panic) and hands out 0; a tracer
/// switched off at run time does the same; a recording one keeps each kernel with its time.
#[test]
fn sinks_build_descriptions_only_when_recording() {
    use std::time::{Duration, Instant};
    use zkaccel_kernel_trace::{KernelSink, NoTrace, Phase, Tracer};
    let never = || -> Kernel { panic!("a sink that keeps nothing built a description") };
    let mut none = NoTrace;
    assert!(!none.is_recording());
    assert_eq!(none.record(Phase::QUOTIENT, &[], Instant::now(), never), 0);
    assert_eq!(
        none.record_elapsed(Phase::QUOTIENT, &[], Duration::ZERO, never),
        0
    );
    assert_eq!(none.record_untimed(Phase::QUOTIENT, &[], never), 0);
    let mut off = Tracer::off();
    assert_eq!(off.record(Phase::QUOTIENT, &[], Instant::now(), never), 0);
    assert!(off.records().is_empty());
    // Through a `&mut` (how provers pass sinks down).
    fn untimed_through<K: KernelSink>(mut sink: K, describe: impl FnOnce() -> Kernel) -> u64 {
        sink.record_untimed(Phase::QUOTIENT, &[0], describe)
    }
    assert_eq!(untimed_through(&mut none, never), 0);

    let mut on = Tracer::recording();
    let copy = || Kernel::Copy { bytes: 64 };
    let first = on.record_elapsed(Phase::QUOTIENT, &[], Duration::from_nanos(7), copy);
    let second = untimed_through(&mut on, copy);
    assert_eq!((first, second), (0, 1));
    let records = on.records();
    assert_eq!(records[0].cpu.map(|c| c.wall_ns), Some(7));
    assert_eq!(records[1].cpu, None);
    assert_eq!(records[1].deps, vec![0]);
    validate(records).unwrap();
}
