"""Python's overhead over the Rust API, on the same calls and inputs, in one run.

Runs the Rust side (examples/overhead_rust.rs, built in release) and the Python package
alternately, ROUNDS times each, and prints per case the median seconds of both and the ratio.
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


def median_seconds(repeats: int, make: Callable[[], object], run: Callable[[object], object]) -> float:
    xs = []
    for _ in range(repeats):
        x = make()
        start = time.perf_counter()
        run(x)
        xs.append(time.perf_counter() - start)
    return statistics.median(xs)


def python_side(repeats: int) -> dict[str, float]:
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
        "poseidon_permute_2^18 (in place)": median_seconds(
            repeats, states.copy, lambda s: poseidon.permute(s, "plonky2", inplace=True)),
        "poseidon_permute_2^18 (new array)": median_seconds(
            repeats, lambda: states, lambda s: poseidon.permute(s, "plonky2")),
        "ntt_goldilocks_2^20 (in place)": median_seconds(repeats, values.copy,
                                                         lambda v: ntt.forward(v, inplace=True)),
        "ntt_goldilocks_2^20 (new array)": median_seconds(repeats, lambda: values,
                                                          lambda v: ntt.forward(v)),
        "ntt_bn254_2^20 (in place)": median_seconds(
            repeats, bn.copy, lambda v: ntt.forward(v, field="bn254", inplace=True)),
        "ntt_bn254_2^20 (new array)": median_seconds(
            repeats, lambda: bn, lambda v: ntt.forward(v, field="bn254")),
        "merkle_plonky2_2^20x8": median_seconds(repeats, lambda: leaves,
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
            rust.setdefault(k, []).append(v)
        for k, v in python_side(args.repeats).items():
            py.setdefault(k, []).append(v)
    threads = os.environ.get("RAYON_NUM_THREADS", f"all ({os.cpu_count()})")
    print(f"threads: {threads}; median of {args.rounds} rounds × {args.repeats} runs")
    print(f"{'case':<34} {'Rust ms':>10} {'Python ms':>10} {'Python/Rust':>12}")
    for k, vs in py.items():
        base = k.split(" ")[0]
        r = statistics.median(rust[base]) * 1e3
        p = statistics.median(vs) * 1e3
        print(f"{k:<34} {r:>10.2f} {p:>10.2f} {p / r:>11.3f}×")


if __name__ == "__main__":
    main()
