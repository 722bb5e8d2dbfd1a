//! Writes the shape of UniZK's Image Crop workload (`unizk.txt` §6, Table 3: "crop a 512×512
//! part out of a 1024×1024 image", the zkedit circuit the authors vendored as
//! `thirdparty/imgcrop`) as `plonky2-imgcrop.json`, for `zkaccel model unizk replay --shape FILE`.
//!
//!     bash peers/plonky2-v01/run.sh [OUT_DIR]
//!
//! The authors' `examples/img_crop.rs` proves one chunk circuit of zkedit's
//! `TransformationCircuitBuilder` (the recursive circuit that chains chunks is built but not
//! proved): their `random_color.png` (1024 × 1024, read as RGBA, one field element a pixel)
//! fits in one chunk of `L = 12·85·256·8` elements. The chunk circuit, under
//! `standard_recursion_zk_config`, is rebuilt here from their source (`builder.rs`, `hash.rs`,
//! `transformations/crop.rs`) on crates.io's plonky2 0.1.1: zkedit calls `permute_many`, which
//! only their plonky2 fork has (a loop of `permute` over the input in chunks of the sponge
//! rate), so that loop is written out below; the fork's circuit builder, `permute` and
//! `is_equal` are otherwise crates.io 0.1.1's. Pixel values are witness data and do not change
//! the circuit, so no image is read; with `UNIZK_DIR` set, the PNG's size is checked against
//! the one assumed here.
//!
//! The circuit is built at full size (about 320,000 rows, degree 2^19) and its rows are
//! checked against a count made from its parts: one Poseidon row per permutation of each
//! sponge, and `is_equal`'s five arithmetic operations per pixel in the crop, twenty to a row.

use std::path::PathBuf;

use plonky2::hash::hashing::SPONGE_WIDTH;
use plonky2::hash::poseidon::PoseidonHash;
use plonky2::iop::target::Target;
use plonky2::plonk::circuit_builder::CircuitBuilder;
use plonky2::plonk::circuit_data::{CircuitConfig, CommonCircuitData};
use plonky2::plonk::config::PoseidonGoldilocksConfig;
use zkaccel_plonky2_v01_shapes::{shape_of, write_shape, D, F};

/// plonky2 0.1.1's sponge rate (its `SPONGE_RATE`, crate-private there): the width less the
/// four capacity elements.
const SPONGE_RATE: usize = SPONGE_WIDTH - 4;

/// zkedit's chunk length in field elements (`const L` of the authors' `examples/img_crop.rs`).
const CHUNK_ELEMENTS: usize = 12 * 85 * 256 * 8;

/// The image of the authors' example (`random_color.png`) and the crop it proves
/// (`(x, y, w, h) = (55, 30, 512, 512)`).
const IMAGE: (u32, u32) = (1024, 1024);
const CROP: (u32, u32, u32, u32) = (55, 30, 512, 512);

/// The rows of a chunk circuit for an image of `pixels` pixels of which `cropped` lie in the
/// crop, counted from its parts: both sponges' permutations, one Poseidon row each, and
/// `is_equal`'s five arithmetic operations per cropped pixel (three subtractions, its `not`
/// being `1 − b`, and two products), `ops_per_row` to an `ArithmeticGate` row, each kind of
/// operation (its pair of constants) in rows of its own. Returns the permutations and the rows.
/// The public inputs' hash and row and the constants' rows come later, in `build`.
fn counted_rows(pixels: usize, cropped: usize, ops_per_row: usize) -> (usize, usize) {
    let padded = padded_length(pixels);
    let permutations = 2 * padded / SPONGE_RATE;
    let arithmetic_rows = [3, 2].map(|ops| (ops * cropped).div_ceil(ops_per_row));
    (
        permutations,
        permutations + arithmetic_rows.iter().sum::<usize>(),
    )
}

/// zkedit's `get_padding_length`: the input, a one, zeros, a one, to a multiple of the width.
fn padded_length(elements: usize) -> usize {
    (elements + 2).div_ceil(SPONGE_WIDTH) * SPONGE_WIDTH
}

/// zkedit's `build_hash_chunk_circuit` for the last (here the only) chunk: `elements` input
/// targets and their padding absorbed from a public initial state into a public final state,
/// with the authors' fork's `permute_many` (overwrite the rate, permute) written out.
fn hash_chunk(builder: &mut CircuitBuilder<F, D>, elements: usize) -> Vec<Target> {
    let mut input = builder.add_virtual_targets(padded_length(elements));
    let init = builder.add_virtual_target_arr::<SPONGE_WIDTH>();
    let mut state = init;
    for absorbed in input.chunks(SPONGE_RATE) {
        state[..absorbed.len()].copy_from_slice(absorbed);
        state = builder.permute::<PoseidonHash>(state);
    }
    builder.register_public_inputs(&init);
    builder.register_public_inputs(&state);
    input.truncate(elements);
    input
}

/// The chunk circuit of zkedit's crop for an image of `width × height` pixels: both images
/// hashed, then each pixel of the edited image equal to the original's inside the crop
/// (`is_equal`, whose result zkedit does not use) and zero outside it (`assert_zero`, a copy
/// constraint). Returns the circuit's data and its rows before blinding.
fn image_crop(
    width: u32,
    height: u32,
    crop: (u32, u32, u32, u32),
) -> (CommonCircuitData<F, D>, usize) {
    let pixels = width as usize * height as usize;
    assert!(
        pixels < CHUNK_ELEMENTS,
        "the example's image fits in one chunk"
    );
    let mut builder = CircuitBuilder::<F, D>::new(CircuitConfig::standard_recursion_zk_config());
    let original = hash_chunk(&mut builder, pixels);
    let edited = hash_chunk(&mut builder, pixels);
    let (x, y, w, h) = crop;
    for (i, (&orig_pixel, &edit_pixel)) in original.iter().zip(&edited).enumerate() {
        let (px, py) = (i as u32 % width, i as u32 / width);
        if px >= x && px < x + w && py >= y && py < y + h {
            builder.is_equal(orig_pixel, edit_pixel);
        } else {
            builder.assert_zero(edit_pixel);
        }
    }
    let rows = builder.num_gates();
    (builder.build::<PoseidonGoldilocksConfig>().common, rows)
}

/// Width and height from a PNG's header (`IHDR`, the first chunk).
fn png_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return Err("not a PNG with its IHDR first".into());
    }
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Ok((word(16), word(20)))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "shapes".into()));
    if let Ok(dir) = std::env::var("UNIZK_DIR") {
        let png = PathBuf::from(dir).join("random_color.png");
        let bytes = std::fs::read(&png).map_err(|e| format!("{}: {e}", png.display()))?;
        let size = png_size(&bytes).map_err(|e| format!("{}: {e}", png.display()))?;
        if size != IMAGE {
            return Err(format!("{} is {size:?} pixels, not {IMAGE:?}", png.display()).into());
        }
    }
    let (x, y, w, h) = CROP;
    if x + w > IMAGE.0 || y + h > IMAGE.1 {
        return Err("the crop leaves the image".into());
    }
    let (common, rows) = image_crop(IMAGE.0, IMAGE.1, CROP);
    let config = CircuitConfig::standard_recursion_zk_config();
    let ops_per_row = config.num_routed_wires / 4;
    let pixels = IMAGE.0 as usize * IMAGE.1 as usize;
    let (permutations, expected) = counted_rows(pixels, (w * h) as usize, ops_per_row);
    if rows != expected {
        return Err(format!(
            "{rows} rows built, {expected} counted from {permutations} permutations and the \
             crop's comparisons"
        )
        .into());
    }
    let provenance = format!(
        "peers/plonky2-v01 (bash peers/plonky2-v01/run.sh, src/bin/imgcrop.rs: plonky2 0.1.1; \
         the chunk circuit of the UniZK repository's thirdparty/imgcrop at 9c94b55, zkedit's \
         TransformationCircuitBuilder, as its examples/img_crop.rs proves it: a {}×{} RGBA \
         image, one element a pixel, in one chunk, cropped at {CROP:?}, \
         standard_recursion_zk_config): two Poseidon sponges over {} elements each \
         ({permutations} permutations), is_equal on {} pixels, assert_zero on the rest; {rows} \
         rows before blinding, built at full size",
        IMAGE.0,
        IMAGE.1,
        padded_length(pixels),
        w * h,
    );
    let (shape, checked) = shape_of("image-crop", &provenance, &common)?;
    let path = write_shape(&out, "plonky2-imgcrop.json", &shape)?;
    println!(
        "{}: degree 2^{}, {} wires, {} gate types ({checked} rebuilt and their constraints \
         counted), {rows} rows before blinding",
        path.display(),
        shape.degree_bits,
        shape.num_wires,
        shape.gates.len(),
    );
    Ok(())
}
