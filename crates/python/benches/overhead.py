"""Python's overhead over the Rust API, on the same calls and inputs, in one run.

Each call is made three ways, ROUNDS × REPEATS times, alternately:
- through the Rust API inside the extension module (zkaccel._native._overhead_reference, the
  code of src/overhead_reference.rs), on an array that the Python call is then given, refilled
  with the input: same binary, same memory, so the ratio is what Python adds per call;
- through the package;
- through the Rust API in a binary of its own (examples/overhead_rust.rs, built in release):
  what a Rust program measures, code placement and allocations included.
Printed per case: the median and fastest runs, and ratios as the median of the ratios of runs
made next to each other (the machines are shared; pairing cancels slow drifts in load; which
side goes first alternates) and as best over best (noise only adds time). "In place" cases run on words copied beforehand,
untimed; "new array" cases time the copy the call makes (in Rust, `to_vec` first).
Install the package built for speed and with the benchmark hook first (the wheel users get has
no hook): pip install ./crates/python -C build-args="--features bench-hooks". Usage:

    [RAYON_NUM_THREADS=1] python crates/python/benches/overhead.py [--rounds 15] [--repeats 1]
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

from zkaccel import _native, merkle, ntt, poseidon

REPO = pathlib.Path(__file__).resolve().parents[3]

# The Rust side inside the extension module: only in a build with the `bench-hooks` feature.
HOOK = getattr(_native, "_overhead_reference", None)
if HOOK is None:
    raise SystemExit(
        "this zkaccel was built without the benchmark hook: "
        "pip install ./crates/python -C build-args=\"--features bench-hooks\"")


def inputs() -> dict[str, np.ndarray]:
    """Each case's input (the rules examples/overhead_rust.rs makes them by)."""
    bn = np.zeros((1 << 20, 4), dtype=np.uint64)
    bn[:, 0] = np.arange(1 << 20, dtype=np.uint64)
    i = np.arange(1 << 20, dtype=np.uint64).reshape(-1, 1)
    return {
        "poseidon_permute_2^18": np.arange((1 << 18) * 12, dtype=np.uint64).reshape(-1, 12),
        "ntt_goldilocks_2^20": np.arange(1 << 20, dtype=np.uint64),
        "ntt_goldilocks_2^20_checked": np.arange(1 << 20, dtype=np.uint64),
        "ntt_bn254_2^20": bn,
        "merkle_plonky2_2^20x8": np.ascontiguousarray(
            i * np.uint64(1_000_003) + np.arange(8, dtype=np.uint64)),
    }


# The Python calls: case, way (" (in place)", " (new array)", "" for the tree), call.
CALLS: list[tuple[str, str, Callable[[np.ndarray], object]]] = [
    ("poseidon_permute_2^18", " (in place)",
     lambda s: poseidon.permute(s, "plonky2", inplace=True)),
    ("poseidon_permute_2^18", " (new array)", lambda s: poseidon.permute(s, "plonky2")),
    ("ntt_goldilocks_2^20", " (in place)", lambda v: ntt.forward(v, inplace=True)),
    ("ntt_goldilocks_2^20", " (new array)", lambda v: ntt.forward(v)),
    # The same call against the Rust plan that checks and finishes words as the package does.
    ("ntt_goldilocks_2^20_checked", " (in place)", lambda v: ntt.forward(v, inplace=True)),
    ("ntt_goldilocks_2^20_checked", " (new array)", lambda v: ntt.forward(v)),
    ("ntt_bn254_2^20", " (in place)", lambda v: ntt.forward(v, field="bn254", inplace=True)),
    ("ntt_bn254_2^20", " (new array)", lambda v: ntt.forward(v, field="bn254")),
    ("merkle_plonky2_2^20x8", "", lambda x: merkle.build(x)),
]


def module_and_python(data: dict[str, np.ndarray],
                      rust_first: bool) -> tuple[dict[str, float], dict[str, float]]:
    """One run of each call through the Rust API inside the extension module and one through
    the package (`rust_first` says which goes first), on the same array, refilled with the
    input before each."""
    rust, py = {}, {}
    for case, way, call in CALLS:
        work = data[case].copy()
        for side in (("rust", "python") if rust_first else ("python", "rust")):
            np.copyto(work, data[case])
            if side == "rust":
                rust[case + way] = HOOK(case, work, way == " (new array)")
            else:
                start = time.perf_counter()
                result = call(work)
                py[case + way] = time.perf_counter() - start
                del result
    return rust, py


def paired(num: list[float], den: list[float]) -> float:
    """The median of the ratios of runs made next to each other (the k-th of each side)."""
    return statistics.median(a / b for a, b in zip(num, den, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "zkaccel-python", "--example",
                    "overhead_rust"], cwd=REPO, check=True)
    binary = REPO / "target" / "release" / "examples" / "overhead_rust"
    sides: dict[str, dict[str, list[float]]] = {"binary": {}, "module": {}, "python": {}}
    data = inputs()
    ntt.forward(data["ntt_goldilocks_2^20"][:4].copy())  # the plans, built once, untimed
    ntt.forward(data["ntt_goldilocks_2^20"].copy(), inplace=True)
    ntt.forward(data["ntt_bn254_2^20"][:4].copy(), field="bn254")
    ntt.forward(data["ntt_bn254_2^20"].copy(), field="bn254", inplace=True)
    for round_ in range(args.rounds):
        out = subprocess.run([str(binary), "--repeats", str(args.repeats)], check=True,
                             capture_output=True, text=True, env=dict(os.environ)).stdout
        for k, v in json.loads(out).items():
            sides["binary"].setdefault(k, []).extend(v)
        for repeat in range(args.repeats):
            rust, py = module_and_python(data, (round_ + repeat) % 2 == 0)
            for k in rust:
                sides["module"].setdefault(k, []).append(rust[k])
                sides["python"].setdefault(k, []).append(py[k])
    threads = os.environ.get("RAYON_NUM_THREADS", f"all ({os.cpu_count()})")
    print(f"threads: {threads}; {args.rounds} rounds × {args.repeats} runs a side")
    print("Rust: the Rust API timed inside the extension module on the array the Python call is"
          " then given (same binary, same memory); binary: the same calls built as"
          " examples/overhead_rust. Ratios: the median of the ratios of runs made next to each"
          " other (paired), and best over best.")
    head = ("case", "Rust ms", "Python ms", "Python/Rust", "Python/binary")
    print(f"{head[0]:<40} {head[1]:>16} {head[2]:>16} {head[3]:>16} {head[4]:>16}")
    print(f"{'':<40} {'median / best':>16} {'median / best':>16}" + f" {'paired / best':>16}" * 2)
    for k, vs in sides["python"].items():
        rs, bs = sides["module"][k], sides["binary"][k]
        r, p = (statistics.median(x) * 1e3 for x in (rs, vs))
        rb, pb, bb = (min(x) * 1e3 for x in (rs, vs, bs))
        print(f"{k:<40} {r:>8.2f} {rb:>7.2f} {p:>8.2f} {pb:>7.2f} {paired(vs, rs):>7.3f}×"
              f" {pb / rb:>6.3f}× {paired(vs, bs):>7.3f}× {pb / bb:>6.3f}×")


if __name__ == "__main__":
    main()
