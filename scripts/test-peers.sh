#!/usr/bin/env bash
# Differential tests against peers that need nightly Rust features (plonky2 1.1.0), built on
# stable with RUSTC_BOOTSTRAP=1 scoped to this separate crate (peers/), so zkaccel itself stays
# on stable.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --manifest-path peers/Cargo.toml -- --check
RUSTC_BOOTSTRAP=1 cargo test --release --locked --manifest-path peers/Cargo.toml "$@"
