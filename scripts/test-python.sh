#!/usr/bin/env bash
# The Python package's checks: builds crates/python into a virtual environment under target/
# (maturin, through pip, as the README's `pip install ./crates/python` does), runs its pytest
# suite (known-answer vectors, round trips, hostile inputs, results equal to the CLI's) and
# type-checks the tests against the package's stubs, and the package's Python, with
# `mypy --strict`, and checks the stubs against the built module (`mypy.stubtest`). The
# suite includes zkaccel.dist on a local three-node Ray cluster (nodes and
# a driver killed mid-run).
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
# The build tools, the test tools and the `dist` extra (Ray, pinned in pyproject.toml).
extras=$("$venv/bin/python" -c 'import tomllib; p = tomllib.load(open("crates/python/pyproject.toml", "rb"))["project"]; print(" ".join(p["dependencies"] + p["optional-dependencies"]["test"] + p["optional-dependencies"]["dist"]))')
# shellcheck disable=SC2086 # one requirement per word
"$venv/bin/pip" install -q --disable-pip-version-check "maturin>=1.9.4,<2" $extras
# The test build carries the benchmark hook (the `bench-hooks` feature, which the wheel users
# get leaves out): test_hostile.py checks it computes the call benches/overhead.py compares.
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps ./crates/python \
  -C build-args="--locked --profile ${ZKACCEL_PYTHON_PROFILE:-dev} --features bench-hooks"

# The CLI the tests compare against: the one `cargo test --workspace` built (building it alone
# would recompile the workspace under another feature set).
[[ -x target/debug/zkaccel ]] || cargo build -q --locked -p zkaccel-cli
ZKACCEL_CLI="$PWD/target/debug/zkaccel" "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/python/tests
(cd crates/python && "../../$venv/bin/python" -m mypy --strict --no-incremental tests &&
  "../../$venv/bin/python" -m mypy --strict --no-incremental -p zkaccel)
# The stubs against the module itself: every name, signature and default (stubtest imports
# the package, so it runs outside the source tree, on what pip installed).
(cd target && "../$venv/bin/python" -m mypy.stubtest zkaccel \
  --allowlist ../crates/python/stubtest-allowlist.txt)
