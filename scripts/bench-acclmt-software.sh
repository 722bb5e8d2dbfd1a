#!/usr/bin/env bash
# AcclMT's software columns re-measured on this machine, beside the paper's: Table I's NEPTUNE
# column (one Poseidon hash at a time and batches on one thread, per arity, neptune 13 and
# zkaccel in one criterion run: crates/poseidon/benches/poseidon.rs) and Table II's CPU columns
# (binary neptune trees of 2^12 … 2^LOG_MAX leaves over BLS12-381, neptune's hash level by level
# and zkaccel, all cores, same leaves and checked roots: crates/merkle/examples/
# neptune_compare.rs), with AcclMT's own figures (paper; the engine model for Table I).
#
#   scripts/bench-acclmt-software.sh [LOG_MAX]    (default 20; the paper goes to 23)
set -euo pipefail
cd "$(dirname "$0")/.."
log_max="${1:-20}"
if ! [[ "$log_max" =~ ^[0-9]+$ ]] || (( log_max < 12 || log_max > 26 )); then
  echo "LOG_MAX must be 12 to 26" >&2
  exit 2
fi
export CRITERION_HOME="${CRITERION_HOME:-$PWD/target/criterion-acclmt}"
cargo bench --locked -p zkaccel-poseidon --bench poseidon -- \
  'poseidon-neptune-arity[0-9]+-(single|batch-1-thread)' >/dev/null
model_json="$(cargo run -q --release --locked -p zkaccel-cli -- model acclmt tables --json)"
python3 scripts/acclmt_software.py table-i "$CRITERION_HOME" <<<"$model_json"
for log_n in $(seq 12 "$log_max"); do
  cargo run -q --release --locked -p zkaccel-merkle --example neptune_compare -- "$log_n"
done | python3 scripts/acclmt_software.py table-ii
