#!/usr/bin/env python3
"""Formats scripts/bench-acclmt-software.sh's measurements beside AcclMT's Tables I and II.

  acclmt_software.py table-i CRITERION_DIR   (the model's JSON, `zkaccel model acclmt tables --json`,
                                              on stdin)
  acclmt_software.py table-ii                (neptune_compare's lines on stdin)
"""
import json
import pathlib
import re
import sys

# Table I: AcclMT (500 MHz) and NEPTUNE (i7-13700F, 2.1 GHz), hashes per second.
TABLE_I = {2: (14.11e6, 97.00e3), 4: (5.93e6, 57.67e3), 8: (3.79e6, 30.29e3), 11: (2.69e6, 20.96e3)}
# Table II (arity 2), ms: AcclMT, CSF'24 (i9-13900KF), Dusk-network (Xeon 8358).
TABLE_II = {
    12: (0.91, 75.8, 498), 13: (1.22, 152, 1010), 14: (1.83, 303, 2000), 15: (3.04, 607, 4000),
    16: (5.45, 1213, 7990), 17: (10.3, 2426, 16000), 18: (19.8, 4852, 32000),
    19: (39.0, None, 64000), 20: (77.4, None, 128000), 21: (154, None, 256000),
    22: (308, None, 512000), 23: (615, None, 1024000),
}


def mean_ns(path: pathlib.Path):
    estimates = path / "new" / "estimates.json"
    if not estimates.is_file():
        return None
    return json.loads(estimates.read_text())["mean"]["point_estimate"]


def table_i(root: pathlib.Path) -> int:
    model = {row["row"]["arity"]: row for row in json.load(sys.stdin)["table_i"]}
    print("Table I on this machine (hashes/s; one hash at a time, and batches on one thread):")
    print(f"{'arity':>5} {'neptune':>10} {'zkaccel':>10} {'ratio':>6} {'neptune b.':>11} "
          f"{'zkaccel b.':>11} {'ratio':>6}   {'paper NEPTUNE':>13} {'paper AcclMT':>12} "
          f"{'model AcclMT':>12}")
    missing = False
    for arity, (paper_acclmt, paper_neptune) in TABLE_I.items():
        rates = {}
        for kind, per in (("single", 1), ("batch-1-thread", None)):
            group = root / f"poseidon-neptune-arity{arity}-{kind}"
            for who in ("neptune", "zkaccel"):
                t = mean_ns(group / who)
                if t is None:
                    missing = True
                    continue
                if per is None:
                    bench = json.loads((group / who / "new" / "benchmark.json").read_text())
                    per = bench["throughput"]["Elements"]
                rates[(kind, who)] = per / (t * 1e-9)
        if len(rates) < 4:
            print(f"{arity:>5} (no criterion results under {root})")
            continue
        single = rates[("single", "zkaccel")] / rates[("single", "neptune")]
        batch = rates[("batch-1-thread", "zkaccel")] / rates[("batch-1-thread", "neptune")]
        print(f"{arity:>5} {rates[('single', 'neptune')] / 1e3:>9.2f}K "
              f"{rates[('single', 'zkaccel')] / 1e3:>9.2f}K {single:>5.2f}x "
              f"{rates[('batch-1-thread', 'neptune')] / 1e3:>10.2f}K "
              f"{rates[('batch-1-thread', 'zkaccel')] / 1e3:>10.2f}K {batch:>5.2f}x   "
              f"{paper_neptune / 1e3:>12.2f}K {paper_acclmt / 1e6:>11.2f}M "
              f"{model[arity]['hashes_per_second'] / 1e6:>11.2f}M")
    return 1 if missing else 0


def table_ii() -> int:
    line = re.compile(r"2\^(\d+) leaves, (\d+) threads: neptune ([0-9.]+) s, zkaccel ([0-9.]+) s")
    print("Table II on this machine (arity 2, ms; all cores):")
    print(f"{'leaves':>6} {'threads':>7} {'neptune':>10} {'zkaccel':>10} {'ratio':>6}   "
          f"{'paper AcclMT':>12} {'CSF24':>8} {'Dusk':>9}")
    seen = 0
    for text in sys.stdin:
        m = line.search(text)
        if not m:
            continue
        seen += 1
        log_n, threads = int(m[1]), int(m[2])
        neptune, ours = float(m[3]) * 1e3, float(m[4]) * 1e3
        acclmt, csf, dusk = TABLE_II.get(log_n, (None, None, None))
        fmt = lambda v, w: f"{v:>{w}.4g}" if v is not None else f"{'-':>{w}}"
        print(f"  2^{log_n:<2} {threads:>7} {neptune:>10.2f} {ours:>10.2f} {neptune / ours:>5.2f}x   "
              f"{fmt(acclmt, 12)} {fmt(csf, 8)} {fmt(dusk, 9)}")
    return 0 if seen else 1


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "table-i":
        return table_i(pathlib.Path(sys.argv[2]))
    if len(sys.argv) == 2 and sys.argv[1] == "table-ii":
        return table_ii()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
