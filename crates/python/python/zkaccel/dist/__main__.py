"""``python -m zkaccel.dist merkle …``: a distributed Merkle tree from the command line.

Prints the cap (the root when ``--cap-height`` is 0), one digest per line as ``zkaccel merkle
build`` does, or a JSON object with ``--json``. ``--address`` joins an existing Ray cluster;
without it a local one is started. ``--state DIR`` persists subtree roots: rerun the same
command after a crash and only the missing subtrees are rebuilt. Exit status 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from .. import fields
from ..errors import ZkaccelError
from .merkle import FIELDS, GeneratedLeaves, NpyLeaves, Source, build


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
    args = parser.parse_args(argv)

    source: Source
    if args.npy:
        source = NpyLeaves(args.npy)
    else:
        source = GeneratedLeaves(args.leaves, args.leaf_width, args.seed)
    try:
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


if __name__ == "__main__":
    sys.exit(main())
