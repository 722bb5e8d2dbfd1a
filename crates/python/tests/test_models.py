"""The models' reports as dicts, equal to the CLI's JSON."""

from __future__ import annotations

import json
import subprocess

import pytest

import zkaccel
from zkaccel import models, stark


def cli_json(cli: str, *args: str) -> object:
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_amaze_equals_the_cli(cli: str) -> None:
    assert models.amaze("AMZ-2a") == cli_json(cli, "model", "amaze", "--design", "AMZ-2a", "--json")
    everything = models.amaze()
    assert isinstance(everything, list) and len(everything) == 7
    with pytest.raises(zkaccel.InvalidInputError):
        models.amaze("AMZ-9")


def test_ntt_fpga_equals_the_cli(cli: str) -> None:
    ours = models.ntt_fpga(8, pipelines=2)
    assert ours == cli_json(cli, "model", "ntt-fpga", "--log-points", "8", "--pipelines", "2",
                            "--json")
    assert models.ntt_fpga(8, core="pipelined")["cycles"] < ours["cycles"]
    with pytest.raises(zkaccel.InvalidInputError, match="core"):
        models.ntt_fpga(8, core="gpu")


def test_unizk_replays_a_proofs_trace() -> None:
    proof, trace = stark.prove_with_trace("fibonacci", 8, config="small-proofs")
    assert stark.verify(proof)[:2] == [0, 1]
    report = models.unizk(trace=trace, mode="paper")
    assert isinstance(report, dict) and report
    faster = models.unizk(trace=trace, mode="paper", knobs={"vsas": 64})
    assert isinstance(faster, dict)
    assert isinstance(models.unizk(workload="fibonacci"), dict)
    with pytest.raises(zkaccel.InvalidInputError):
        models.unizk(trace="not json\n")
    with pytest.raises(zkaccel.InvalidInputError, match="exactly one"):
        models.unizk()
