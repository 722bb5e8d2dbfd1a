"""Python's overhead over the Rust API, on the same calls and inputs, in one run.

Runs the Rust side (examples/overhead_rust.rs, built in release) and the Python package
alternately, ROUNDS times each, and prints per case the median and the fastest of all runs on
both sides and their ratios (the machines are shared: noise only adds time, so the fastest
runs are the steadier comparison of what each side costs).
Install the package built for speed first: ZKACCEL_PYTHON_PROFILE=release bash
scripts/test-python.sh (or pip install ./crates/python). Usage:

    python crates/python/benches/overhead.py [--rounds 3] [--repeats 5] [--threads N]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import time
from collections.abc import Callable

import numpy as np

from zkaccel import merkle, ntt, poseidon

REPO = pathlib.Path(__file__).resolve().parents[3]


def run_seconds(repeats: int, make: Callable[[], object],
                run: Callable[[object], object]) -> list[float]:
    xs = []
    for _ in range(repeats):
        x = make()
        start = time.perf_counter()
        run(x)
        xs.append(time.perf_counter() - start)
    return xs


def python_side(repeats: int) -> dict[str, list[float]]:
    states = np.arange((1 << 18) * 12, dtype=np.uint64).reshape(1 << 18, 12)
    values = np.arange(1 << 20, dtype=np.uint64)
    bn = np.zeros((1 << 20, 4), dtype=np.uint64)
    bn[:, 0] = np.arange(1 << 20, dtype=np.uint64)
    i = np.arange(1 << 20, dtype=np.uint64).reshape(-1, 1)
    leaves = np.ascontiguousarray(i * np.uint64(1_000_003) + np.arange(8, dtype=np.uint64))
    ntt.forward(values[:4].copy())  # build the plans once, as the Rust side does untimed
    ntt.forward(values.copy(), inplace=True)
    ntt.forward(bn[:4].copy(), field="bn254")
    ntt.forward(bn.copy(), field="bn254", inplace=True)
    return {
        "poseidon_permute_2^18 (in place)": run_seconds(
            repeats, states.copy, lambda s: poseidon.permute(s, "plonky2", inplace=True)),
        "poseidon_permute_2^18 (new array)": run_seconds(
            repeats, lambda: states, lambda s: poseidon.permute(s, "plonky2")),
        "ntt_goldilocks_2^20 (in place)": run_seconds(repeats, values.copy,
                                                         lambda v: ntt.forward(v, inplace=True)),
        "ntt_goldilocks_2^20 (new array)": run_seconds(repeats, lambda: values,
                                                       lambda v: ntt.forward(v)),
        "ntt_bn254_2^20 (in place)": run_seconds(
            repeats, bn.copy, lambda v: ntt.forward(v, field="bn254", inplace=True)),
        "ntt_bn254_2^20 (new array)": run_seconds(
            repeats, lambda: bn, lambda v: ntt.forward(v, field="bn254")),
        "merkle_plonky2_2^20x8": run_seconds(repeats, lambda: leaves,
                                             lambda x: merkle.build(x)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "zkaccel-python", "--example",
                    "overhead_rust"], cwd=REPO, check=True)
    binary = REPO / "target" / "release" / "examples" / "overhead_rust"
    rust: dict[str, list[float]] = {}
    py: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        out = subprocess.run([str(binary), "--repeats", str(args.repeats)], check=True,
                             capture_output=True, text=True, env=dict(os.environ)).stdout
        for k, v in json.loads(out).items():
            rust.setdefault(k, []).extend(v)
        for k, v in python_side(args.repeats).items():
            py.setdefault(k, []).extend(v)
    threads = os.environ.get("RAYON_NUM_THREADS", f"all ({os.cpu_count()})")
    print(f"threads: {threads}; {args.rounds} rounds × {args.repeats} runs a side")
    print(f"{'case':<34} {'Rust ms':>16} {'Python ms':>16} {'Python/Rust':>16}")
    print(f"{'':<34} {'median / best':>16} {'median / best':>16} {'median / best':>16}")
    for k, vs in py.items():
        rs = rust[k.split(" ")[0]]
        r, p = statistics.median(rs) * 1e3, statistics.median(vs) * 1e3
        rb, pb = min(rs) * 1e3, min(vs) * 1e3
        print(f"{k:<34} {r:>8.2f} {rb:>7.2f} {p:>8.2f} {pb:>7.2f} {p / r:>7.3f}× {pb / rb:>6.3f}×")


if __name__ == "__main__":
    main()
