//! The shape front end: a plonky2 circuit's shape numbers expand to the kernels of plonky2
//! 1.1.0's `prove()`, with the sizes the configuration implies (computed here from the FRI
//! and circuit parameters, not read back from the front end), and hostile shapes are refused.

use proptest::prelude::*;
use zkaccel_kernel_trace::{validate, CircuitShape, Kernel, Phase, TraceError};

/// UniZK's Fibonacci as plonky2 1.1.0 built it (`crates/hwmodel/shapes`).
const FIBONACCI: &str = include_str!("../../hwmodel/shapes/plonky2-fibonacci.json");
const FACTORIAL: &str = include_str!("../../hwmodel/shapes/plonky2-factorial.json");

#[test]
fn the_fibonacci_shape_expands_to_plonky2s_prove() {
    let shape = CircuitShape::from_json(FIBONACCI).unwrap();
    // The numbers UniZK's simulator printed for this circuit (notes §1.5, §1.7).
    assert_eq!(shape.degree_bits, 16);
    assert_eq!((shape.num_wires, shape.num_routed_wires), (135, 80));
    assert_eq!(shape.fri.reduction_arity_bits, [4, 4, 4]);
    assert_eq!(shape.quotient_degree_factor, 8);
    assert_eq!(
        shape.gates.iter().map(|g| g.constraints).sum::<u64>(),
        20 + 2 + 4 + 123
    );
    let records = shape.kernels().unwrap();
    validate(&records).unwrap();
    let lde_bits = 16 + 3;
    // Four initial trees of 2^19 leaves (wires 135; Zs and partial products 2·10; quotient
    // chunks 2·8), then one per reduction with leaves of 2^4 extension elements.
    let trees: Vec<(u32, u64)> = records
        .iter()
        .filter_map(|r| match &r.kernel {
            Kernel::Merkle {
                log_leaves,
                leaf_width,
                ..
            } => Some((*log_leaves, *leaf_width)),
            _ => None,
        })
        .collect();
    assert_eq!(
        trees,
        [
            (lde_bits, 135),
            (lde_bits, 20),
            (lde_bits, 16),
            (lde_bits - 4, 32),
            (lde_bits - 8, 32),
            (lde_bits - 12, 32)
        ]
    );
    // Interpolations of the wires and Zs (2^16), the quotient's coset interpolation (2^19 =
    // 2^16 · 8), LDEs to 2^19, the codeword's LDE in the extension, the final polynomial.
    let ntts: Vec<(u32, u64, bool)> = records
        .iter()
        .filter_map(|r| match &r.kernel {
            Kernel::Ntt {
                log_n,
                batch,
                inverse,
                ..
            } => Some((*log_n, *batch, *inverse)),
            _ => None,
        })
        .collect();
    assert_eq!(
        ntts,
        [
            (16, 135, true),
            (19, 135, false),
            (16, 20, true),
            (19, 20, false),
            (19, 2, true),
            (19, 16, false),
            (19, 1, false),
            (7, 1, true)
        ]
    );
    // One division by X − z per opening point, as scans of 2^16 coefficients.
    let scans = records
        .iter()
        .filter(|r| {
            matches!(
                r.kernel,
                Kernel::Vector {
                    scan: true,
                    len: 65536,
                    ..
                }
            )
        })
        .count();
    assert_eq!(scans, 2);
    // The quotient's points gather rows and run every gate's program.
    let quotient = records.iter().find(|r| r.phase == Phase::QUOTIENT).unwrap();
    let Kernel::Vector {
        len,
        gather_bytes,
        ops,
        ..
    } = &quotient.kernel
    else {
        panic!("{quotient:?}")
    };
    assert_eq!(*len, 1 << 19);
    assert!(*gather_bytes > 0);
    // plonky2's `compute_quotient_polys` at rate 3 and quotient degree 8 (step 1, next point
    // 8 on): rows of constants (`CommonCircuitData::num_constants` 4: two selectors and the
    // gates' two constants) and sigmas (80 routed wires), of the 135 wires, of the Zs and
    // partial products (2 × (1 + 9)), and the next point's 2 Zs from that matrix; each read
    // from its row's start up to its last element's first byte.
    let Kernel::Vector { gathers, .. } = &quotient.kernel else {
        unreachable!()
    };
    let rows: Vec<(u32, u32, u64, u64, u64)> = gathers
        .iter()
        .map(|g| (g.log_rows, g.stride_log, g.pitch_bytes, g.bytes, g.shift))
        .collect();
    assert_eq!(
        rows,
        [
            (19, 0, 84 * 8, 83 * 8 + 1, 0),
            (19, 0, 135 * 8, 134 * 8 + 1, 0),
            (19, 0, 20 * 8, 19 * 8 + 1, 0),
            (19, 0, 20 * 8, 8 + 1, 8),
        ]
    );
    assert!(
        ops.len() > 2352 + 2011,
        "the Poseidon gate alone is 4,363 ops"
    );
    // It names the gates its program evaluates, in the circuit's order.
    let Kernel::Vector { gates, .. } = &quotient.kernel else {
        unreachable!()
    };
    let gates: Vec<(&str, u64)> = gates
        .iter()
        .map(|g| (g.gate.split([' ', '(']).next().unwrap(), g.constraints))
        .collect();
    assert_eq!(
        gates,
        [
            ("NoopGate", 0),
            ("ConstantGate", 2),
            ("PublicInputGate", 4),
            ("ArithmeticGate", 20),
            ("PoseidonGate", 123)
        ]
    );
    // Grinding 16 bits, 28 queries.
    assert!(records.iter().any(|r| matches!(
        r.kernel,
        Kernel::Grind {
            pow_bits: 16,
            permutations: 65536,
            ..
        }
    )));
    assert!(records.iter().any(|r| matches!(
        r.kernel,
        Kernel::Sponge {
            squeezed: 28,
            absorbed: 0,
            ..
        }
    )));
    // The public inputs (x0, x1 and the result) hashed before the transcript starts.
    let first = &records[0];
    assert!(
        matches!(
            first.kernel,
            Kernel::Sponge {
                absorbed: 3,
                squeezed: 4,
                permutations: 1,
                ..
            }
        ),
        "{first:?}"
    );
}

#[test]
fn the_factorial_shape_is_the_same_circuit_at_degree_2_20() {
    let fib = CircuitShape::from_json(FIBONACCI).unwrap();
    let fac = CircuitShape::from_json(FACTORIAL).unwrap();
    assert_eq!(fac.degree_bits, 20);
    assert_eq!(fac.fri.reduction_arity_bits, [4, 4, 4, 4]);
    assert_eq!(fac.gates, fib.gates);
    let records = fac.kernels().unwrap();
    validate(&records).unwrap();
    let trees = records
        .iter()
        .filter(|r| matches!(r.kernel, Kernel::Merkle { .. }))
        .count();
    assert_eq!(trees, 3 + 4);
}

fn refused(text: &str) -> bool {
    matches!(
        CircuitShape::from_json(text),
        Err(TraceError::Parse { .. } | TraceError::Invalid { .. })
    )
}

#[test]
fn hostile_shapes_are_refused_with_typed_errors() {
    let good: serde_json::Value = serde_json::from_str(FIBONACCI).unwrap();
    let with = |path: &[&str], value: serde_json::Value| {
        let mut v = good.clone();
        let mut at = &mut v;
        for key in &path[..path.len() - 1] {
            at = &mut at[*key];
        }
        at[path[path.len() - 1]] = value;
        v.to_string()
    };
    use serde_json::json;
    for bad in [
        with(&["format"], json!("zkaccel-trace")),
        with(&["version"], json!(2)),
        with(&["degree_bits"], json!(0)),
        with(&["degree_bits"], json!(64)),
        with(&["degree_bits"], json!(4294967296u64)),
        with(&["num_wires"], json!(0)),
        with(&["num_wires"], json!(18446744073709551615u64)),
        with(&["num_routed_wires"], json!(136)),
        // Eight public inputs hash per row: 2^16 rows hold at most 2^19.
        with(&["num_public_inputs"], json!((8u64 << 16) + 1)),
        with(&["num_challenges"], json!(0)),
        with(&["num_challenges"], json!(1000)),
        with(&["quotient_degree_factor"], json!(16)),
        with(&["gates"], json!([])),
        with(&["fri", "rate_bits"], json!(0)),
        with(&["fri", "cap_height"], json!(40)),
        with(&["fri", "num_query_rounds"], json!(0)),
        with(&["fri", "reduction_arity_bits"], json!([4, 4, 4, 4, 4])),
        with(&["fri", "reduction_arity_bits"], json!([0])),
        with(&["fri", "proof_of_work_bits"], json!(64)),
        with(&["extra"], json!(1)),
        "{".into(),
        "null".into(),
        "[]".into(),
        String::new(),
    ] {
        assert!(refused(&bad), "accepted: {bad:.200}");
    }
    let mut huge = good.clone();
    huge["gates"][0]["muls"] = json!(1u64 << 40);
    assert!(refused(&huge.to_string()));
    assert!(!refused(&with(&["num_public_inputs"], json!(8u64 << 16))));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any byte flip or truncation of a shape file is refused or expands to a valid trace.
    #[test]
    fn flipped_or_truncated_shapes_are_refused_or_valid(
        at in 0usize..FIBONACCI.len(),
        byte in any::<u8>(),
        cut in any::<bool>(),
    ) {
        let mut bytes = FIBONACCI.as_bytes().to_vec();
        if cut {
            bytes.truncate(at);
        } else {
            bytes[at] = byte;
        }
        let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
        if let Ok(shape) = CircuitShape::from_json(&text) {
            let records = shape.kernels().unwrap();
            prop_assert!(validate(&records).is_ok());
        }
    }
}
