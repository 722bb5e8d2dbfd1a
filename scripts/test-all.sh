#!/usr/bin/env bash
# Runs every zkaccel test: formatting, clippy (warnings are errors), the whole workspace's unit,
# integration and doc tests, and the RTL benches (Verilator lint and simulation, Icarus).
# Installs what is missing from Debian's packages and crates.io; needs no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's wall time is printed at the end, also when a step fails (CI
# must stay under an hour on two cores: this says where the time goes).
timings=()
step_name=""
step_start=$SECONDS
end_step() {
  if [[ -n $step_name ]]; then
    timings+=("$(printf '%5d s  %s' $((SECONDS - step_start)) "$step_name")")
  fi
  step_name=""
}
report_timings() {
  end_step
  echo
  echo "time per step (total $SECONDS s):"
  if [[ ${#timings[@]} -gt 0 ]]; then printf '  %s\n' "${timings[@]}"; fi
}
trap report_timings EXIT
step() {
  end_step
  printf '\n==> %s\n' "$*"
  step_name="$*"
  step_start=$SECONDS
}

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install Rust (https://rustup.rs) first" >&2
  exit 1
fi
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    rustup component add "$component"
  fi
done

# Hardware simulators (the RTL benches), Yosys (the AcclMT sub-engines' multiplier counts) and
# python3 (the generated-assembly check), from Debian's packages.
missing=()
for tool in verilator iverilog yosys python3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  step "installing ${missing[*]} from Debian's packages"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The release builds here (the CLI that writes the RTL benches' vectors and runs the cycle
# models, peers/, the fuzz targets) only run checks, so they trade the release profile's single
# codegen unit (the benchmarks' setting) for a build that uses both cores, and its thin LTO and
# opt-level 3 for opt-level 1 without LTO: measured here, the peers' build went from 253 s to
# 109 s (their tests still run in 2 s) and the CLI's from 279 s to 178 s; the CLI's runs in
# the RTL steps (vectors, cycle models) take well under a second either way.
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}"
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-off}"
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${CARGO_PROFILE_RELEASE_OPT_LEVEL:-1}"

step "no build output is tracked (target/ directories, criterion reports)"
if tracked=$(git ls-files 2>/dev/null | grep -E '(^|/)target/') && [[ -n $tracked ]]; then
  echo "build output is committed; remove it with git rm -r --cached:" >&2
  echo "$tracked" | head -20 >&2
  exit 1
fi

step "the repository is self-contained (no reference to files outside it)"
# The notes, specs and papers the code cites live under docs/ (and the kernel-trace schema in
# crates/kernel-trace/SCHEMA.md): a clone must have everything it points at.
if outside=$(git grep -nIE '(\.\./)+shared/|(^|[^a-z/])shared/(notes|specs|papers|vectors|design|hooks)/' -- . \
  ':!scripts/test-all.sh') && [[ -n $outside ]]; then
  echo "references to paths outside the repository (copy what they cite into docs/):" >&2
  echo "$outside" | head -20 >&2
  exit 1
fi

step "the generic crates name no concrete field (presets live in zkaccel-plonky2 and zkaccel-presets)"
cargo metadata --no-deps --locked --format-version 1 | python3 -c '
import json, sys
generic = {"zkaccel-symmetric", "zkaccel-poseidon", "zkaccel-merkle", "zkaccel-challenger",
           "zkaccel-fri", "zkaccel-stark", "zkaccel-ntt", "zkaccel-kernel-trace", "zkaccel-codec",
           "zkaccel-mimc"}
concrete = {"zkaccel-goldilocks", "zkaccel-bn254", "zkaccel-bls12-381", "zkaccel-bls12-377"}
bad = [(p["name"], d["name"]) for p in json.load(sys.stdin)["packages"] if p["name"] in generic
       for d in p["dependencies"] if d["kind"] is None and d["name"] in concrete]
for crate, field in bad:
    print(f"{crate} depends on {field} (move the preset into a compatibility crate)", file=sys.stderr)
sys.exit(1 if bad else 0)
'

step "rustfmt"
cargo fmt --all -- --check

step "generated assembly modules match tools/gen_fp256_asm.py and tools/gen_fp384_asm.py"
python3 tools/gen_fp256_asm.py --check
python3 tools/gen_fp384_asm.py --check

step "clippy (-D warnings; also type-checks every bench)"
cargo clippy --workspace --all-targets --locked -- -D warnings

# The examples are left out of the test builds (clippy above type-checks them; building each
# one's kernels cost minutes); doc tests run in their own invocation. The tests include the
# proof-decoding mutation fuzzer (crates/stark/tests/fuzz_verify.rs, ZKACCEL_FUZZ_INPUTS
# mutated proofs, default 30000).
step "tests"
cargo test --workspace --locked --lib --bins --tests
cargo test --workspace --locked --doc

step "the kernel crates' tests again with SIMD and assembly switched off at run time (ZKACCEL_SIMD=off: the portable paths)"
bash scripts/test-portable.sh

step "docs (broken links are errors; all features, so the kernels modules are documented)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --all-features -q

step "Python package (crates/python: pip install into target/pyenv, pytest, mypy --strict)"
bash scripts/test-python.sh

step "peers that need nightly features (plonky2), built with RUSTC_BOOTSTRAP=1 in peers/"
bash scripts/test-peers.sh

step "RTL: AMAZE designs (lint, Icarus, Verilator vs golden model, cycle-model calibration)"
bash hw/amaze/run.sh "${AMZ_VECTORS:-300}"

step "RTL: shared units (hw/common: Montgomery multiplier at 256 and 384 bits vs golden model)"
bash hw/common/run.sh "${HW_COMMON_VECTORS:-4000}"

step "RTL: FPGA NTT core (hw/ntt: Table III configurations and the PipeZK replica on three fields vs zkaccel-ntt; cycles = model)"
bash hw/ntt/run.sh

step "RTL: AcclMT (hw/acclmt: the two-batch FR/PR engine and its two-FR baseline vs zkaccel-poseidon, Table I cycles, time loss; the Merkle controller: roots vs zkaccel-merkle, Table II)"
bash hw/acclmt/run.sh "${ACCLMT_VECTORS:-1000}"

step "RTL: AcclMT sub-engines read by Yosys (hw/acclmt/synth.sh: FR 18 and PR 12 Montgomery multipliers, the baseline's 36)"
bash hw/acclmt/synth.sh

step "zkaccel bench --quick (smoke run)"
cargo run --release --locked -p zkaccel-cli -- bench --quick --filter goldilocks >/dev/null
cargo run --release --locked -p zkaccel-cli -- bench --quick --filter poseidon >/dev/null
cargo run --release --locked -p zkaccel-cli -- bench --quick --filter merkle >/dev/null
cargo run --release --locked -p zkaccel-cli -- bench --quick --filter ntt >/dev/null

step "libFuzzer targets for every decoder of user bytes (ZKACCEL_FUZZ_SECONDS each, default 10)"
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
ZKACCEL_FUZZ_DIR="$(mktemp -d)" bash scripts/fuzz.sh

echo
echo "all checks passed in $SECONDS s"
