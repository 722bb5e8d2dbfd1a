//! Writes the shapes of UniZK's plonky2 workloads (Fibonacci built in full; Factorial and MVM
//! built small and their degrees derived, see `factorial_shape` and `mvm_shape`) as
//! `CircuitShape` JSON files, for `zkaccel model unizk replay --shape FILE`.
//!
//! ```sh
//! RUSTC_BOOTSTRAP=1 cargo run --release --manifest-path peers/Cargo.toml \
//!     --example plonky2_shapes -- crates/hwmodel/shapes
//! ```

use std::path::PathBuf;

use zkaccel_peers::plonky2_shapes::{factorial_shape, fibonacci, mvm_shape, shape_of};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "shapes".into()));
    std::fs::create_dir_all(&out)?;
    let additions = (1usize << 20) - 1;
    let fib = shape_of(
        "fibonacci",
        &format!(
            "peers/examples/plonky2_shapes (plonky2 1.1.0, standard_recursion_config): built \
             with {additions} additions, as UniZK's examples/fibonacci.rs"
        ),
        &fibonacci(additions),
    )?;
    let fac = factorial_shape((1 << 20) - 2, 1 << 12)?;
    let mvm = mvm_shape(3000, 3000, 16, 2024, 8)?;
    for shape in [fib, fac, mvm] {
        let path = out.join(format!("plonky2-{}.json", shape.name));
        let text = serde_json::to_string_pretty(&shape)? + "\n";
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &path)?;
        println!(
            "{}: degree 2^{}, {} wires, {} gate types, FRI arities {:?}",
            path.display(),
            shape.degree_bits,
            shape.num_wires,
            shape.gates.len(),
            shape.fri.reduction_arity_bits
        );
    }
    Ok(())
}
