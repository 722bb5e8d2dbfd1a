"""STARK proofs through the Python API: the CLI's files byte for byte, starky 1.1.0's proofs
accepted, every damaged proof rejected with a typed error."""

from __future__ import annotations

import hashlib
import pathlib
import random
import subprocess
from typing import Any

import pytest

import zkaccel
from conftest import load_vectors
from zkaccel import stark

P = 2**64 - 2**32 + 1


def fib(n: int, x0: int = 0, x1: int = 1) -> int:
    for _ in range(n - 1):
        x0, x1 = x1, (x0 + x1) % P
    return x1


def test_prove_verify_and_the_cli_file(cli: str, tmp_path: pathlib.Path) -> None:
    proof = stark.prove("fibonacci", 5, inputs=[3, 4], config="small-proofs")
    assert stark.verify(proof) == [3, 4, fib(32, 3, 4)]
    assert stark.verify(proof, air="fibonacci", log_rows=5, inputs=[3, 4, fib(32, 3, 4)])
    path = tmp_path / "proof.bin"
    subprocess.run([cli, "prove", "--air", "fibonacci", "--log-rows", "5", "--inputs", "3,4",
                    "--config", "small-proofs", "--output", str(path)],
                   check=True, capture_output=True)
    assert path.read_bytes() == proof
    verdict = subprocess.run([cli, "verify", str(path)], capture_output=True, text=True)
    assert verdict.returncode == 0, verdict.stderr
    with pytest.raises(zkaccel.VerificationError, match="AIR"):
        stark.verify(proof, air="factorial")
    with pytest.raises(zkaccel.VerificationError, match="rows"):
        stark.verify(proof, log_rows=6)
    with pytest.raises(zkaccel.VerificationError, match="public inputs"):
        stark.verify(proof, inputs=[3, 4, 5])


def test_every_damaged_proof_is_rejected() -> None:
    proof = stark.prove("factorial", 4, config="small-proofs")
    rng = random.Random(9)
    positions = sorted(set(rng.randrange(len(proof)) for _ in range(150)) | {0, 8, 12, len(proof) - 1})
    # Whichever byte is damaged (header or body) or wherever the file is cut, the proof does
    # not verify: VerificationError, as for a damaged Merkle proof, and the CLI's exit 1.
    for at in positions:
        damaged = bytearray(proof)
        damaged[at] ^= 1 << rng.randrange(8)
        with pytest.raises(zkaccel.VerificationError):
            stark.verify(bytes(damaged))
    for cut in (0, 7, 20, len(proof) // 2, len(proof) - 1):
        with pytest.raises(zkaccel.VerificationError):
            stark.verify(proof[:cut])
    for junk in (b"", b"ZKSTARK\0", bytes(1000), rng.randbytes(5000)):
        with pytest.raises(zkaccel.VerificationError):
            stark.verify(junk)


def test_starky_proofs_verify_and_ours_are_byte_identical() -> None:
    cases: list[Any] = load_vectors("starky.json")["cases"]
    checked = 0
    for case in cases:
        if case["config"] != "standard_fast" or case["log_rows"] > 12:
            continue  # 'small' is a configuration of the vectors' own, not a preset
        ours = stark.prove(case["air"], case["log_rows"], encoding="plonky2")
        if "proof_sha3_256" in case:
            assert hashlib.sha3_256(ours).hexdigest() == case["proof_sha3_256"]
            proof = ours
        else:
            proof = bytes.fromhex(case["proof_hex"])
            assert ours == proof
        assert len(proof) == case["size"]
        pis = stark.verify(proof, encoding="plonky2", air=case["air"], log_rows=case["log_rows"],
                           config="standard-fast", starky_compatible=True)
        if case["air"] == "fibonacci":
            assert pis == [0, 1, fib(1 << case["log_rows"])]
        damaged = bytearray(proof)
        damaged[len(proof) // 3] ^= 4
        with pytest.raises(ValueError):
            stark.verify(bytes(damaged), encoding="plonky2", air=case["air"],
                         log_rows=case["log_rows"], config="standard-fast")
        checked += 1
    assert checked >= 4


def test_bad_statements() -> None:
    with pytest.raises(zkaccel.InvalidInputError, match="unknown AIR"):
        stark.prove("sha256", 4)  # type: ignore[arg-type]
    with pytest.raises(zkaccel.InvalidInputError):
        stark.prove("fibonacci", 0)
    with pytest.raises(zkaccel.InvalidInputError):
        stark.prove("fibonacci", 4, inputs=[1, 2, 3])
    with pytest.raises(zkaccel.InvalidInputError):
        stark.prove("fibonacci", 4, inputs=[P, 1])
    with pytest.raises(zkaccel.InvalidInputError):
        stark.prove("fibonacci", 4, queries=0)
    with pytest.raises(zkaccel.InvalidInputError, match="configuration"):
        stark.prove("fibonacci", 4, config="fastest")  # type: ignore[arg-type]


def test_the_verifier_enforces_the_callers_policy() -> None:
    # Overrides below the 100-bit target are refused unless the target is lowered explicitly.
    with pytest.raises(zkaccel.InvalidInputError, match="security"):
        stark.prove("fibonacci", 3, queries=1, pow_bits=0)
    weak = stark.prove("fibonacci", 3, queries=1, pow_bits=0, security_bits=1)
    # The proof does not choose its own security: the default minimum is 100 bits.
    with pytest.raises(zkaccel.VerificationError, match="below the 100"):
        stark.verify(weak)
    with pytest.raises(zkaccel.VerificationError, match="security target"):
        stark.verify(weak, config="standard-fast", min_security_bits=1)
    with pytest.raises(zkaccel.VerificationError, match="proof-of-work"):
        stark.verify(weak, config="standard-fast", security_bits=1, min_security_bits=1)
    with pytest.raises(zkaccel.VerificationError, match="query rounds"):
        stark.verify(weak, queries=84, min_security_bits=1)
    assert stark.verify(weak, min_security_bits=1) == [0, 1, fib(8)]
    assert stark.verify(weak, min_security_bits=1, queries=1, security_bits=1) == [0, 1, fib(8)]
    strong = stark.prove("fibonacci", 3, queries=100, pow_bits=0)
    assert stark.verify(strong) == [0, 1, fib(8)]
    with pytest.raises(zkaccel.VerificationError, match="rate bits"):
        stark.verify(strong, config="small-proofs")
    # A wrong number of expected inputs is bad input, not a verdict.
    with pytest.raises(zkaccel.InvalidInputError, match="3 public inputs"):
        stark.verify(strong, inputs=[0, 1])
