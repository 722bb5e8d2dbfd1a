#!/usr/bin/env bash
# Batched Goldilocks NTTs and LDEs against Plonky3 (crates/ntt/benches/ntt_batch.rs), each
# library built the way it is meant to be: ours plainly (it chooses AVX2/AVX-512 at run time),
# Plonky3 with `-C target-cpu=native` (its packed Goldilocks is chosen at compile time). Both
# write into one criterion directory; the ratios (peer time / our time, > 1: ours is faster)
# are printed at the end. Extra arguments go to criterion, e.g. `-- --measurement-time 5`;
# shapes: ZKACCEL_NTT_BATCH (default 16x135,20x8), ZKACCEL_LDE_BATCH (default 20x8,20x135).
set -euo pipefail
cd "$(dirname "$0")/.."
export CRITERION_HOME="${CRITERION_HOME:-$PWD/target/criterion-ntt-batch}"
native_target="${CARGO_TARGET_DIR:-$PWD/target}/native"
cargo bench --locked -p zkaccel-ntt --bench ntt_batch -- zkaccel "$@"
RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native" CARGO_TARGET_DIR="$native_target" \
  cargo bench --locked -p zkaccel-ntt --bench ntt_batch -- plonky3 "$@"
python3 scripts/criterion_ratios.py "$CRITERION_HOME" 'batch-'
