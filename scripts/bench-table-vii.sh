#!/usr/bin/env bash
# Table VII of the FPGA NTT paper on this machine: the Groth16 H kernel (bellman's seven
# transforms, BLS12-381 Fr) at the paper's padded sizes, ours beside bellman 0.14 on one thread
# and on all cores (crates/ntt/benches/groth16.rs), then the ratios (bellman time / ours, > 1:
# ours is faster) and the model's U50 column beside the paper's U50 and Ryzen 9 5900X columns.
#
#   scripts/bench-table-vii.sh [SIZES] [criterion args...]
#       SIZES: comma-separated input sizes (default the paper's 1000,10000,100000,1000000;
#       the largest runs the kernel on 2,097,152 points, about a minute per sample on one core)
set -euo pipefail
cd "$(dirname "$0")/.."
export ZKACCEL_TABLE_VII_SIZES="${1:-1000,10000,100000,1000000}"
shift || true
export CRITERION_HOME="${CRITERION_HOME:-$PWD/target/criterion-table-vii}"
cargo bench --locked -p zkaccel-ntt --bench groth16 -- "$@"
python3 scripts/criterion_ratios.py "$CRITERION_HOME" 'table-vii-'
cargo run -q --release --locked -p zkaccel-cli -- model ntt-fpga tables | sed -n '/^Table VII/,$p'
