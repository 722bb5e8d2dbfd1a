#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ with SanitizerCoverage on stable Rust (the flags
# cargo-fuzz would pass), writes their seeds, and runs each for ZKACCEL_FUZZ_SECONDS seconds
# (default 10) with bounded memory and time per input. A crash, a leak of the memory limit or
# a slow input fails the run and leaves the input in $ZKACCEL_FUZZ_DIR/artifacts/<target>/.
# One target: scripts/fuzz.sh merkle_proof. The corpus grows in $ZKACCEL_FUZZ_DIR (default
# fuzz/corpus, not tracked), so later runs start where earlier ones stopped.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${ZKACCEL_FUZZ_SECONDS:-10}
work=${ZKACCEL_FUZZ_DIR:-fuzz/corpus}
host=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
# --target keeps the flags off build scripts and proc macros.
cargo build --release --locked --manifest-path fuzz/Cargo.toml --features libfuzzer \
  --target "$host" --bins
bin=fuzz/target/$host/release

"$bin/seeds" "$work"
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || mapfile -t targets < <(ls fuzz/fuzz_targets | sed 's/\.rs$//')
for target in "${targets[@]}"; do
  mkdir -p "$work/artifacts/$target"
  log="$work/artifacts/$target/last-run.log"
  printf '%-18s %ss: ' "$target" "$seconds"
  if ! "$bin/$target" "$work/$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$target/" >"$log" 2>&1; then
    echo "FAILED" >&2
    tail -40 "$log" >&2
    exit 1
  fi
  # libFuzzer's final statistics: inputs run, inputs that added coverage.
  awk '/^stat::number_of_executed_units/ {runs = $2} /^stat::new_units_added/ {new = $2}
       END {printf "%s inputs, %s new coverage\n", runs, new}' "$log"
done
