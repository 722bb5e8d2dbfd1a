#!/usr/bin/env bash
# Runs every zkaccel test: formatting, clippy (warnings are errors), the whole workspace's unit,
# integration and doc tests, and (once hardware units exist) the Verilator benches.
# Installs what is missing from Debian's packages and crates.io; needs no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install Rust (https://rustup.rs) first" >&2
  exit 1
fi
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    rustup component add "$component"
  fi
done

step "rustfmt"
cargo fmt --all -- --check

step "clippy (-D warnings)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "tests"
cargo test --workspace --locked

step "benches compile"
cargo bench --workspace --locked --no-run

step "zkaccel bench --quick (smoke run)"
cargo run --release --locked -p zkaccel-cli -- bench --quick --filter goldilocks >/dev/null

echo
echo "all checks passed"
