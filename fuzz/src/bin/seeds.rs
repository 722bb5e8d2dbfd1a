//! Writes every fuzz target's seed inputs into `DIR/<target>/` (default `fuzz/corpus`):
//! `cargo run --release --manifest-path fuzz/Cargo.toml --bin seeds -- [DIR]`.

use std::path::PathBuf;

// In the instrumented build the coverage callbacks live in libFuzzer's runtime.
#[cfg(feature = "libfuzzer")]
use libfuzzer_sys as _;

fn main() -> std::io::Result<()> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/corpus".into()),
    );
    for target in zkaccel_fuzz::TARGETS {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        for (k, seed) in zkaccel_fuzz::seeds(target).iter().enumerate() {
            // Seeds are checked before they are written: a seed that fails is a bug here.
            zkaccel_fuzz::check(target, seed);
            std::fs::write(dir.join(format!("seed-{k:02}")), seed)?;
        }
    }
    Ok(())
}
