#!/usr/bin/env python3
"""Checks that the assembly pasted into the Rust sources is what the generators print today:
every block of instruction lines from tools/gen_mont_asm.py and tools/gen_avx2_asm.py must
appear, line for line and in order, in its source file. Exits non-zero naming the first block
that does not.

Run: python3 tools/check_generated_asm.py (scripts/test-all.sh does).
"""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHECKS = [
    (["gen_mont_asm.py"], "crates/fp256/src/asm.rs"),
    (["gen_avx2_asm.py", "mul"], "crates/fp256/src/avx2.rs"),
    (["gen_avx2_asm.py", "square"], "crates/fp256/src/avx2.rs"),
    (["gen_avx2_asm.py", "hybrid-mul"], "crates/fp256/src/hybrid.rs"),
    (["gen_avx2_asm.py", "hybrid-square"], "crates/fp256/src/hybrid.rs"),
    (["gen_avx2_asm.py", "hybrid-mul-add"], "crates/fp256/src/hybrid.rs"),
]


def blocks(text):
    """Runs of consecutive quoted instruction lines, stripped of indentation."""
    runs, run = [], []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith('"'):
            run.append(line)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs


def contains(haystack, needle):
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def main():
    failures = 0
    for args, source in CHECKS:
        script = ROOT / "tools" / args[0]
        printed = subprocess.run(
            [sys.executable, str(script), *args[1:]],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        lines = [l.strip() for l in (ROOT / source).read_text().splitlines()]
        for k, block in enumerate(blocks(printed)):
            if not contains(lines, block):
                print(f"{source}: block {k} of `{' '.join(args)}` ({len(block)} lines, "
                      f"starting {block[0]}) is not in the source; regenerate and paste it")
                failures += 1
    if failures:
        sys.exit(1)
    print(f"generated assembly: {len(CHECKS)} generator runs match their sources")


if __name__ == "__main__":
    main()
