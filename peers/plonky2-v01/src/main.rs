//! Writes the shape of UniZK's ECDSA workload (`unizk.txt` §6, Table 3: one secp256k1 ECDSA
//! signature verified, as the authors' `examples/cpu_ecdsa.rs` builds it with plonky2_ecdsa
//! 0.1.0) as `plonky2-ecdsa.json`, for `zkaccel model unizk --shape FILE`.
//!
//!     bash peers/plonky2-v01/run.sh [OUT_DIR]
//!
//! plonky2 0.1.1's `GateRef` does not expose its gate, so each gate's constraint count comes
//! from `zkaccel_peers::plonky2_shapes::gate_constraints`, checked two ways before anything is
//! written: every gate of the circuit but `ConstantGate` (whose constructor is crate-private;
//! its count is its `num_consts`) is rebuilt from its id's parameters with plonky2's and
//! plonky2_u32's own constructors, must give the same id, and must count the same constraints
//! by its `num_constraints()`; and the largest count must be the one the circuit records. The
//! selector groups come from `SelectorsInfo`'s own listing. The key, message and signature are
//! random; the circuit is built twice and must have the same shape.

use std::path::PathBuf;

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::secp256k1_scalar::Secp256K1Scalar;
use plonky2::field::types::Sample;
use plonky2::gates::arithmetic_base::ArithmeticGate;
use plonky2::gates::base_sum::BaseSumGate;
use plonky2::gates::gate::Gate;
use plonky2::gates::noop::NoopGate;
use plonky2::gates::public_input::PublicInputGate;
use plonky2::gates::random_access::RandomAccessGate;
use plonky2::plonk::circuit_builder::CircuitBuilder;
use plonky2::plonk::circuit_data::{CircuitConfig, CommonCircuitData};
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2_ecdsa::curve::curve_types::{Curve, CurveScalar};
use plonky2_ecdsa::curve::ecdsa::{sign_message, ECDSAPublicKey, ECDSASecretKey, ECDSASignature};
use plonky2_ecdsa::curve::secp256k1::Secp256K1;
use plonky2_ecdsa::gadgets::curve::CircuitBuilderCurve;
use plonky2_ecdsa::gadgets::ecdsa::{
    verify_message_circuit, ECDSAPublicKeyTarget, ECDSASignatureTarget,
};
use plonky2_ecdsa::gadgets::nonnative::CircuitBuilderNonNative;
use plonky2_u32::gates::add_many_u32::U32AddManyGate;
use plonky2_u32::gates::arithmetic_u32::U32ArithmeticGate;
use plonky2_u32::gates::comparison::ComparisonGate;
use plonky2_u32::gates::range_check_u32::U32RangeCheckGate;
use plonky2_u32::gates::subtraction_u32::U32SubtractionGate;
use zkaccel_kernel_trace::{CircuitShape, GateShape};
use zkaccel_peers::plonky2_shapes::{gate_constraints, gate_ops, id_number};

type F = GoldilocksField;
const D: usize = 2;

/// UniZK's `standard_ecc_zk_config` (added in the authors' plonky2 0.1 tree): 136 wires, zero
/// knowledge, `standard_recursion_config` otherwise.
fn ecc_zk_config() -> CircuitConfig {
    CircuitConfig {
        num_wires: 136,
        zero_knowledge: true,
        ..CircuitConfig::standard_recursion_config()
    }
}

/// One signature over a random message and key verified, every input a circuit constant.
fn ecdsa() -> (CommonCircuitData<F, D>, usize) {
    let mut builder = CircuitBuilder::<F, D>::new(ecc_zk_config());
    let msg = Secp256K1Scalar::rand();
    let msg_target = builder.constant_nonnative(msg);
    let sk = ECDSASecretKey::<Secp256K1>(Secp256K1Scalar::rand());
    let pk = ECDSAPublicKey((CurveScalar(sk.0) * Secp256K1::GENERATOR_PROJECTIVE).to_affine());
    let pk_target = ECDSAPublicKeyTarget(builder.constant_affine_point(pk.0));
    let ECDSASignature { r, s } = sign_message(msg, sk);
    let sig_target = ECDSASignatureTarget {
        r: builder.constant_nonnative(r),
        s: builder.constant_nonnative(s),
    };
    verify_message_circuit(&mut builder, msg_target, sig_target, pk_target);
    let rows = builder.num_gates();
    (builder.build::<PoseidonGoldilocksConfig>().common, rows)
}

/// The selector group of each gate, read from `SelectorsInfo`'s `Debug` listing (its fields are
/// crate-private in 0.1.1): `selector_indices: [0, 0, 1, …]`.
fn selector_indices(common: &CommonCircuitData<F, D>) -> Result<Vec<usize>, String> {
    let listing = format!("{:?}", common.selectors_info);
    let start = listing
        .find("selector_indices: [")
        .ok_or_else(|| format!("no selector indices in {listing}"))?
        + "selector_indices: [".len();
    let end = start
        + listing[start..]
            .find(']')
            .ok_or("unterminated selector indices")?;
    let indices = listing[start..end]
        .split(',')
        .map(|s| s.trim().parse::<usize>().map_err(|e| format!("{s:?}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    if indices.len() != common.gates.len()
        || indices
            .iter()
            .any(|&i| i >= common.selectors_info.num_selectors())
    {
        return Err(format!(
            "{} selector indices for {} gates and {} selectors",
            indices.len(),
            common.gates.len(),
            common.selectors_info.num_selectors()
        ));
    }
    Ok(indices)
}

/// A gate's id and constraint count, as the gate itself gives them.
fn counted<G: Gate<F, D>>(gate: G) -> (String, usize) {
    (gate.id(), gate.num_constraints())
}

/// The gate with this id rebuilt by its crate's own constructor from the id's parameters and
/// the circuit's configuration; `None` for `ConstantGate` (no public constructor in 0.1.1).
///
/// # Errors
/// A gate type this program does not know, or an id without the parameters its type needs.
fn rebuilt(id: &str, config: &CircuitConfig) -> Result<Option<(String, usize)>, String> {
    let number = |key: &str| {
        id_number(id, key)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| format!("no `{key}` in {id}"))
    };
    let gate = if id.starts_with("NoopGate") {
        counted(NoopGate)
    } else if id.starts_with("ConstantGate") {
        return Ok(None);
    } else if id.starts_with("PublicInputGate") {
        counted(PublicInputGate)
    } else if id.starts_with("ArithmeticGate") {
        counted(ArithmeticGate::new_from_config(config))
    } else if id.starts_with("BaseSumGate") {
        let limbs = number("num_limbs")?;
        match number("Base: ")? {
            2 => counted(BaseSumGate::<2>::new(limbs)),
            4 => counted(BaseSumGate::<4>::new(limbs)),
            base => return Err(format!("base {base} in {id}")),
        }
    } else if id.starts_with("RandomAccessGate") {
        counted(RandomAccessGate::<F, D>::new_from_config(
            config,
            number("bits")?,
        ))
    } else if id.starts_with("ComparisonGate") {
        counted(ComparisonGate::<F, D>::new(
            number("num_bits")?,
            number("num_chunks")?,
        ))
    } else if id.starts_with("U32AddManyGate") {
        counted(U32AddManyGate::<F, D>::new_from_config(
            config,
            number("num_addends")?,
        ))
    } else if id.starts_with("U32ArithmeticGate") {
        counted(U32ArithmeticGate::<F, D>::new_from_config(config))
    } else if id.starts_with("U32RangeCheckGate") {
        counted(U32RangeCheckGate::<F, D>::new(number("num_input_limbs")?))
    } else if id.starts_with("U32SubtractionGate") {
        counted(U32SubtractionGate::<F, D>::new_from_config(config))
    } else {
        return Err(format!("no constructor known for {id}"));
    };
    Ok(Some(gate))
}

/// Every gate of the circuit rebuilt ([`rebuilt`]): the same id, and `gate_constraints` equal
/// to its own count. Returns how many were checked.
fn check_constraint_counts(common: &CommonCircuitData<F, D>) -> Result<usize, String> {
    let mut checked = 0;
    for gate in &common.gates {
        let id = format!("{gate:?}");
        let Some((rebuilt_id, constraints)) = rebuilt(&id, &common.config)? else {
            continue;
        };
        if rebuilt_id != id {
            return Err(format!("{id} rebuilt as {rebuilt_id}"));
        }
        if gate_constraints(&id) != Some(constraints as u64) {
            return Err(format!(
                "{id}: {:?} constraints by count, {constraints} by the gate",
                gate_constraints(&id)
            ));
        }
        checked += 1;
    }
    Ok(checked)
}

fn shape_of(common: &CommonCircuitData<F, D>, rows: usize) -> Result<CircuitShape, String> {
    let indices = selector_indices(common)?;
    let mut gates = Vec::new();
    for (gate, &group) in common.gates.iter().zip(&indices) {
        // `GateRef`'s `Debug` is the gate's id.
        let id = format!("{gate:?}");
        let constraints =
            gate_constraints(&id).ok_or_else(|| format!("no constraint count for {id}"))?;
        let (muls, adds) = gate_ops(&id).ok_or_else(|| format!("no op count for {id}"))?;
        gates.push(GateShape {
            name: id,
            constraints,
            muls,
            adds,
            selector_group: indices.iter().filter(|&&i| i == group).count() as u64,
        });
    }
    let largest = gates.iter().map(|g| g.constraints).max().unwrap_or(0);
    if largest != common.num_gate_constraints as u64 {
        return Err(format!(
            "the largest gate has {largest} constraints by count, plonky2 records {}",
            common.num_gate_constraints
        ));
    }
    let provenance = format!(
        "peers/plonky2-v01 (bash peers/plonky2-v01/run.sh: plonky2 0.1.1, plonky2_u32 0.1.0, \
         plonky2_ecdsa 0.1.0; UniZK's examples/cpu_ecdsa.rs, standard_ecc_zk_config = 136 \
         wires and zero knowledge over standard_recursion_config): one secp256k1 signature \
         verified, {rows} rows laid out before blinding; built twice on random keys with the \
         same shape"
    );
    Ok(zkaccel_peers::circuit_shape!(
        "ecdsa", provenance, common, gates
    ))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "shapes".into()));
    let (first, rows) = ecdsa();
    let checked = check_constraint_counts(&first)?;
    let shape = shape_of(&first, rows)?;
    let (second, rows_again) = ecdsa();
    let again = shape_of(&second, rows_again)?;
    let unnamed = |s: &CircuitShape| CircuitShape {
        provenance: String::new(),
        ..s.clone()
    };
    if unnamed(&shape) != unnamed(&again) {
        return Err("two random signatures gave circuits of different shapes".into());
    }
    std::fs::create_dir_all(&out)?;
    let path = out.join("plonky2-ecdsa.json");
    let text = serde_json::to_string_pretty(&shape)? + "\n";
    // Written beside and renamed, so that a failed run leaves the old file whole.
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, &path)?;
    println!(
        "{}: degree 2^{}, {} wires, {} gate types ({checked} rebuilt and their constraints \
         counted), {} rows before blinding",
        path.display(),
        shape.degree_bits,
        shape.num_wires,
        shape.gates.len(),
        rows
    );
    Ok(())
}
