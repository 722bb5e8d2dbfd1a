"""``python -m zkaccel.dist merkle …`` and ``python -m zkaccel.dist sweep …`` on Ray.

``merkle`` builds a tree's commitment from subtrees and prints the cap (the root when ``--cap-height`` is 0), one digest per line as ``zkaccel merkle
build`` does, or a JSON object with ``--json``. ``--address`` joins an existing Ray cluster;
without it a local one is started. ``--state DIR`` persists subtree roots: rerun the same
command after a crash and only the missing subtrees are rebuilt.

``sweep`` runs a model's design-space sweep (``--model unizk`` or ``ntt-fpga``, each
``--param knob=v1,v2,…``) across the cluster and writes the CSV and plots ``zkaccel model …
sweep`` writes. Exit status 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from .. import fields
from ..errors import ZkaccelError
from .merkle import FIELDS, GeneratedLeaves, NpyLeaves, Source, TextLeaves, build
from .sweeps import MODELS, sweep

#: The largest trace or shape file ``sweep`` reads (the whole file goes to every task).
_MAX_INPUT_BYTES = 256 << 20

#: The FPGA NTT model's base arguments and their types (``--set name=value``).
_NTT_BASE = {"log_points": int, "pipelines": int, "mul_latency": int, "width": int,
             "points": int, "core": str, "clock_mhz": float}


def _count(text: str) -> int:
    """An integer, or a power written ``2^k``."""
    if "^" in text:
        base, exp = text.split("^", 1)
        return int(int(base) ** int(exp))
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m zkaccel.dist", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("merkle", help="build a tree's commitment from subtrees on Ray")
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument("--leaves", type=_count, help="generate this many leaves (e.g. 2^20)")
    src.add_argument("--npy", help="leaves from this .npy file (uint64) on shared storage")
    src.add_argument("--text", help="leaves from this text file (the CLI's --input rows) on "
                                    "shared storage, indexed once on the driver")
    m.add_argument("--leaf-width", type=int, default=1, help="elements per generated leaf")
    m.add_argument("--seed", type=int, help="seed of the generated leaves (ChaCha8)")
    m.add_argument("--subtrees", type=_count, required=True, help="aligned subtrees (tasks)")
    m.add_argument("--preset", choices=sorted(FIELDS), default="plonky2")
    m.add_argument("--arity", type=int, default=2)
    m.add_argument("--strength", choices=["standard", "strengthened"], default="standard")
    m.add_argument("--cap-height", type=int, default=0)
    m.add_argument("--state", help="directory persisting subtree roots (resumable)")
    m.add_argument("--address", help="an existing Ray cluster (default: start a local one)")
    m.add_argument("--max-retries", type=int, default=3)
    m.add_argument("--json", action="store_true")
    m.add_argument("--task-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    m.add_argument("--attempts-dir", help=argparse.SUPPRESS)
    s = sub.add_parser("sweep", help="a model's design-space sweep on Ray (CSV and plots)")
    s.add_argument("--model", choices=sorted(MODELS), default="unizk")
    s.add_argument("--param", action="append", required=True, metavar="KNOB=V1,V2,...",
                   help="a knob and its values; repeat for several sweeps")
    s.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="the base configuration (unizk: model knobs; ntt-fpga: "
                        + ", ".join(_NTT_BASE) + ")")
    s.add_argument("--workload", choices=["fibonacci", "factorial", "mvm", "ecdsa", "sha256",
                                          "image-crop"],
                   help="unizk: a built-in workload")
    s.add_argument("--trace", help="unizk: a kernel trace (JSON Lines)")
    s.add_argument("--shape", help="unizk: a plonky2 circuit shape (JSON)")
    s.add_argument("--mode", choices=["paper", "unizk-sim"], default="paper",
                   help="unizk: the hardware as published or the public simulator's artefacts")
    s.add_argument("--output", "--out", dest="out", required=True,
                   help="the directory the CSV and plots go to (as the CLI's --output)")
    s.add_argument("--chunk", type=int, default=4, help="values per task")
    s.add_argument("--font", help="a TrueType font for the plots")
    s.add_argument("--address", help="an existing Ray cluster (default: start a local one)")
    s.add_argument("--max-retries", type=int, default=3)
    s.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "sweep":
        return _sweep(args)

    source: Source
    try:
        if args.npy:
            source = NpyLeaves(args.npy)
        elif args.text:
            source = TextLeaves.open(args.text, arity=args.arity)
        else:
            source = GeneratedLeaves(args.leaves, args.leaf_width, args.seed)
        commitment = build(
            source, subtrees=args.subtrees, preset=args.preset, arity=args.arity,
            strength=args.strength, cap_height=args.cap_height, state_dir=args.state,
            address=args.address, max_retries=args.max_retries,
            _attempts_dir=args.attempts_dir, _delay=args.task_delay,
        )
    except (ZkaccelError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    cap = commitment.cap
    if args.preset == "plonky2":
        lines = [" ".join(str(int(w)) for w in d) for d in cap]
    else:
        lines = [str(v) for v in fields.to_ints(np.ascontiguousarray(cap), FIELDS[args.preset])]
    if args.json:
        print(json.dumps({"cap": lines, "num_leaves": commitment.num_leaves,
                          "cap_height": commitment.cap_height,
                          "commitment": commitment.to_bytes().hex()}))
    else:
        print("\n".join(lines))
    return 0


def _pair(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise ValueError(f"{text!r}: expected name=value")
    name, value = text.split("=", 1)
    return name.strip(), value.strip()


def _sweep(args: argparse.Namespace) -> int:
    try:
        grid = {}
        for param in args.param:
            knob, values = _pair(param)
            grid[knob] = [v for v in values.split(",") if v.strip()]
        base: dict[str, object] = {}
        if args.model == "unizk":
            sources = [("workload", args.workload), ("trace", args.trace), ("shape", args.shape)]
            given = [(k, v) for k, v in sources if v is not None]
            if len(given) != 1:
                raise ValueError("give exactly one of --workload, --trace, --shape")
            key, value = given[0]
            if key != "workload":
                with open(value, encoding="utf-8") as f:
                    value = f.read(_MAX_INPUT_BYTES + 1)
                if len(value) > _MAX_INPUT_BYTES:
                    raise ValueError(f"--{key} {given[0][1]}: longer than {_MAX_INPUT_BYTES} bytes")
            base = {key: value, "mode": args.mode, "knobs": dict(map(_pair, args.set))}
        else:
            if args.workload or args.trace or args.shape:
                raise ValueError("--workload, --trace and --shape are the unizk model's")
            for name, value in map(_pair, args.set):
                if name not in _NTT_BASE:
                    raise ValueError(f"--set {name}: the base takes {', '.join(_NTT_BASE)}")
                base[name] = _NTT_BASE[name](value)
        results = sweep(args.model, grid, args.out, base=base, chunk=args.chunk,
                        font=args.font, address=args.address, max_retries=args.max_retries)
    except (ZkaccelError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(results))
    else:
        for knob, result in results.items():
            files = result["files"]
            print(f"{knob}: {len(result['sweep']['points'])} points; wrote "
                  f"{files['csv']}, {files['svg']}, {files['png']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
