"""zkaccel.dist on a local three-node Ray cluster: the distributed root equals the
single-machine root, with a node killed mid-run (a subtree provably re-ran, nothing lost or
duplicated) and with the driver killed and restarted (it resumes from the persisted roots)."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import zkaccel
from zkaccel import merkle

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

from zkaccel.dist import GeneratedLeaves, NpyLeaves, build  # noqa: E402


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    c.add_node(num_cpus=1)
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, logging_level="ERROR", log_to_driver=False)
    yield c
    ray.shutdown()
    c.shutdown()  # type: ignore[no-untyped-call]


def whole_tree_cap(source: GeneratedLeaves, cap_height: int = 0) -> np.ndarray:
    leaves = merkle.generate_leaves(0, source.num_leaves, source.leaf_width, seed=source.seed)
    return merkle.build(leaves, cap_height=cap_height).cap


def last_json_line(out: str) -> str:
    """The last JSON object line of a driver's stdout: Ray may print its own notices there
    (state dumps after a killed driver, say), before or after ours."""
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert lines, f"no JSON line in the driver's output: {out[-2000:]!r}"
    return lines[-1]


def run_killing_a_worker(job: Callable[[], Any], marks: pathlib.Path) -> tuple[Any, str]:
    """Runs ``job`` on a thread and SIGKILLs the worker of the first task to record an attempt
    in ``marks`` (``stem.node.pid.ns``); returns the job's result and that attempt's name."""
    result: dict[str, Any] = {}

    def drive() -> None:
        try:
            result["value"] = job()
        except BaseException as e:  # surfaced by the assertion below
            result["error"] = e

    driver = threading.Thread(target=drive)
    driver.start()
    deadline = time.monotonic() + 120
    while not list(marks.iterdir()):
        assert time.monotonic() < deadline, "no task started"
        time.sleep(0.02)
    first = next(iter(marks.iterdir())).name
    os.kill(int(first.split(".")[-2]), signal.SIGKILL)  # a worker dies mid-task
    driver.join(timeout=600)
    assert not driver.is_alive(), "the job did not finish within 600 s of the worker's death"
    assert "error" not in result, result.get("error")
    return result["value"], first


def attempts(directory: pathlib.Path) -> dict[int, list[tuple[str, bool]]]:
    """Subtree index → (node, finished) for every execution recorded."""
    out: dict[int, list[tuple[str, bool]]] = {}
    for p in directory.iterdir():
        index, node = p.name.split(".")[:2]
        out.setdefault(int(index), []).append((node, "done" in p.read_text()))
    return out


def big_tree_log_leaves() -> int:
    """The big tree's size, log2 leaves: ``ZKACCEL_DIST_LOG_LEAVES`` (6 to 24), default 14. The
    test build of the package is unoptimised (cargo's dev profile), where 2^20 leaves take
    about eight minutes of CI's two cores; a release build takes seconds at 20."""
    raw = os.environ.get("ZKACCEL_DIST_LOG_LEAVES", "14")
    if not raw.isdigit() or not 6 <= int(raw) <= 24:
        raise ValueError(f"ZKACCEL_DIST_LOG_LEAVES is 6 to 24, not {raw!r}")
    return int(raw)


@pytest.mark.parametrize("raw", ["5", "25", "x", "", " 14", "1e3", "-7", "14.0"])
def test_the_big_trees_size_knob_refuses_bad_values(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("ZKACCEL_DIST_LOG_LEAVES", raw)
    with pytest.raises(ValueError, match="ZKACCEL_DIST_LOG_LEAVES is 6 to 24"):
        big_tree_log_leaves()


def test_the_big_trees_size_knob_takes_its_range(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ZKACCEL_DIST_LOG_LEAVES", raising=False)
    assert big_tree_log_leaves() == 14
    for raw in ("6", "24"):
        monkeypatch.setenv("ZKACCEL_DIST_LOG_LEAVES", raw)
        assert big_tree_log_leaves() == int(raw)


def test_a_big_tree_on_three_nodes(cluster: Any) -> None:
    source = GeneratedLeaves(1 << big_tree_log_leaves(), 2, seed=5)
    commitment = build(source, subtrees=64, cap_height=3, progress=None)
    assert np.array_equal(commitment.cap, whole_tree_cap(source, cap_height=3))
    assert len({n["NodeID"] for n in ray.nodes() if n["Alive"]}) == 3


def test_a_killed_node_loses_nothing(cluster: Any, tmp_path: pathlib.Path) -> None:
    victim = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    victim_id = victim.node_id
    source = GeneratedLeaves(1 << 16, 2, seed=9)
    marks = tmp_path / "attempts"
    marks.mkdir()
    state = tmp_path / "state"
    result: dict[str, Any] = {}

    def drive() -> None:
        try:
            result["commitment"] = build(source, subtrees=64, state_dir=state, progress=None,
                                         _attempts_dir=str(marks), _delay=0.25)
        except BaseException as e:  # surfaced by the assertions below
            result["error"] = e

    driver = threading.Thread(target=drive)
    driver.start()
    deadline = time.monotonic() + 120
    while not any(node == victim_id and not finished
                  for runs in attempts(marks).values() for node, finished in runs):
        assert time.monotonic() < deadline, "no task started on the node to kill"
        time.sleep(0.02)
    cluster.remove_node(victim, allow_graceful=False)  # SIGKILL, mid-task
    driver.join(timeout=600)
    assert not driver.is_alive(), "the job did not finish within 600 s of the worker's death"
    assert "error" not in result, result.get("error")
    assert np.array_equal(result["commitment"].cap, whole_tree_cap(source))
    runs = attempts(marks)
    # Killing a node's raylet loses what ran there (the worker may still write "done" on its
    # way out): such a subtree ran there and again elsewhere.
    rerun = [i for i, r in runs.items()
             if any(node == victim_id for node, _ in r) and any(node != victim_id for node, _ in r)]
    assert rerun, f"no subtree re-ran after the kill: {runs}"
    assert sorted(runs) == list(range(64))
    assert sorted(int(p.stem) for p in (state / "results").glob("*.bin")) == list(range(64))


def test_a_restarted_driver_resumes(cluster: Any, tmp_path: pathlib.Path) -> None:
    state, marks = tmp_path / "state", tmp_path / "attempts"
    marks.mkdir()
    cmd = [sys.executable, "-m", "zkaccel.dist", "merkle", "--leaves", "2^14", "--leaf-width",
           "3", "--seed", "4", "--subtrees", "32", "--state", str(state), "--address",
           cluster.address, "--attempts-dir", str(marks)]
    first = subprocess.Popen(cmd + ["--task-delay", "0.3"], stderr=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, start_new_session=True)
    results = state / "results"
    deadline = time.monotonic() + 120
    while len(list(results.glob("*.bin")) if results.exists() else []) < 6:
        assert time.monotonic() < deadline and first.poll() is None, "the driver made no progress"
        time.sleep(0.02)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    kept = sorted(int(p.stem) for p in results.glob("*.bin"))
    assert 6 <= len(kept) < 32
    out = subprocess.run(cmd + ["--json"], check=True, capture_output=True, text=True).stdout
    report = json.loads(last_json_line(out))
    source = GeneratedLeaves(1 << 14, 3, seed=4)
    assert report["cap"] == [" ".join(str(int(w)) for w in whole_tree_cap(source)[0])]
    runs = attempts(marks)
    for index in kept:  # persisted before the kill: never submitted again
        assert len(runs[index]) == 1, (index, runs[index])
    assert sorted(runs) == list(range(32))


def test_npy_sources_presets_and_bad_input(cluster: Any, tmp_path: pathlib.Path) -> None:
    field_leaves = zkaccel.fields.to_array([i * 5 + 1 for i in range(256)], "bls12-381")
    path = tmp_path / "leaves.npy"
    np.save(path, field_leaves)
    commitment = build(NpyLeaves(str(path)), subtrees=16, preset="neptune", arity=4,
                       progress=None)
    assert commitment == merkle.build(field_leaves, preset="neptune", arity=4).commitment()
    with pytest.raises(zkaccel.InvalidInputError, match="powers of the arity"):
        build(GeneratedLeaves(1000, 1), subtrees=8, progress=None)
    with pytest.raises(zkaccel.InvalidInputError, match="cap height"):
        build(GeneratedLeaves(1024, 1), subtrees=8, cap_height=4, progress=None)
    with pytest.raises(zkaccel.InvalidInputError, match="preset"):
        build(GeneratedLeaves(1024, 1), subtrees=8, preset="sha256", progress=None)
    with pytest.raises(zkaccel.InvalidInputError, match="another job"):
        state = tmp_path / "state"
        build(GeneratedLeaves(64, 1), subtrees=4, state_dir=state, progress=None)
        build(GeneratedLeaves(64, 2), subtrees=4, state_dir=state, progress=None)
    bad = subprocess.run([sys.executable, "-m", "zkaccel.dist", "merkle", "--leaves", "1000",
                          "--subtrees", "8", "--address", cluster.address],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "powers of the arity" in bad.stderr


def test_a_proof_batch_survives_a_killed_worker(cluster: Any, tmp_path: pathlib.Path) -> None:
    from zkaccel import stark
    from zkaccel.dist import Statement, prove_batch

    # Four statements, one more than the cluster's three CPUs (each proof grinds 16
    # proof-of-work bits: seconds in the unoptimised test build).
    statements = [Statement(f"fib{i}", "fibonacci", 6 + i % 2, (i, i + 1), "small-proofs")
                  for i in range(3)]
    statements += [Statement("fact0", "factorial", 5, None, "small-proofs")]
    marks = tmp_path / "attempts"
    marks.mkdir()
    out = tmp_path / "proofs"
    hashes, first = run_killing_a_worker(
        lambda: prove_batch(statements, out, _attempts_dir=str(marks), _delay=0.5), marks)
    assert sorted(hashes) == sorted(s.name for s in statements)
    manifest = json.loads((out / "manifest.json").read_text())
    for s in statements:
        proof = (out / f"{s.name}.proof").read_bytes()
        assert manifest[s.name]["sha256"] == hashes[s.name]
        pis = stark.verify(proof, air=s.air, log_rows=s.log_rows)
        if s.inputs is not None:
            assert pis[:2] == list(s.inputs)
    rerun = first.split(".")[0]
    assert len([m for m in marks.iterdir() if m.name.split(".")[0] == rerun]) >= 2
    # Resumable: nothing left to prove, nothing proved again.
    before = len(list(marks.iterdir()))
    assert prove_batch(statements, out, _attempts_dir=str(marks)) == hashes
    assert len(list(marks.iterdir())) == before
    with pytest.raises(zkaccel.InvalidInputError, match="unknown AIR"):
        prove_batch([Statement("bad", "sha256", 4)], tmp_path / "bad")  # type: ignore[arg-type]
    with pytest.raises(zkaccel.InvalidInputError, match="distinct"):
        prove_batch([Statement("a", "fibonacci", 4)] * 2, tmp_path / "bad")


def test_a_sweep_on_the_cluster_writes_the_local_sweeps_files(
        cluster: Any, cli: str, tmp_path: pathlib.Path) -> None:
    from zkaccel.dist import sweep

    grid = {"spm_mb": [2, 4, 8, 16, 32], "vsas": [8, 16, 32, 64]}
    subprocess.run([cli, "model", "unizk", "sweep", "--workload", "fibonacci", "--set",
                    "array=16", "--param", "spm_mb=2,4,8,16,32", "--param", "vsas=8,16,32,64",
                    "--output", str(tmp_path / "local")], check=True, capture_output=True)
    marks = tmp_path / "attempts"
    marks.mkdir()
    seen: list[tuple[int, int]] = []
    sweeps, first = run_killing_a_worker(
        lambda: sweep("unizk", grid, tmp_path / "dist", chunk=2,
                      base={"workload": "fibonacci", "knobs": {"array": 16}},
                      progress=lambda done, total, _rate: seen.append((done, total)),
                      _attempts_dir=str(marks), _delay=0.5), marks)
    # The killed chunk ran again; every chunk (3 of spm_mb, 2 of vsas) finished exactly once.
    knob, index = first.split(".")[:2]
    assert len([m for m in marks.iterdir() if m.name.split(".")[:2] == [knob, index]]) >= 2
    assert seen[-1] == (5, 5) and [d for d, _ in seen] == [1, 2, 3, 4, 5]
    for knob in grid:
        files = sweeps[knob]["files"]
        assert [p["value"] for p in sweeps[knob]["sweep"]["points"]] == \
            [str(v) for v in grid[knob]]
        for ext in ("csv", "svg", "png"):
            local = (tmp_path / "local" / f"sweep-{knob}.{ext}").read_bytes()
            assert pathlib.Path(files[ext]).read_bytes() == local, (knob, ext)

    # The command line, on the same cluster: the FPGA NTT core's sweep, as the CLI writes it.
    subprocess.run([cli, "model", "ntt-fpga", "sweep", "--log-points", "4", "--param",
                    "pipelines=1,2,4", "--output", str(tmp_path / "ntt-local")],
                   check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-m", "zkaccel.dist", "sweep", "--model", "ntt-fpga",
                          "--set", "log_points=4", "--param", "pipelines=1,2,4", "--chunk", "1",
                          "--out", str(tmp_path / "ntt-dist"), "--address", cluster.address,
                          "--json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(last_json_line(out))["pipelines"]["files"]["csv"].endswith("ntt-sweep-pipelines.csv")
    for ext in ("csv", "svg", "png"):
        name = f"ntt-sweep-pipelines.{ext}"
        assert (tmp_path / "ntt-dist" / name).read_bytes() == \
            (tmp_path / "ntt-local" / name).read_bytes()


def test_a_bad_sweep_value_fails_fast_and_is_not_retried(
        cluster: Any, tmp_path: pathlib.Path) -> None:
    from zkaccel.dist import sweep

    marks = tmp_path / "attempts"
    marks.mkdir()
    start = time.monotonic()
    with pytest.raises(zkaccel.InvalidInputError, match="vsas"):
        sweep("unizk", {"vsas": [16, 0]}, tmp_path / "out", chunk=1,
              base={"workload": "fibonacci"}, _attempts_dir=str(marks))
    assert time.monotonic() - start < 60
    bad = [m for m in marks.iterdir() if m.name.startswith("vsas.1.")]
    assert len(bad) == 1  # an application error is not retried
    assert not (tmp_path / "out").exists()
    hostile: list[tuple[Any, str]] = [({"vsas": []}, "1 to 64"), ({"../x": [1]}, "plain name"),
                                      ({}, "no knob"), ({"vsas": "16"}, "list")]
    for grid, message in hostile:
        with pytest.raises(zkaccel.InvalidInputError, match=message):
            sweep("unizk", grid, tmp_path / "out", base={"workload": "fibonacci"})
    with pytest.raises(zkaccel.InvalidInputError, match="model"):
        sweep("amaze", {"vsas": [1]}, tmp_path / "out")  # type: ignore[arg-type]
    bad_cli = subprocess.run([sys.executable, "-m", "zkaccel.dist", "sweep", "--param", "vsas=1",
                              "--out", str(tmp_path / "o"), "--address", cluster.address],
                             capture_output=True, text=True)
    assert bad_cli.returncode == 2 and "exactly one" in bad_cli.stderr
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    hostile_args = [["--trace", str(tmp_path / "absent.jsonl")], ["--trace", str(binary)],
                    ["--shape", str(tmp_path)], ["--workload", "fibonacci", "--set", "vsas"],
                    ["--model", "ntt-fpga", "--set", "pipelines=x"],
                    ["--model", "ntt-fpga", "--set", "warp=1"],
                    ["--workload", "fibonacci", "--param", "vsas"]]
    for extra in hostile_args:
        run = subprocess.run([sys.executable, "-m", "zkaccel.dist", "sweep", "--param", "vsas=1",
                              "--out", str(tmp_path / "o"), "--address", cluster.address, *extra],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and "error:" in run.stderr, (extra, run.stderr[-500:])


def test_text_leaves_equal_the_clis_input_file(cluster: Any, cli: str,
                                               tmp_path: pathlib.Path) -> None:
    from zkaccel.dist import TextLeaves

    p = zkaccel.fields.modulus("goldilocks")
    values = [[(i * 7919 + j * 104729) % p for j in range(3)] for i in range(1 << 12)]
    values[5][2] = p - 1
    lines = ["# leaves for the distributed build", ""]
    for i, row in enumerate(values):
        cells = [hex(v) if (i + j) % 3 == 0 else str(v) for j, v in enumerate(row)]
        lines.append((", " if i % 2 else " ").join(cells))
        if i % 100 == 0:
            lines += ["   # a comment between rows", "  "]
    path = tmp_path / "leaves.txt"
    path.write_text("\n".join(lines) + "\n")
    source = TextLeaves.open(path, max_offsets=64)  # parts of 64 rows, 64 offsets
    assert (source.num_leaves, source.leaf_width, source.part_rows) == (1 << 12, 3, 64)
    commitment = build(source, subtrees=32, cap_height=2, progress=None)
    out = subprocess.run([cli, "merkle", "build", "--preset", "plonky2", "--input", str(path),
                          "--cap-height", "2"], check=True, capture_output=True, text=True).stdout
    cli_cap = [[int(x) for x in line.replace(",", " ").split()] for line in out.splitlines()
               if line.strip()]
    assert commitment.cap.tolist() == cli_cap
    whole = merkle.build(np.array(values, dtype=np.uint64), cap_height=2).commitment()
    assert commitment == whole
    # The command line, the same file: the same cap.
    run = subprocess.run([sys.executable, "-m", "zkaccel.dist", "merkle", "--text", str(path),
                          "--subtrees", "16", "--cap-height", "2", "--address", cluster.address,
                          "--json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(last_json_line(run))["cap"] == [" ".join(map(str, d)) for d in cli_cap]

    # More subtrees than the index resolves, a value ≥ p, a ragged file: refused, not retried.
    with pytest.raises(zkaccel.InvalidInputError, match="parts of 64"):
        build(source, subtrees=128, progress=None)
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(["1 2"] * 6 + [f"3 {p}"] + ["4 5"]) + "\n")
    with pytest.raises(zkaccel.InvalidInputError, match="not canonical"):
        build(TextLeaves.open(bad), subtrees=4, progress=None)
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("1 2\n3\n")
    with pytest.raises(zkaccel.InvalidInputError, match="line 2: 1 elements where the leaves have 2"):
        TextLeaves.open(ragged)
    with pytest.raises(zkaccel.StorageError):
        TextLeaves.open(tmp_path / "absent.txt")
    missing = subprocess.run([sys.executable, "-m", "zkaccel.dist", "merkle", "--text",
                              str(tmp_path / "absent.txt"), "--subtrees", "2", "--address",
                              cluster.address], capture_output=True, text=True)
    assert missing.returncode == 2 and "absent.txt" in missing.stderr
