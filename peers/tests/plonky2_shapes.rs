//! The shapes the front end is fed are plonky2's own: a small Fibonacci built here agrees with
//! the committed full-size file in everything but the degree, the selector groups derived
//! match plonky2's count, and the factorial and MVM derivations check themselves against
//! plonky2's own row counts.

use zkaccel_kernel_trace::{validate, CircuitShape};
use zkaccel_peers::plonky2_shapes::{
    factorial_shape, fibonacci, gate_constraints, gate_ops, mvm, mvm_config, mvm_exact_config,
    mvm_rows, mvm_shape, shape_of,
};

const COMMITTED: &str = include_str!("../../crates/hwmodel/shapes/plonky2-fibonacci.json");

#[test]
fn a_small_fibonacci_has_the_committed_shape_but_its_degree() {
    let small = shape_of("fibonacci", "test", &fibonacci(1 << 12)).unwrap();
    let committed = CircuitShape::from_json(COMMITTED).unwrap();
    assert!(small.degree_bits < committed.degree_bits);
    assert_eq!(small.gates, committed.gates);
    assert_eq!(
        (small.num_wires, small.num_routed_wires, small.num_constants),
        (
            committed.num_wires,
            committed.num_routed_wires,
            committed.num_constants
        )
    );
    assert_eq!(small.num_partial_products, committed.num_partial_products);
    assert_eq!(
        small.quotient_degree_factor,
        committed.quotient_degree_factor
    );
    validate(&small.kernels().unwrap()).unwrap();
}

#[test]
fn factorial_degree_derivation_checks_itself_against_a_built_circuit() {
    // Built at 256 and 512 multiplications, predicting 2^20 − 2: the prediction for 512 must
    // equal the degree plonky2 built.
    let shape = factorial_shape((1 << 20) - 2, 256).unwrap();
    assert_eq!(shape.degree_bits, 20);
    assert_eq!(shape.fri.reduction_arity_bits, [4, 4, 4, 4]);
}

#[test]
fn gates_without_an_op_count_are_refused() {
    assert_eq!(gate_ops("ArithmeticGate { num_ops: 20 }"), Some((60, 40)));
    assert_eq!(gate_ops("ConstantGate { num_consts: 2 }"), Some((0, 2)));
    assert!(gate_ops("RandomAccessGate { bits: 4 }").is_none());
    assert!(gate_ops("ArithmeticGate").is_none());
}

#[test]
fn constraint_counts_equal_plonky2_s_own_where_it_has_the_gate() {
    use plonky2::field::goldilocks_field::GoldilocksField as F;
    use plonky2::gates::arithmetic_base::ArithmeticGate;
    use plonky2::gates::base_sum::BaseSumGate;
    use plonky2::gates::constant::ConstantGate;
    use plonky2::gates::gate::Gate;
    use plonky2::gates::noop::NoopGate;
    use plonky2::gates::poseidon::PoseidonGate;
    use plonky2::gates::public_input::PublicInputGate;
    use plonky2::gates::random_access::RandomAccessGate;
    use plonky2::plonk::circuit_data::CircuitConfig;
    fn check(gate: &dyn Gate<F, 2>) {
        let id = gate.id();
        assert_eq!(
            gate_constraints(&id),
            Some(gate.num_constraints() as u64),
            "{id}"
        );
        assert!(gate_ops(&id).is_some(), "{id}");
    }
    let standard = CircuitConfig::standard_recursion_config();
    let wide = CircuitConfig {
        num_wires: 136,
        ..standard.clone()
    };
    check(&NoopGate);
    check(&PublicInputGate);
    check(&ConstantGate::new(2));
    check(&ArithmeticGate::new_from_config(&standard));
    for limbs in [1, 16, 63] {
        check(&BaseSumGate::<2>::new(limbs));
        check(&BaseSumGate::<4>::new(limbs));
    }
    for bits in [1, 4, 5] {
        for config in [&standard, &wide] {
            check(&RandomAccessGate::<F, 2>::new_from_config(config, bits));
        }
    }
    check(&PoseidonGate::<F, 2>::new());
    // Only width 12 is counted; an id without its width or with another gets no count.
    assert_eq!(gate_constraints("PoseidonGate"), None);
    assert_eq!(
        gate_constraints("PoseidonGate(PhantomData)<WIDTH=16>"),
        None
    );
    assert_eq!(gate_ops("PoseidonGate(PhantomData)<WIDTH=8>"), None);
    assert_eq!(gate_constraints("U32ArithmeticGate { _phantom }"), None);
    // The base is read after "Base: ", not from the gate's name.
    assert_eq!(
        gate_ops("BaseSumGate { num_limbs: 16 } + Base: 4"),
        Some((15 + 16 * 3, 15 + 1 + 16 * 4))
    );
}

/// The shapes `peers/plonky2-v01` wrote on plonky2 0.1 (not rebuilt here), with their degrees
/// and whether their circuits use plonky2_u32's gates.
const COMMITTED_V01: [(&str, u32, bool); 3] = [
    (
        include_str!("../../crates/hwmodel/shapes/plonky2-ecdsa.json"),
        17,
        true,
    ),
    (
        include_str!("../../crates/hwmodel/shapes/plonky2-sha256.json"),
        20,
        true,
    ),
    (
        include_str!("../../crates/hwmodel/shapes/plonky2-imgcrop.json"),
        19,
        false,
    ),
];

/// The committed plonky2 0.1 shapes hold the counts `gate_constraints` and `gate_ops` give
/// today: a count changed here without rerunning `peers/plonky2-v01/run.sh` fails this.
#[test]
fn the_committed_plonky2_v01_shapes_have_todays_gate_counts() {
    for (json, degree_bits, u32_gates) in COMMITTED_V01 {
        let shape = CircuitShape::from_json(json).unwrap();
        assert_eq!(shape.degree_bits, degree_bits);
        assert!(shape.zero_knowledge);
        assert_eq!(
            shape.gates.iter().any(|g| g.name.starts_with("U32")),
            u32_gates,
            "{}",
            shape.name
        );
        for gate in &shape.gates {
            assert_eq!(
                gate_constraints(&gate.name),
                Some(gate.constraints),
                "{}",
                gate.name
            );
            assert_eq!(
                gate_ops(&gate.name),
                Some((gate.muls, gate.adds)),
                "{}",
                gate.name
            );
        }
        validate(&shape.kernels().unwrap()).unwrap();
    }
}

/// Ids no gate has (zero limbs, chunks or base, parameters near 2^64, shifts past the word)
/// get no count, never an overflow.
#[test]
fn hostile_gate_ids_get_no_count() {
    let huge = u64::MAX.to_string();
    for id in [
        "BaseSumGate { num_limbs: 0 } + Base: 2".to_string(),
        "BaseSumGate { num_limbs: 16 } + Base: 0".to_string(),
        format!("BaseSumGate {{ num_limbs: {huge} }} + Base: 2"),
        "RandomAccessGate { bits: 64, num_copies: 4, num_extra_constants: 2 }".to_string(),
        format!("RandomAccessGate {{ bits: 4, num_copies: {huge}, num_extra_constants: 2 }}"),
        "ComparisonGate { num_bits: 32, num_chunks: 0 }".to_string(),
        "ComparisonGate { num_bits: 4096, num_chunks: 1 }".to_string(),
        format!("U32AddManyGate {{ num_addends: {huge}, num_ops: 6 }}"),
        format!("U32ArithmeticGate {{ num_ops: {huge} }}"),
        "U32RangeCheckGate { num_input_limbs: 99999999999999999999999 }".to_string(),
        format!("U32SubtractionGate {{ num_ops: {huge} }}"),
        "ArithmeticGate { num_ops: }".to_string(),
    ] {
        assert_eq!(gate_ops(&id), None, "{id}");
    }
    for id in [
        "BaseSumGate { num_limbs: 0 } + Base: 2",
        "ComparisonGate { num_bits: 32, num_chunks: 0 }",
        "U32AddManyGate { num_addends: 0, num_ops: 18446744073709551615 }",
    ] {
        assert_eq!(gate_constraints(id), None, "{id}");
    }
    // Zero where plonky2 builds zero is counted: a range check of no limbs.
    assert_eq!(
        gate_ops("U32RangeCheckGate { num_input_limbs: 0 }"),
        Some((0, 0))
    );
}

const COMMITTED_MVM: &str = include_str!("../../crates/hwmodel/shapes/plonky2-mvm.json");

#[test]
fn mvm_rows_follow_plonky2s_special_cases_and_cache() {
    // Three inputs, five outputs, worked by hand from plonky2 1.1.0's `arithmetic`:
    // [0, 1, 2]: 0 returns the zero sum, 1 on a zero sum returns x1, 2·x2 + x1 is one operation;
    // [0, 1, 2] again: every step the same, served from the cache;
    // [1, 0, 0]: x0, no operation; [3, 0, 0]: 3·x0 + 0, one operation;
    // [3, 4, 0]: 3·x0 + 0 cached, 4·x1 + that, one operation. Three operations in all.
    let coefficients = [0, 1, 2, 0, 1, 2, 1, 0, 0, 3, 0, 0, 3, 4, 0];
    let rows = mvm_rows(3, &coefficients, &mvm_config(), true);
    assert_eq!(rows.arithmetic_ops, 3);
    assert_eq!(rows.arithmetic, 1);
    assert_eq!(rows.constants, 5, "0, 1, 2, 3, 4");
    assert_eq!(rows.constant_rows, 3);
    assert_eq!(rows.poseidon, 1, "eight public inputs, one permutation");
    assert_eq!(rows.before_blinding, 1 + 3 + 1 + 1);
    // And plonky2 lays out exactly that.
    let (common, built) = mvm(3, &coefficients, &mvm_config(), true).unwrap();
    assert_eq!(built, rows.before_blinding);
    assert_eq!(common.degree_bits(), rows.degree_bits);
    // One operation per row, no public inputs: three ArithmeticGate rows, three ConstantGate
    // rows, the PublicInputGate.
    let exact = mvm_rows(3, &coefficients, &mvm_exact_config(), false);
    assert_eq!((exact.arithmetic, exact.poseidon), (3, 0));
    let (_, built) = mvm(3, &coefficients, &mvm_exact_config(), false).unwrap();
    assert_eq!(built, 3 + 3 + 1);
    // Negative coefficients are their own constants: −2 is not 2.
    let signed = mvm_rows(2, &[2, -2, -2, 2], &mvm_config(), true);
    assert_eq!((signed.constants, signed.arithmetic_ops), (3, 4));
}

#[test]
fn mvm_derivation_checks_itself_and_matches_the_committed_shape() {
    // 300 × 300 predicted from builds at 300 × 4 and 64 × 64 (3-bit coefficients, one
    // operation per row), each required to equal plonky2's own row count.
    let shape = mvm_shape(300, 300, 16, 7, 4).unwrap();
    let committed = CircuitShape::from_json(COMMITTED_MVM).unwrap();
    assert_eq!(shape.gates, committed.gates);
    assert_eq!(
        (
            shape.num_wires,
            shape.num_routed_wires,
            shape.num_partial_products
        ),
        (400, 400, committed.num_partial_products)
    );
    assert!(shape.zero_knowledge && committed.zero_knowledge);
    assert_eq!(shape.num_public_inputs, 600);
    assert_eq!(
        (committed.num_public_inputs, committed.degree_bits),
        (6000, 18)
    );
    assert!(shape.degree_bits < committed.degree_bits);
    validate(&committed.kernels().unwrap()).unwrap();
}
