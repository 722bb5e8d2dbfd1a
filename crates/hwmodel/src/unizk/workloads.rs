//! UniZK's plonky2 workloads (`unizk.txt` §6: Fibonacci, Factorial, MVM, ECDSA, SHA-256 and
//! Image Crop), built in: the circuit shapes `peers/examples/plonky2_shapes` wrote with plonky2
//! 1.1.0, and `peers/plonky2-v01` with plonky2 0.1.1 (plonky2_ecdsa 0.1.0, the authors'
//! vendored plonky2-sha256, and zkedit's crop circuit rebuilt from the authors' source), in
//! `shapes/*.json` with the command and versions that made them. [`CircuitShape::kernels`]
//! lowers them to kernel traces (plonky2 1.1.0's `prove()`, whose kernel sequence for a
//! circuit without lookups is 0.1.1's).

use zkaccel_kernel_trace::{CircuitShape, KernelRecord};

use super::ModelError;

/// The built-in workloads' names.
pub const WORKLOADS: [&str; 6] = [
    "fibonacci",
    "factorial",
    "mvm",
    "ecdsa",
    "sha256",
    "image-crop",
];

/// The shape JSON of a built-in workload.
///
/// # Errors
/// [`ModelError::Unknown`] for a name not in [`WORKLOADS`].
pub fn shape_json(name: &str) -> Result<&'static str, ModelError> {
    match name {
        "fibonacci" => Ok(include_str!("../../shapes/plonky2-fibonacci.json")),
        "factorial" => Ok(include_str!("../../shapes/plonky2-factorial.json")),
        "mvm" => Ok(include_str!("../../shapes/plonky2-mvm.json")),
        "ecdsa" => Ok(include_str!("../../shapes/plonky2-ecdsa.json")),
        "sha256" => Ok(include_str!("../../shapes/plonky2-sha256.json")),
        "image-crop" => Ok(include_str!("../../shapes/plonky2-imgcrop.json")),
        other => Err(ModelError::Unknown {
            what: "workload",
            name: crate::error::shown(other, 40),
            known: crate::Names(&WORKLOADS),
        }),
    }
}

/// The kernel trace of a built-in workload: its shape through plonky2 1.1.0's `prove()`.
///
/// # Errors
/// [`ModelError::Unknown`] for an unknown name; [`ModelError::Shape`] for a shape the front
/// end refuses (the tests rule that out for the shipped ones).
pub fn kernels(name: &str) -> Result<Vec<KernelRecord>, ModelError> {
    CircuitShape::from_json(shape_json(name)?)
        .and_then(|shape| shape.kernels())
        .map_err(|e| ModelError::Shape {
            workload: name.to_owned(),
            message: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_workload_lowers_to_a_trace_and_unknown_names_are_refused() {
        for name in WORKLOADS {
            let records = kernels(name).unwrap();
            assert!(records.len() > 10, "{name}: {} records", records.len());
        }
        for name in ["keccak", ""] {
            assert!(matches!(
                kernels(name),
                Err(ModelError::Unknown { what: "workload", name: ref n, .. }) if n == name
            ));
        }
    }
}
