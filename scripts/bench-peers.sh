#!/usr/bin/env bash
# Criterion benches of zkaccel against peers that need nightly Rust features (plonky2 1.1.0),
# ours and theirs in one group on identical inputs. Extra arguments go to criterion, e.g.
# `scripts/bench-peers.sh -- --measurement-time 3`.
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTC_BOOTSTRAP=1 cargo bench --locked --manifest-path peers/Cargo.toml "$@"
