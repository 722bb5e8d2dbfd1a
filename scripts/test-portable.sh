#!/usr/bin/env bash
# Runs the kernel crates' test binaries again with ZKACCEL_SIMD=off: every kernel takes its
# portable path (what a CPU without AVX2, AVX-512 or ADX, or a non-x86 machine, runs). It runs
# the binaries `cargo test --workspace --lib --bins --tests` built (building a subset of the
# workspace would resolve other features and rebuild it), each from its crate's directory, as
# cargo does. Of zkaccel-stark, whose quotient evaluation chooses a packing at run time, the
# unit tests and the starky vectors run too (the proofs must match on the width-1 path; its
# longer suites are left to the first run, to keep CI's time); the crates above it (hwmodel,
# cli, ...) call the same kernels and are left to the first run.
#
#   scripts/test-portable.sh [TEST-FILTER...]      (passed to every binary)
set -euo pipefail
cd "$(dirname "$0")/.."

kernel_crates=(zkaccel-field zkaccel-field-testing zkaccel-goldilocks zkaccel-fp256 zkaccel-fp384
  zkaccel-bn254 zkaccel-bls12-381 zkaccel-bls12-377 zkaccel-symmetric zkaccel-poseidon
  zkaccel-mimc zkaccel-ntt zkaccel-merkle zkaccel-challenger zkaccel-fri zkaccel-stark
  zkaccel-plonky2 zkaccel-presets)

# One "directory<TAB>executable" line per test binary of those crates, matched by manifest
# (cargo metadata's, so no package-id format is parsed).
manifests=$(cargo metadata --no-deps --locked --format-version 1 | python3 -c '
import json, sys
wanted = set(sys.argv[1:])
for package in json.load(sys.stdin)["packages"]:
    if package["name"] in wanted:
        print(package["manifest_path"])
' "${kernel_crates[@]}")
[[ $(wc -l <<<"$manifests") == "${#kernel_crates[@]}" ]] ||
  { echo "cargo metadata lacks some of: ${kernel_crates[*]}" >&2; exit 1; }
binaries=$(cargo test --workspace --locked --lib --bins --tests --no-run --message-format=json |
  python3 -c '
import json, os, sys
wanted = set(sys.argv[1].splitlines())
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
        continue
    if not msg["profile"]["test"] or msg["manifest_path"] not in wanted:
        continue
    if msg["manifest_path"].endswith("/crates/stark/Cargo.toml") and msg["target"]["name"] not in (
        "zkaccel_stark",
        "vectors",
    ):
        continue
    print(os.path.dirname(msg["manifest_path"]) + "\t" + msg["executable"])
' "$manifests")
[[ -n $binaries ]] || { echo "no test binaries of the kernel crates found" >&2; exit 1; }

export ZKACCEL_SIMD=off
count=0
while IFS=$'\t' read -r dir exe; do
  printf '%s (%s)\n' "$(basename "$exe")" "${dir#"$PWD"/}"
  (cd "$dir" && "$exe" -q "$@")
  count=$((count + 1))
done <<<"$binaries"
echo "$count test binaries of ${#kernel_crates[@]} kernel crates passed with ZKACCEL_SIMD=off"
