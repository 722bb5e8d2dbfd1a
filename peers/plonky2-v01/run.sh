#!/usr/bin/env bash
# Writes crates/hwmodel/shapes/plonky2-ecdsa.json (or into the directory given) from
# plonky2_ecdsa 0.1.0's circuit. plonky2_field 0.1.1 no longer compiles on current rustc
# (`#![feature(stdsimd)]`, removed in 1.78); this fetches it with `cargo vendor` and removes
# that one line into target/patched, which Cargo.toml's [patch] points at.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/crates/hwmodel/shapes}"
patched="$here/target/patched/plonky2_field-0.1.1"
if [[ ! -f "$patched/Cargo.toml" ]]; then
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    mkdir -p "$scratch/src"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nplonky2_field = "=0.1.1"\n' \
        > "$scratch/Cargo.toml"
    : > "$scratch/src/lib.rs"
    (cd "$scratch" && cargo vendor --quiet vendor > /dev/null)
    mkdir -p "$(dirname "$patched")"
    rm -rf "$patched"
    cp -r "$scratch/vendor/plonky2_field" "$patched"
    grep -qx '#!\[feature(stdsimd)\]' "$patched/src/lib.rs"
    sed -i '/^#!\[feature(stdsimd)\]$/d' "$patched/src/lib.rs"
    # Vendored sources carry a checksum file; a path dependency needs none.
    rm -f "$patched/.cargo-checksum.json"
fi
cd "$here"
RUSTC_BOOTSTRAP=1 cargo run --release -- "$out"
