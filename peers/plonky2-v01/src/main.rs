//! Writes the shape of UniZK's ECDSA workload (`unizk.txt` §6, Table 3: one secp256k1 ECDSA
//! signature verified, as the authors' `examples/cpu_ecdsa.rs` builds it with plonky2_ecdsa
//! 0.1.0) as `plonky2-ecdsa.json`, for `zkaccel model unizk replay --shape FILE`.
//!
//!     bash peers/plonky2-v01/run.sh [OUT_DIR]
//!
//! The gates' counts are checked as the library says. The key, message and signature are
//! random; the circuit is built twice and must have the same shape.

use std::path::PathBuf;

use plonky2::field::secp256k1_scalar::Secp256K1Scalar;
use plonky2::field::types::Sample;
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
use zkaccel_kernel_trace::CircuitShape;
use zkaccel_plonky2_v01_shapes::{shape_of, write_shape, D, F};

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "shapes".into()));
    let (first, rows) = ecdsa();
    let provenance = format!(
        "peers/plonky2-v01 (bash peers/plonky2-v01/run.sh: plonky2 0.1.1, plonky2_u32 0.1.0, \
         plonky2_ecdsa 0.1.0; UniZK's examples/cpu_ecdsa.rs, standard_ecc_zk_config = 136 \
         wires and zero knowledge over standard_recursion_config): one secp256k1 signature \
         verified, {rows} rows laid out before blinding; built twice on random keys with the \
         same shape"
    );
    let (shape, checked) = shape_of("ecdsa", &provenance, &first)?;
    let (second, _) = ecdsa();
    let (again, _) = shape_of("ecdsa", &provenance, &second)?;
    let unnamed = |s: &CircuitShape| CircuitShape {
        provenance: String::new(),
        ..s.clone()
    };
    if unnamed(&shape) != unnamed(&again) {
        return Err("two random signatures gave circuits of different shapes".into());
    }
    let path = write_shape(&out, "plonky2-ecdsa.json", &shape)?;
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
