//! What the plonky2 0.1 shape generators share (`src/main.rs` for ECDSA, `src/bin/imgcrop.rs`
//! for Image Crop, `sha256/` for SHA-256): a built circuit's [`CircuitShape`], its gates' constraint counts checked against
//! the gates themselves, and the file written atomically.
//!
//! plonky2 0.1.1's `GateRef` does not expose its gate, so each gate's constraint count comes
//! from `zkaccel_peers::plonky2_shapes::gate_constraints`, checked two ways before anything is
//! written: every gate of the circuit but `ConstantGate` (whose constructor is crate-private;
//! its count is its `num_consts`) is rebuilt from its id's parameters with plonky2's and
//! plonky2_u32's own constructors, must give the same id, and must count the same constraints
//! by its `num_constraints()`; and the largest count must be the one the circuit records. The
//! selector groups come from `SelectorsInfo`'s own listing.

use std::path::{Path, PathBuf};

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::gates::arithmetic_base::ArithmeticGate;
use plonky2::gates::base_sum::BaseSumGate;
use plonky2::gates::gate::Gate;
use plonky2::gates::noop::NoopGate;
use plonky2::gates::poseidon::PoseidonGate;
use plonky2::gates::public_input::PublicInputGate;
use plonky2::gates::random_access::RandomAccessGate;
use plonky2::plonk::circuit_data::{CircuitConfig, CommonCircuitData};
use plonky2_u32::gates::add_many_u32::U32AddManyGate;
use plonky2_u32::gates::arithmetic_u32::U32ArithmeticGate;
use plonky2_u32::gates::comparison::ComparisonGate;
use plonky2_u32::gates::range_check_u32::U32RangeCheckGate;
use plonky2_u32::gates::subtraction_u32::U32SubtractionGate;
use zkaccel_kernel_trace::{CircuitShape, GateShape};
use zkaccel_peers::plonky2_shapes::{gate_constraints, gate_ops, id_number};

/// The circuits' field.
pub type F = GoldilocksField;
/// The extension degree.
pub const D: usize = 2;

/// The selector group of each gate, read from `SelectorsInfo`'s `Debug` listing (its fields are
/// crate-private in 0.1.1): `selector_indices: [0, 0, 1, …]`.
pub fn selector_indices(common: &CommonCircuitData<F, D>) -> Result<Vec<usize>, String> {
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
    } else if id.starts_with("PoseidonGate") {
        counted(PoseidonGate::<F, D>::new())
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
pub fn check_constraint_counts(common: &CommonCircuitData<F, D>) -> Result<usize, String> {
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

/// The shape of a built circuit, every gate's constraints checked ([`check_constraint_counts`],
/// and the largest against the circuit's own count). Returns it with the number of gates
/// rebuilt.
///
/// # Errors
/// A gate without a count or constructor, or a count the gate or the circuit contradicts.
pub fn shape_of(
    name: &str,
    provenance: &str,
    common: &CommonCircuitData<F, D>,
) -> Result<(CircuitShape, usize), String> {
    let checked = check_constraint_counts(common)?;
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
    Ok((
        zkaccel_peers::circuit_shape!(name, provenance, common, gates),
        checked,
    ))
}

/// Writes `shape` as pretty JSON to `dir/file`, beside and renamed, so that a failed run leaves
/// the old file whole. Returns the path.
///
/// # Errors
/// The directory or the file cannot be written.
pub fn write_shape(
    dir: &Path,
    file: &str,
    shape: &CircuitShape,
) -> Result<PathBuf, Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(file);
    let text = serde_json::to_string_pretty(shape)? + "\n";
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, &path)?;
    Ok(path)
}
