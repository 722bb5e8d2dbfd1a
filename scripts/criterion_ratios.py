#!/usr/bin/env python3
"""Prints, for every criterion group under DIR whose name starts with PREFIX, each function's
mean time and, for each of ours (`zkaccel*`), the ratio peer time / our time against every
peer function (> 1: ours is faster). Usage: criterion_ratios.py DIR [PREFIX]."""
import json
import pathlib
import sys


def mean_ns(function_dir: pathlib.Path):
    estimates = function_dir / "new" / "estimates.json"
    if not estimates.is_file():
        return None
    return json.loads(estimates.read_text())["mean"]["point_estimate"]


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    prefix = sys.argv[2] if len(sys.argv) > 2 else ""
    for group in sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith(prefix)):
        times = {f.name: t for f in group.iterdir() if f.is_dir() and (t := mean_ns(f))}
        if not times:
            continue
        ours = {k: v for k, v in times.items() if k.startswith("zkaccel")}
        peers = {k: v for k, v in times.items() if not k.startswith("zkaccel")}
        print(group.name)
        for name, t in sorted(times.items()):
            print(f"  {name:40s} {t / 1e6:10.2f} ms")
        for o, to in sorted(ours.items()):
            ratios = ", ".join(f"{p} {tp / to:.2f}x" for p, tp in sorted(peers.items()))
            if ratios:
                print(f"  {o}: {ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
