#!/usr/bin/env bash
# Writes crates/hwmodel/shapes/plonky2-ecdsa.json (or into the directory given) from
# plonky2_ecdsa 0.1.0's circuit and plonky2-imgcrop.json from zkedit's crop circuit (rebuilt
# from the authors' source; about 9 GB and 3 minutes), and, with UNIZK_DIR set to a checkout of the UniZK authors'
# repository (github.com/tsinghua-ideal/UniZK at 9c94b55), plonky2-sha256.json from the
# plonky2-sha256 crate it vendors (thirdparty/sha256, published on no registry).
# plonky2_field 0.1.1 no longer compiles on current rustc (`#![feature(stdsimd)]`, removed in
# 1.78); this fetches it with `cargo vendor` and removes that one line into target/patched,
# which the manifests' [patch] points at. The sha256 crate is copied, unchanged but for its
# manifest (plonky2 0.1.1 and plonky2_u32 0.1.0 from crates.io instead of the authors' plonky2
# fork, which current rustc no longer compiles), into target/unizk; neither copy is committed.
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
RUSTC_BOOTSTRAP=1 cargo run --release --bin zkaccel-plonky2-v01-shapes -- "$out"
RUSTC_BOOTSTRAP=1 cargo run --release --bin imgcrop -- "$out"
if [[ -n ${UNIZK_DIR:-} ]]; then
    sha256="$here/target/unizk/plonky2_sha256"
    rm -rf "$sha256"
    mkdir -p "$(dirname "$sha256")"
    cp -r "$UNIZK_DIR/thirdparty/sha256" "$sha256"
    cat > "$sha256/Cargo.toml" <<'MANIFEST'
[package]
name = "plonky2_sha256"
version = "0.1.0"
edition = "2021"

[dependencies]
plonky2 = { version = "=0.1.1", default-features = false, features = ["std"] }
plonky2_util = "0.1"
plonky2_field = "=0.1.1"
plonky2_u32 = "=0.1.0"
itertools = "0.10"
MANIFEST
    (cd "$here/sha256" && RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$here/target" cargo run --release -- "$out")
fi
