#!/usr/bin/env bash
# The Python package's checks: builds crates/python into a virtual environment under target/
# (maturin, through pip, as the README's `pip install ./crates/python` does), runs its pytest
# suite (known-answer vectors, round trips, hostile inputs, results equal to the CLI's) and
# type-checks the tests against the package's stubs with `mypy --strict`.
#
# The test build uses cargo's dev profile (dependencies at opt-level 3), which reuses what
# `cargo test --workspace` compiled; ZKACCEL_PYTHON_PROFILE=release builds it as users get it.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/pyenv
if [[ ! -x $venv/bin/python ]]; then
  python3 -m venv "$venv" || {
    echo "python3 -m venv failed: install python3-venv (Debian) or a Python with venv" >&2
    exit 1
  }
fi
"$venv/bin/pip" install -q --disable-pip-version-check "maturin>=1.9.4,<2" "numpy>=1.22" pytest mypy
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./crates/python \
  -C build-args="--locked --profile ${ZKACCEL_PYTHON_PROFILE:-dev}"

cargo build -q --locked -p zkaccel-cli
ZKACCEL_CLI="$PWD/target/debug/zkaccel" "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/python/tests
(cd crates/python && "../../$venv/bin/python" -m mypy --strict --no-incremental tests)
