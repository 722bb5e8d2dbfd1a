//! Writes the shape of UniZK's SHA-256 workload (`unizk.txt` §6, Table 3: the SHA-256 of an
//! 8,000-byte message, 126 blocks, as the authors' `examples/cpu_sha256.rs` builds it with
//! their vendored plonky2-sha256 under `standard_recursion_zk_config`) as
//! `plonky2-sha256.json`, for `zkaccel model unizk replay --shape FILE`.
//!
//!     UNIZK_DIR=/path/to/UniZK bash peers/plonky2-v01/run.sh [OUT_DIR]
//!
//! The full circuit (about 730,000 rows, degree 2^20) takes more memory to build than a shape
//! needs. Its gates repeat block by block, so it is built at 1, 2, 4 and 8 blocks: the rows
//! before blinding must lie within two rows of the line through the 4- and 8-block counts (a
//! block's gates of several kinds each leave a last row partly filled), the gate types must be
//! the same at every size, and the degree plonky2 built at each size must be the one predicted
//! from the rows with plonky2's blinding rows ([`blinded_degree_bits`]); at 126 blocks the
//! degree must not change for a row per block either way. The shape is the 8-block circuit's
//! with the predicted degree and FRI arities at 126 blocks.

use std::path::PathBuf;

use plonky2::plonk::circuit_builder::CircuitBuilder;
use plonky2::plonk::circuit_data::{CircuitConfig, CommonCircuitData};
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use plonky2_sha256::circuit::make_circuits;
use zkaccel_plonky2_v01_shapes::{shape_of, write_shape, D, F};

/// The message of UniZK's example: 8,000 bytes.
const MESSAGE_BYTES: usize = 8000;

/// SHA-256 blocks of a message of `bytes` bytes: the message, a one bit and the 64-bit length,
/// in blocks of 512 bits.
fn blocks_of(bytes: usize) -> usize {
    (bytes * 8 + 1 + 64).div_ceil(512)
}

/// The circuit of the example for a message of `blocks` blocks (the longest message that
/// fits): the message bits as witness targets, the digest's bits each asserted to a constant.
/// Returns its data and its rows before blinding.
fn sha256(blocks: usize) -> (CommonCircuitData<F, D>, usize) {
    let bytes = blocks * 64 - 9;
    assert_eq!(blocks_of(bytes), blocks);
    let mut builder = CircuitBuilder::<F, D>::new(CircuitConfig::standard_recursion_zk_config());
    let targets = make_circuits(&mut builder, (bytes * 8) as u64);
    // The example asserts each digest bit equal to the expected hash's: one or zero, each a
    // copy constraint to a constant target (no rows either way).
    for (i, bit) in targets.digest.iter().enumerate() {
        if i % 2 == 0 {
            builder.assert_one(bit.target);
        } else {
            builder.assert_zero(bit.target);
        }
    }
    let rows = builder.num_gates();
    (builder.build::<PoseidonGoldilocksConfig>().common, rows)
}

/// The blinding rows plonky2 0.1.1's `blind` adds to a circuit of `rows` rows under zero
/// knowledge (its private `blinding_counts`: per FRI query the values opened at the first
/// layer, the folded cosets and the final polynomial, plus the openings at ζ, for the
/// witness; the same plus gζ, twice, for Z), and the degree bits the circuit then has.
fn blinded_degree_bits(config: &CircuitConfig, rows: usize) -> usize {
    let mut degree = rows.next_power_of_two();
    loop {
        let bits = degree.trailing_zeros() as usize;
        let arities = config
            .fri_config
            .fri_params(bits, true)
            .reduction_arity_bits;
        let folded: usize = arities.iter().map(|&a| (1 << a) - 1).sum();
        let final_coeffs = degree >> arities.iter().sum::<usize>();
        let fri = config.fri_config.num_query_rounds * (1 + D * folded + D * final_coeffs);
        let blinding = (D + fri) + 2 * (2 * D + fri);
        if rows + blinding <= degree {
            return bits;
        }
        degree *= 2;
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "shapes".into()));
    let config = CircuitConfig::standard_recursion_zk_config();
    let sizes = [1usize, 2, 4, 8];
    let built: Vec<(CommonCircuitData<F, D>, usize)> = sizes.iter().map(|&b| sha256(b)).collect();
    // Rows per block from the two largest builds; a block's rows pack gates of several kinds
    // whose last rows fill partly, so each size may differ from the line by a row or two.
    let (small, large) = (&built[sizes.len() - 2], &built[sizes.len() - 1]);
    let span = (sizes[sizes.len() - 1] - sizes[sizes.len() - 2]) as f64;
    let per_block = (large.1 - small.1) as f64 / span;
    let fixed = small.1 as f64 - per_block * sizes[sizes.len() - 2] as f64;
    let rows_at = |blocks: usize| fixed + per_block * blocks as f64;
    for ((common, rows), &blocks) in built.iter().zip(&sizes) {
        if (rows_at(blocks) - *rows as f64).abs() > 2.0 {
            return Err(format!(
                "{blocks} blocks: {rows} rows, {fixed:.1} + {per_block:.2} per block predicts \
                 {:.1}",
                rows_at(blocks)
            )
            .into());
        }
        let predicted = blinded_degree_bits(&config, *rows);
        if predicted != common.degree_bits() {
            return Err(format!(
                "{blocks} blocks: {rows} rows predict degree 2^{predicted}, plonky2 built 2^{}",
                common.degree_bits()
            )
            .into());
        }
        let ids = |c: &CommonCircuitData<F, D>| format!("{:?}", c.gates);
        if ids(common) != ids(&built[0].0) {
            return Err(format!("{blocks} blocks: other gate types than at one block").into());
        }
    }
    let blocks = blocks_of(MESSAGE_BYTES);
    let rows = rows_at(blocks).round() as usize;
    let degree_bits = blinded_degree_bits(&config, rows);
    // The degree must not hang on the line's error: a row per block either way gives the same.
    if blinded_degree_bits(&config, rows - blocks) != degree_bits
        || blinded_degree_bits(&config, rows + blocks) != degree_bits
    {
        return Err(format!("{rows} rows at {blocks} blocks lie too near a power of two").into());
    }
    let (largest, largest_rows) = &built[sizes.len() - 1];
    let rows_built: Vec<usize> = built.iter().map(|(_, rows)| *rows).collect();
    let provenance = format!(
        "peers/plonky2-v01/sha256 (UNIZK_DIR=… bash peers/plonky2-v01/run.sh: plonky2 0.1.1, \
         plonky2_u32 0.1.0, the UniZK repository's thirdparty/sha256 at 9c94b55; its \
         examples/cpu_sha256.rs, standard_recursion_zk_config): built at {sizes:?} blocks \
         ({rows_built:?} rows before blinding: {fixed:.1} + {per_block:.2} per block, every \
         size within two rows of it, the degree plonky2 built at each size the one \
         predicted with its blinding rows); at {MESSAGE_BYTES} bytes, {blocks} blocks, {rows} \
         rows → degree 2^{degree_bits} (derived, the same a row per block either way), FRI \
         arities from plonky2's reduction strategy"
    );
    let (mut shape, checked) = shape_of("sha256", &provenance, largest)?;
    shape.degree_bits = degree_bits as u32;
    shape.fri.reduction_arity_bits = config
        .fri_config
        .fri_params(degree_bits, true)
        .reduction_arity_bits
        .iter()
        .map(|&a| a as u32)
        .collect();
    let path = write_shape(&out, "plonky2-sha256.json", &shape)?;
    println!(
        "{}: degree 2^{degree_bits} at {blocks} blocks ({rows} rows; built at {} blocks: \
         {largest_rows}), {} gate types ({checked} rebuilt and their constraints counted)",
        path.display(),
        sizes[sizes.len() - 1],
        shape.gates.len(),
    );
    Ok(())
}
