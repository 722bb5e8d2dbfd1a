"""The models' reports as dicts, equal to the CLI's JSON."""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any

import pytest

import zkaccel
from zkaccel import models, stark


def cli_json(cli: str, *args: str) -> object:
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_every_model_report_equals_the_cli_json(cli: str, tmp_path: pathlib.Path) -> None:
    """Each model's report is one hwmodel type that both front ends print: the Python call's
    dict equals the CLI's ``--json`` for every model and every kind of report."""
    amaze_config = {**models.amaze("AMZ-1")["config"], "name": "mine", "batch": 7}
    (tmp_path / "amaze.json").write_text(json.dumps(amaze_config))
    ntt_trace = tmp_path / "ntt.jsonl"
    subprocess.run([cli, "ntt", "--field", "bls12-381", "--random", "10", "--trace",
                    str(ntt_trace)], check=True, capture_output=True)
    _, stark_trace = stark.prove_with_trace("fibonacci", 8, config="small-proofs")
    (tmp_path / "stark.jsonl").write_text(stark_trace)
    merkle = {"version": 1, "id": 0, "deps": [], "phase": "commit", "kind": "merkle",
              "hash": "poseidon-bn254-3", "log_leaves": 13, "leaf_width": 2, "cap_height": 0,
              "arity": 2, "leaf_layout": "rows"}
    (tmp_path / "merkle.jsonl").write_text(json.dumps(merkle) + "\n")
    cases: list[tuple[Any, list[str]]] = [
        (models.amaze(), ["amaze", "tables"]),
        (models.amaze("AMZ-2a"), ["amaze", "tables", "--design", "AMZ-2a"]),
        (models.amaze(config=amaze_config), ["amaze", "run", "--config", str(tmp_path / "amaze.json")]),
        (models.ntt_fpga_tables(), ["ntt-fpga", "tables"]),
        (models.ntt_fpga_tables(mul_latency=3, clock_mhz=100.0),
         ["ntt-fpga", "tables", "--mul-latency", "3", "--clock-mhz", "100"]),
        (models.ntt_fpga(3, pipelines=3, mul_latency=0, points=400, core="pipezk"),
         ["ntt-fpga", "run", "--log-points", "3", "--pipelines", "3", "--mul-latency", "0",
          "--points", "400", "--core", "pipezk"]),
        (models.ntt_fpga(8, pipelines=2, core="pipelined"),
         ["ntt-fpga", "run", "--log-points", "8", "--pipelines", "2", "--core", "pipelined"]),
        (models.ntt_fpga_trace(ntt_trace.read_text(), core="pipezk", clock_mhz=100.0),
         ["ntt-fpga", "replay", "--trace", str(ntt_trace), "--core", "pipezk", "--clock-mhz", "100"]),
        (models.unizk(workload="fibonacci", mode="unizk-sim", knobs={"vsas": 64}),
         ["unizk", "replay", "--workload", "fibonacci", "--mode", "unizk-sim", "--set", "vsas=64"]),
        (models.unizk(trace=stark_trace), ["unizk", "replay", "--trace", str(tmp_path / "stark.jsonl")]),
        (models.acclmt(), ["acclmt", "tables"]),
        (models.acclmt(config={"merger": False, "bandwidth_gb_per_s": 2.0}),
         ["acclmt", "tables", "--no-merger", "--bandwidth-gbps", "2"]),
        (models.acclmt(hashes=1000), ["acclmt", "run", "--hashes", "1000"]),
        (models.acclmt(hashes=300, shape={"width": 5, "alpha": 3, "full_rounds": 8,
                                          "partial_rounds": 60},
                       config={"engine": {"baseline": True, "batch": 16}}),
         ["acclmt", "run", "--hashes", "300", "--width", "5", "--alpha", "3", "--partial-rounds", "60",
          "--baseline", "--batch", "16"]),
        (models.acclmt(16384), ["acclmt", "run", "--leaves", "16384"]),
        (models.acclmt(4**7, arity=4), ["acclmt", "run", "--leaves", str(4**7), "--width", "5"]),
        (models.acclmt(16384, cycle_exact=True), ["acclmt", "run", "--leaves", "16384", "--cycle-exact"]),
        (models.acclmt_trace((tmp_path / "merkle.jsonl").read_text()),
         ["acclmt", "replay", "--trace", str(tmp_path / "merkle.jsonl")]),
    ]
    for ours, args in cases:
        assert ours == cli_json(cli, "model", *args, "--json"), args
    assert isinstance(models.amaze(), list) and len(models.amaze()) == 7


def test_amaze_refuses_an_unknown_design() -> None:
    with pytest.raises(zkaccel.InvalidInputError):
        models.amaze("AMZ-9")


def test_ntt_fpga_cores() -> None:
    ours = models.ntt_fpga(8, pipelines=2)
    assert models.ntt_fpga(8, core="pipelined")["cycles"] < ours["cycles"]
    with pytest.raises(zkaccel.InvalidInputError, match="core"):
        models.ntt_fpga(8, core="gpu")  # type: ignore[arg-type]
    tables = models.ntt_fpga_tables()
    assert [row["paper"]["cycles"] for row in tables["table_iii"]][0] == 39094
    assert len(tables["table_v"]) == 8 and len(tables["table_vii"]) == 4


def test_unizk_replays_a_proofs_trace() -> None:
    proof, trace = stark.prove_with_trace("fibonacci", 8, config="small-proofs")
    assert stark.verify(proof)[:2] == [0, 1]
    report = models.unizk(trace=trace, mode="paper")
    assert isinstance(report, dict) and report
    faster = models.unizk(trace=trace, mode="paper", knobs={"vsas": 64})
    assert isinstance(faster, dict)
    fib = models.unizk(workload="fibonacci", mode="unizk-sim")
    mvm = models.unizk(workload="mvm", mode="unizk-sim")
    # UniZK's Table 3: MVM (2^18 rows, 400 wires) costs about 14 times Fibonacci (2^16 rows).
    assert 5 * fib["ms"] < mvm["ms"] < 30 * fib["ms"]
    with pytest.raises(zkaccel.InvalidInputError):
        models.unizk(workload="keccak")
    with pytest.raises(zkaccel.InvalidInputError):
        models.unizk(trace="not json\n")
    with pytest.raises(zkaccel.InvalidInputError, match="exactly one"):
        models.unizk()


def cli_sweep(cli: str, out: pathlib.Path, *args: str) -> list[dict[str, Any]]:
    """``zkaccel model … sweep … --json --output OUT``: one JSON sweep per line."""
    text = subprocess.run([cli, "model", *args, "--output", str(out), "--json"], check=True,
                          capture_output=True, text=True).stdout
    return [json.loads(line) for line in text.splitlines()]


def same_files(a: dict[str, str], b: pathlib.Path, stem: str) -> None:
    for ext in ("csv", "svg", "png"):
        ours = pathlib.Path(a[ext])
        assert ours.name == f"{stem}.{ext}"
        assert ours.read_bytes() == (b / f"{stem}.{ext}").read_bytes(), ext


def test_unizk_sweeps_equal_the_cli_point_for_point_and_byte_for_byte(
        cli: str, tmp_path: pathlib.Path) -> None:
    theirs = cli_sweep(cli, tmp_path / "cli", "unizk", "sweep", "--workload", "fibonacci",
                       "--set", "vsas=16", "--param", "spm_mb=2,8,32")
    ours = models.unizk_sweep("spm_mb", [2, "8", 32], workload="fibonacci",
                              knobs={"vsas": 16})
    assert [ours] == theirs
    assert [p["value"] for p in ours["points"]] == ["2", "8", "32"]
    files = models.write_sweep(ours, tmp_path / "py", model="unizk")
    same_files(files, tmp_path / "cli", "sweep-spm_mb")


def test_ntt_sweeps_equal_the_cli(cli: str, tmp_path: pathlib.Path) -> None:
    theirs = cli_sweep(cli, tmp_path / "cli", "ntt-fpga", "sweep", "--log-points", "4",
                       "--param", "pipelines=1,2,4")
    ours = models.ntt_fpga_sweep("pipelines", [1, 2, 4], log_points=4)
    assert [ours] == theirs
    assert [p["speedup"] > 1.5 for p in ours["points"]] == [False, True, True]
    files = models.write_sweep(ours, tmp_path / "py", model="ntt-fpga")
    same_files(files, tmp_path / "cli", "ntt-sweep-pipelines")


def test_sweeps_refuse_bad_knobs_values_and_hostile_files(tmp_path: pathlib.Path) -> None:
    with pytest.raises(zkaccel.InvalidInputError, match="knob"):
        models.unizk_sweep("warp_drive", [1], workload="fibonacci")
    with pytest.raises(zkaccel.InvalidInputError):
        models.unizk_sweep("vsas", [0], workload="fibonacci")
    with pytest.raises(zkaccel.InvalidInputError, match="1 to 64"):
        models.unizk_sweep("vsas", list(range(1, 66)), workload="fibonacci")
    with pytest.raises(zkaccel.InvalidInputError, match="1 to 64"):
        models.ntt_fpga_sweep("pipelines", [])
    with pytest.raises(zkaccel.InvalidInputError, match="workload"):
        models.unizk_sweep("vsas", [1], workload="keccak")
    with pytest.raises(zkaccel.InvalidInputError):
        models.ntt_fpga_sweep("pipelines", [1], log_points=0)
    good = models.unizk_sweep("vsas", [16, 32], workload="fibonacci")
    out = tmp_path / "out"
    for knob in ("../escape", "a/b", "", ".x"):
        with pytest.raises(zkaccel.InvalidInputError, match="knob"):
            models.write_sweep({**good, "knob": knob}, out, model="unizk")
    bad_value = {**good, "points": [{**good["points"][0], "value": "1,2"}]}
    with pytest.raises(zkaccel.InvalidInputError, match="CSV"):
        models.write_sweep(bad_value, out, model="unizk")
    forged = {**good, "points": [{**good["points"][0], "value": str(i)} for i in range(10**5)]}
    with pytest.raises(zkaccel.InvalidInputError, match="at most 64"):
        models.write_sweep(forged, out, model="unizk")
    with pytest.raises(zkaccel.InvalidInputError):
        models.ntt_fpga_sweep("points", [2**64 - 1])
    with pytest.raises((zkaccel.InvalidInputError, OverflowError)):
        models.ntt_fpga_sweep("pipelines", [1], points=2**64)
    with pytest.raises(zkaccel.InvalidInputError, match="UniZK sweep"):
        models.write_sweep({"knob": "vsas"}, out, model="unizk")
    with pytest.raises(zkaccel.InvalidInputError, match="NTT sweep"):
        models.write_sweep(good, out, model="ntt-fpga")
    with pytest.raises(zkaccel.InvalidInputError, match="model"):
        models.write_sweep(good, out, model="amaze")  # type: ignore[arg-type]
    with pytest.raises(zkaccel.InvalidInputError, match="font"):
        models.write_sweep(good, out, model="unizk", font=tmp_path / "none.ttf")
    assert not out.exists() or not any(out.iterdir())
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(zkaccel.StorageError):
        models.write_sweep(good, blocker / "below", model="unizk")
    with pytest.raises(OSError):
        models.write_sweep(good, blocker / "below", model="unizk")


def test_acclmt_takes_a_partial_config_and_refuses_bad_ones(cli: str, tmp_path: pathlib.Path) -> None:
    tables = models.acclmt()
    assert len(tables["table_ii"]) == 12
    assert all(abs(row["error_percent"]) <= 2.0 for row in tables["table_ii"])
    tree = models.acclmt(16384)
    assert tree["run"]["rhe_hashes"] == 16383
    alone = models.acclmt(16384, config={"merger": False, "engine": {"clock_mhz": 500.0}})
    assert alone["controller"]["merger"] is False
    assert alone["run"]["cycles"] > tree["run"]["cycles"]
    for bad in ({"merger": 1}, {"bandwidth_gb_per_s": 0.0}, {"colour": "red"},
                {"engine": {"batch": 3}}):
        with pytest.raises(zkaccel.InvalidInputError):
            models.acclmt(16384, config=bad)
    for leaves in (12288, 0, 2**63, 2**64 - 1):
        with pytest.raises(zkaccel.InvalidInputError, match="leaves"):
            models.acclmt(leaves)
    # Wider trees (beyond the paper): the CLI's run for the same instance, every node hashed once.
    quad = models.acclmt(4**7, arity=4)
    assert quad["geometry"] == {
        "arity": 4, "subtree_leaves": 4096, "level0_subtrees": 64, "level1_entries": 16}
    assert quad["run"]["rhe_hashes"] == (4**7 - 1) // 3
    assert models.acclmt(11**4, arity=11)["geometry"]["subtree_leaves"] == 1331
    # The RTL controller's cycle-exact model: within 1 % of the batch model's.
    exact = models.acclmt(16384, cycle_exact=True)
    assert exact["controller"] == {"arity": 2, "subtree_depth": 12, "major_nodes": 128,
                                   "level0_depth": 7, "level1_depth": 4}
    assert exact["depth"] == 14 and exact["run"]["hashes"] == [16384, 16383]
    assert abs(exact["run"]["cycles"] / tree["run"]["cycles"] - 1) < 0.01
    stream = models.acclmt(hashes=1000)
    assert stream["run"]["hashes"] == 1000 and stream["shape"]["width"] == 3
    for wrong in ({"leaves": 16384, "hashes": 10}, {"hashes": 10, "cycle_exact": True},
                  {"hashes": 0}, {"hashes": 2**40}, {"shape": {"width": 3}},
                  {"hashes": 10, "shape": {"width": 99, "alpha": 5, "full_rounds": 8,
                                           "partial_rounds": 56}},
                  {"shape": {"width": 3, "alpha": 5, "full_rounds": 8, "partial_rounds": 56}}):
        with pytest.raises(zkaccel.InvalidInputError):
            models.acclmt(**wrong)
    for size in (None, 0, 12288, 2048, 2**63, 2**64 - 1):
        with pytest.raises(zkaccel.InvalidInputError):
            models.acclmt(size, cycle_exact=True)
    for arity, leaves in ((4, 8192), (3, 3**9), (11, 4096), (0, 16384), (12, 12**4)):
        with pytest.raises(zkaccel.InvalidInputError):
            models.acclmt(leaves, arity=arity)
    with pytest.raises(zkaccel.InvalidInputError, match="arity 4 without leaves"):
        models.acclmt(arity=4)
    for config in ({"subtree_leaves": 2**63}, {"level0_subtrees": 2**40},
                   {"bandwidth_gb_per_s": float("nan")}, {"engine": "fast"}, [1, 2]):
        with pytest.raises(zkaccel.InvalidInputError):
            models.acclmt(16384, config=config)  # type: ignore[arg-type]
    with pytest.raises(zkaccel.InvalidInputError):
        models.acclmt_sweep("batch", [])
    with pytest.raises(zkaccel.InvalidInputError):
        models.acclmt_sweep("leaves", [2**64 - 1])
    sweep = models.acclmt_sweep("merger", ["on", "off"], leaves=8192)
    assert cli_sweep(cli, tmp_path / "cli", "acclmt", "sweep", "--leaves", "8192",
                     "--param", "merger=on,off") == [sweep]
    files = models.write_sweep(sweep, tmp_path / "py", model="acclmt")
    same_files(files, tmp_path / "cli", "acclmt-sweep-merger")
    with pytest.raises(zkaccel.InvalidInputError):
        models.acclmt_sweep("colour", ["red"])
    record = {"version": 1, "id": 0, "deps": [], "phase": "commit", "kind": "merkle",
              "hash": "poseidon-bn254-3", "log_leaves": 13, "leaf_width": 2, "cap_height": 0,
              "arity": 2, "leaf_layout": "rows"}
    report = models.acclmt_trace(json.dumps(record) + "\n")
    assert [row["run"]["leaves"] for row in report["rows"]] == [8192]
    assert report["not_modelled"] == []
    for damaged in ("", json.dumps(record)[:-7] + "\n", json.dumps({**record, "log_leaves": 2**40})):
        if damaged == "":
            assert models.acclmt_trace(damaged)["rows"] == []
        else:
            with pytest.raises(zkaccel.InvalidInputError):
                models.acclmt_trace(damaged)
