"""The GIL is released while Rust computes: another Python thread keeps running."""

from __future__ import annotations

import threading
import time

import numpy as np

from zkaccel import poseidon


def test_the_gil_is_released_during_a_long_call() -> None:
    # A call of about a second in either build (the unoptimised test build permutes a
    # thousand times slower than a release build): sized by timing a small one first.
    probe = np.zeros((1 << 8, 12), dtype=np.uint64)
    start = time.perf_counter()
    poseidon.permute(probe, "plonky2")
    per_state = max(time.perf_counter() - start, 1e-6) / len(probe)
    rows = int(min(max(0.25 / per_state, 1 << 8), 1 << 22))
    states = np.zeros((rows, 12), dtype=np.uint64)
    done = threading.Event()
    ticks = 0

    def work() -> None:
        for _ in range(4):
            poseidon.permute(states, "plonky2")
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    # While the worker is inside Rust, this loop must keep getting the GIL. If the calls held
    # it, the loop would advance only between calls (a handful of ticks at most).
    while not done.is_set():
        ticks += 1
    worker.join()
    assert ticks > 10_000, ticks


def test_two_threads_hash_concurrently_and_agree() -> None:
    states = np.arange(1365 * 12, dtype=np.uint64).reshape(1365, 12)
    results: list[np.ndarray] = []
    lock = threading.Lock()

    def work() -> None:
        out = poseidon.permute(states, "plonky2")
        with lock:
            results.append(out)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for r in results[1:]:
        assert np.array_equal(r, results[0])
