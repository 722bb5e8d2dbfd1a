"""zkaccel.dist's engine overhead and scaling, measured on a local Ray cluster.

Builds a tree of 2^LOG_LEAVES generated leaves (width 8, seeded) three ways and prints leaves/s:
  1. one process, all cores: `zkaccel.merkle.build_streaming_commitment`-equivalent work
     (each subtree generated and built in turn, then combined) — the single-machine baseline;
  2. the same subtrees as Ray tasks on a local cluster of NODES nodes × 1 CPU
     (RAYON_NUM_THREADS=1 in each task: one core per task);
  3. the per-task cost breakdown: generation, hashing, Ray's round trip per task, and the
     driver's cost per result (4,096 empty subtrees with a state directory: each root
     received, persisted atomically and counted — the driver-bound rate).
Then projects, from these measured per-subtree costs, trees of 2^30 and 2^34 leaves on N
machines. Usage:

    python crates/python/benches/dist_scale.py [--log-leaves 24] [--log-subtree 16] [--nodes 2]
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time

import numpy as np

os.environ.setdefault("RAY_DEDUP_LOGS", "0")

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

from zkaccel import merkle  # noqa: E402
from zkaccel.dist import GeneratedLeaves, build  # noqa: E402

WIDTH = 8


def single_process(source: GeneratedLeaves, subtrees: int) -> tuple[float, np.ndarray, float, float]:
    rows = source.num_leaves // subtrees
    roots, gen_s, hash_s = [], 0.0, 0.0
    start = time.perf_counter()
    for i in range(subtrees):
        t0 = time.perf_counter()
        leaves = source.rows(i * rows, rows, "goldilocks")
        t1 = time.perf_counter()
        roots.append(merkle.build(leaves).cap)
        t2 = time.perf_counter()
        gen_s += t1 - t0
        hash_s += t2 - t1
    cap = merkle.combine(np.concatenate(roots), num_leaves=source.num_leaves, leaf_width=WIDTH).cap
    return time.perf_counter() - start, cap, gen_s / subtrees, hash_s / subtrees


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log-leaves", type=int, default=24)
    parser.add_argument("--log-subtree", type=int, default=16)
    parser.add_argument("--nodes", type=int, default=2)
    args = parser.parse_args()
    n, subtrees = 1 << args.log_leaves, 1 << (args.log_leaves - args.log_subtree)
    source = GeneratedLeaves(n, WIDTH, seed=1)

    single_s, single_cap, gen_s, hash_s = single_process(source, subtrees)
    print(f"2^{args.log_leaves} leaves × {WIDTH}, {subtrees} subtrees of 2^{args.log_subtree}")
    print(f"single process ({os.cpu_count()} cores): {single_s:.2f} s, {n / single_s:,.0f} leaves/s;"
          f" per subtree: generate {gen_s * 1e3:.1f} ms, hash {hash_s * 1e3:.1f} ms")

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    for _ in range(args.nodes - 1):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level=logging.ERROR, log_to_driver=False,
             runtime_env={"env_vars": {"RAYON_NUM_THREADS": "1"}})
    build(GeneratedLeaves(1 << 12, WIDTH, seed=1), subtrees=2, progress=None)  # warm workers
    start = time.perf_counter()
    commitment = build(source, subtrees=subtrees, progress=None)
    ray_s = time.perf_counter() - start
    assert np.array_equal(commitment.cap, single_cap), "the cluster's root differs"
    print(f"Ray, {args.nodes} nodes × 1 CPU: {ray_s:.2f} s, {n / ray_s:,.0f} leaves/s "
          f"({ray_s / single_s:.2f}× the single process's time)")
    start = time.perf_counter()
    build(GeneratedLeaves(subtrees, 1, seed=1), subtrees=subtrees, progress=None)
    per_task = (time.perf_counter() - start) / subtrees * args.nodes
    print(f"Ray round trip per (empty) task: {per_task * 1e3:.2f} ms of a node's time")
    with tempfile.TemporaryDirectory() as state:
        results = 4096
        start = time.perf_counter()
        build(GeneratedLeaves(results, 1, seed=2), subtrees=results, state_dir=state,
              progress=None)
        per_root = (time.perf_counter() - start) / results
    print(f"driver, per result persisted (4,096 empty tasks, driver-bound): "
          f"{per_root * 1e3:.2f} ms")
    ray.shutdown()
    cluster.shutdown()

    task_s = gen_s + hash_s  # on all local cores; one core per task on a cluster node
    cores_here = os.cpu_count() or 1
    print(f"\nprojection (one task per core; measured: {task_s * cores_here * 1e3:.1f} ms of a "
          f"core per 2^{args.log_subtree}-leaf subtree, {per_task * 1e3:.2f} ms per task, "
          f"{per_root * 1e3:.2f} ms per result on the driver):")
    for log_n in (30, 34):
        for log_subtree in (args.log_subtree, args.log_subtree + 4):
            tasks = 1 << (log_n - log_subtree)
            core_s = task_s * cores_here * (1 << (log_subtree - args.log_subtree)) + per_task
            for machines, cores in ((16, 32), (128, 32)):
                waves = -(-tasks // (machines * cores))  # whole tasks: the last wave counts
                compute = waves * core_s
                driver = tasks * per_root  # each root received and persisted on the driver
                leaf_bytes = (1 << log_n) * WIDTH * 8
                print(f"  2^{log_n} leaves, subtrees of 2^{log_subtree}, {machines} machines × "
                      f"{cores} cores: compute {compute:.1f} s, driver {driver:.1f} s, leaf data "
                      f"{leaf_bytes / 2**40:.2f} TiB if read from storage")


if __name__ == "__main__":
    main()
