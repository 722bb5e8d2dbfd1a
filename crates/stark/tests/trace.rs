//! Kernel traces of real proofs: valid under the schema, with the shapes the configuration
//! implies, and without changing the proof.

use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::{
    validate, Kernel, KernelClass, KernelRecord, NoTrace, NttOrder, Phase, TraceField, Tracer,
    VectorOpKind,
};
use zkaccel_plonky2::Plonky2Encoding as _;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_stark::{prove, Air, FactorialAir, FibonacciAir, StarkConfig};

type S = Plonky2Goldilocks;

fn ntts(records: &[KernelRecord]) -> Vec<(TraceField, u32, u64, bool, bool, u32)> {
    records
        .iter()
        .filter_map(|r| match r.kernel {
            Kernel::Ntt {
                field,
                log_n,
                batch,
                inverse,
                coset,
                order,
                zero_log,
                ..
            } => {
                assert_eq!(order, NttOrder::Nn);
                Some((field, log_n, batch, inverse, coset, zero_log))
            }
            _ => None,
        })
        .collect()
}

fn merkles(records: &[KernelRecord]) -> Vec<(u32, u64, u32)> {
    records
        .iter()
        .filter_map(|r| match &r.kernel {
            Kernel::Merkle {
                hash,
                log_leaves,
                leaf_width,
                cap_height,
                arity,
                ..
            } => {
                assert_eq!((hash.as_str(), *arity), ("poseidon-goldilocks-12", 2));
                Some((*log_leaves, *leaf_width, *cap_height))
            }
            _ => None,
        })
        .collect()
}

/// Proves with and without a tracer; the proofs must agree.
fn traced<A: Air>(
    air: &A,
    config: &StarkConfig,
    trace: Vec<Vec<Goldilocks>>,
    public_inputs: &[Goldilocks],
) -> Vec<KernelRecord> {
    let mut tracer = Tracer::recording();
    let with = prove::<_, S>(air, config, trace.clone(), public_inputs, &mut tracer).unwrap();
    let without = prove::<_, S>(air, config, trace, public_inputs, &mut NoTrace).unwrap();
    assert_eq!(with.to_bytes().unwrap(), without.to_bytes().unwrap());
    let records = tracer.into_records();
    validate(&records).unwrap();
    // Every hash is named by the permutation that runs it, as the UniZK model reads it
    // (`zkaccel_hwmodel::unizk::lower::POSEIDON_GOLDILOCKS`).
    for r in &records {
        if let Kernel::Sponge { hash, .. } | Kernel::Grind { hash, .. } = &r.kernel {
            assert_eq!(hash, "poseidon-goldilocks-12", "{r:?}");
        }
    }
    assert!(records
        .iter()
        .any(|r| matches!(r.kernel, Kernel::Grind { .. })));
    records
}

fn check_shapes<A: Air>(air: &A, config: &StarkConfig, log_rows: usize, records: &[KernelRecord]) {
    let fri = &config.fri_config;
    let (rate, cap) = (fri.rate_bits as u32, fri.cap_height as u32);
    let params = fri.params(log_rows, 32).unwrap();
    let lde = (log_rows + fri.rate_bits) as u32;
    let columns = air.columns() as u64;
    let challenges = config.num_challenges as u64;
    let qdf = air.quotient_degree_factor();
    let qdb = qdf.next_power_of_two().trailing_zeros();
    let quotient_polys = challenges * qdf as u64;
    let (g, g2) = (TraceField::Goldilocks, TraceField::Goldilocks2);

    let mut expected_ntts = vec![
        (g, log_rows as u32, columns, true, false, 0),
        (g, lde, columns, false, true, rate),
        (g, log_rows as u32 + qdb, challenges, true, true, 0),
        (g, lde, quotient_polys, false, true, rate),
        (g2, lde, 1, false, true, rate),
    ];
    let mut expected_merkles = vec![(lde, columns, cap), (lde, quotient_polys, cap)];
    let mut log = lde;
    let layers = params.reduction_arity_bits.len();
    for (k, &bits) in params.reduction_arity_bits.iter().enumerate() {
        expected_merkles.push((log - bits as u32, 2 << bits, cap));
        log -= bits as u32;
        if k + 1 < layers {
            expected_ntts.push((g2, log, 1, false, true, rate));
        }
    }
    assert_eq!(ntts(records), expected_ntts);
    assert_eq!(merkles(records), expected_merkles);

    let grind: Vec<_> = records
        .iter()
        .filter_map(|r| match r.kernel {
            Kernel::Grind {
                pow_bits,
                permutations,
                ..
            } => Some((pow_bits, permutations)),
            _ => None,
        })
        .collect();
    assert_eq!(grind.len(), 1);
    assert_eq!(grind[0].0, fri.proof_of_work_bits);
    assert!(grind[0].1 >= 1024 && grind[0].1 % 1024 == 0);

    // The quotient's evaluation covers the 2^qdb-times larger coset, its program holds the
    // AIR's products and one product by 1/Z_H per challenge.
    let evaluation = records
        .iter()
        .find(|r| r.phase == Phase::QUOTIENT && matches!(r.kernel, Kernel::Vector { .. }))
        .unwrap();
    let Kernel::Vector { len, ops, .. } = &evaluation.kernel else {
        unreachable!()
    };
    assert_eq!(*len, 1 << (log_rows as u32 + qdb));
    assert!(ops.iter().filter(|o| o.op == VectorOpKind::Mul).count() as u64 > challenges);

    // Phases in protocol order, each kernel timed but the batch inversions.
    let phases: Vec<&str> = records.iter().map(|r| r.phase.as_str()).collect();
    let first = |p: &str| phases.iter().position(|q| *q == p).unwrap();
    assert!(first(Phase::TRACE_CHECK) < first(Phase::TRACE_COMMIT));
    assert!(first(Phase::TRACE_COMMIT) < first(Phase::QUOTIENT));
    assert!(first(Phase::QUOTIENT) < first(Phase::QUOTIENT_COMMIT));
    assert!(first(Phase::QUOTIENT_COMMIT) < first(Phase::OPENINGS));
    assert!(first(Phase::OPENINGS) < first(Phase::FRI_COMMIT));
    assert!(first(Phase::FRI_COMMIT) < first(Phase::FRI_POW));
    assert!(first(Phase::FRI_POW) < first(Phase::FRI_QUERY));
    let untimed: Vec<_> = records.iter().filter(|r| r.cpu.is_none()).collect();
    assert_eq!(untimed.len(), 1);
    assert!(
        matches!(&untimed[0].kernel, Kernel::Vector { ops, .. } if ops[0].op == VectorOpKind::Inv)
    );

    // Every class of Table 1 appears.
    let breakdown = zkaccel_kernel_trace::Breakdown::from_records(records, u64::MAX);
    for class in KernelClass::ALL {
        assert!(breakdown.classes[&class].calls > 0, "{class}");
    }
}

#[test]
fn a_fibonacci_proof_traces_the_kernels_its_configuration_implies() {
    let config = StarkConfig::standard_fast();
    let (trace, public_inputs) =
        FibonacciAir::trace(1 << 10, Goldilocks::ZERO, Goldilocks::ONE).unwrap();
    let records = traced(&FibonacciAir, &config, trace, &public_inputs);
    check_shapes(&FibonacciAir, &config, 10, &records);
}

#[test]
fn a_factorial_proof_of_degree_three_traces_a_doubled_quotient_domain() {
    let mut config = StarkConfig::standard_fast();
    config.fri_config.rate_bits = 2;
    config.fri_config.cap_height = 2;
    config.fri_config.proof_of_work_bits = 4;
    config.num_challenges = 3;
    let (trace, public_inputs) = FactorialAir::trace(1 << 8).unwrap();
    let records = traced(&FactorialAir, &config, trace, &public_inputs);
    check_shapes(&FactorialAir, &config, 8, &records);
}

#[test]
fn the_trace_round_trips_through_jsonl() {
    let config = StarkConfig::standard_fast();
    let (trace, public_inputs) =
        FibonacciAir::trace(1 << 6, Goldilocks::ONE, Goldilocks::ONE).unwrap();
    let records = traced(&FibonacciAir, &config, trace, &public_inputs);
    let mut text = Vec::new();
    zkaccel_kernel_trace::write_jsonl(&records, &mut text).unwrap();
    assert_eq!(
        zkaccel_kernel_trace::read_jsonl(text.as_slice()).unwrap(),
        records
    );
}
