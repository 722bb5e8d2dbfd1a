//! The shapes the front end is fed are plonky2's own: a small Fibonacci built here agrees with
//! the committed full-size file in everything but the degree, the selector groups derived
//! match plonky2's count, and the factorial derivation checks itself.

use zkaccel_kernel_trace::{validate, CircuitShape};
use zkaccel_peers::plonky2_shapes::{factorial_shape, fibonacci, gate_ops, shape_of};

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
