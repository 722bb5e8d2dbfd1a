"""Merkle trees through the Python API: plonky2's and neptune's own roots, openings that
verify and tampered ones that do not, commitments, streaming builds and subtree roots."""

from __future__ import annotations

import pathlib
import subprocess
from typing import Any

import numpy as np
import pytest

import zkaccel
from zkaccel import fields, merkle
from zkaccel.types import FieldName, PoseidonPreset

P = 2**64 - 2**32 + 1


def plonky2_leaves(n: int, width: int) -> np.ndarray:
    i = np.arange(n, dtype=np.uint64).reshape(n, 1)
    j = np.arange(width, dtype=np.uint64).reshape(1, width)
    return np.ascontiguousarray(i * np.uint64(1000003) + j)


def test_plonky2_caps(poseidon_vectors: Any) -> None:
    for case in poseidon_vectors["plonky2_goldilocks"]["merkle_tree"]:
        leaves = plonky2_leaves(case["num_leaves"], case["leaf_len"])
        tree = merkle.build(leaves, cap_height=case["cap_height"])
        assert tree.cap.tolist() == [[int(x) for x in d] for d in case["cap"]]
        assert tree.num_leaves == case["num_leaves"] and tree.leaf_width == case["leaf_len"]


def test_neptune_roots(poseidon_vectors: Any) -> None:
    for case in poseidon_vectors["neptune_bls12_381"]["merkle_trees"]:
        n = case["num_leaves"]
        leaves = fields.to_array([i * 1000003 + 7 for i in range(n)], "bls12-381")
        tree = merkle.build(leaves, preset="neptune", arity=case["arity"],
                            strength=case["strength"])
        assert fields.to_ints(tree.cap, "bls12-381") == [int(case["root"])]


@pytest.mark.parametrize("preset,arity", [("plonky2", 2), ("neptune", 4), ("circomlib", 2)])
def test_open_verify_and_tamper(preset: PoseidonPreset, arity: int) -> None:
    if preset == "plonky2":
        leaves = plonky2_leaves(64, 3)
    else:
        field: FieldName = "bls12-381" if preset == "neptune" else "bn254"
        leaves = fields.to_array([i * 7 + 1 for i in range(64)], field)
    tree = merkle.build(leaves, preset=preset, arity=arity, cap_height=1)
    commitment = tree.commitment()
    rows, proof = tree.open([5, 40, 5, 63])
    assert rows.shape[0] == 3  # sorted, deduplicated
    commitment.verify([5, 40, 63], rows, proof)
    decoded = merkle.Commitment.from_bytes(commitment.to_bytes(), preset=preset, arity=arity)
    assert decoded == commitment
    decoded.verify([5, 40, 63], rows, proof)
    forged = rows.copy()
    forged.flat[0] ^= np.uint64(1)
    with pytest.raises(zkaccel.VerificationError):
        commitment.verify([5, 40, 63], forged, proof)
    with pytest.raises(zkaccel.VerificationError):
        commitment.verify([5, 41, 63], rows, proof)
    # A damaged or truncated proof does not verify, whichever byte: the same class as a
    # damaged STARK proof (test_stark.py), and the CLI's exit status 1.
    for at in range(0, len(proof), max(1, len(proof) // 40)):
        damaged = bytearray(proof)
        damaged[at] ^= 0x40
        with pytest.raises(zkaccel.VerificationError):
            commitment.verify([5, 40, 63], rows, bytes(damaged))
    for cut in (0, 1, len(proof) // 2, len(proof) - 1):
        with pytest.raises(zkaccel.VerificationError):
            commitment.verify([5, 40, 63], rows, proof[:cut])
    other = merkle.build(leaves[::-1].copy(), preset=preset, arity=arity, cap_height=1)
    with pytest.raises(zkaccel.VerificationError):
        other.commitment().verify([5, 40, 63], rows, proof)
    with pytest.raises(ValueError):
        merkle.Commitment.from_bytes(commitment.to_bytes()[:-1], preset=preset, arity=arity)


def test_subtree_roots_combine_and_streaming(tmp_path: pathlib.Path) -> None:
    leaves = plonky2_leaves(1 << 12, 5)
    whole = merkle.build(leaves, cap_height=2).commitment()
    roots = np.concatenate([merkle.build(np.ascontiguousarray(part)).cap
                            for part in np.split(leaves, 16)])
    combined = merkle.combine(roots, num_leaves=1 << 12, leaf_width=5, cap_height=2)
    assert combined == whole
    with pytest.raises(zkaccel.InvalidInputError):
        merkle.combine(roots[:15], num_leaves=1 << 12, leaf_width=5)
    streamed = merkle.build_streaming_commitment(leaves, cap_height=2, subtree_leaves=256,
                                                 memory_budget=1 << 20)
    assert streamed == whole
    path = tmp_path / "leaves.u64"
    leaves.tofile(path)
    mapped = np.memmap(path, dtype=np.uint64, mode="r", shape=leaves.shape)
    assert merkle.build_streaming_commitment(mapped, cap_height=2, subtree_leaves=256) == whole
    with pytest.raises(zkaccel.ResourceError):
        merkle.build_streaming_commitment(leaves, subtree_leaves=4096, memory_budget=1000)
    with pytest.raises(zkaccel.InvalidInputError):
        merkle.build(plonky2_leaves(48, 2))
    with pytest.raises(zkaccel.InvalidInputError, match="binary"):
        merkle.build(leaves, arity=4)
    with pytest.raises(zkaccel.InvalidInputError, match="preset"):
        merkle.build(leaves, preset="sha256")  # type: ignore[arg-type]


def test_cap_equals_the_cli(cli: str) -> None:
    out = subprocess.run(
        [cli, "merkle", "build", "--preset", "plonky2", "--leaves", "1024", "--leaf-width", "7",
         "--cap-height", "2"],
        check=True, capture_output=True, text=True,
    ).stdout
    cli_cap = [[int(x) for x in line.replace(",", " ").split()] for line in out.split("\n")
               if line.strip()]
    tree = merkle.build(plonky2_leaves(1024, 7), cap_height=2)
    assert tree.cap.tolist() == cli_cap


def test_generated_leaves_split_anywhere_and_equal_the_clis(cli: str) -> None:
    whole = merkle.generate_leaves(0, 1024, 3, seed=11)
    parts = [merkle.generate_leaves(a, b - a, 3, seed=11) for a, b in ((0, 100), (100, 1024))]
    assert np.array_equal(np.concatenate(parts), whole)
    assert np.array_equal(merkle.generate_leaves(0, 4, 2), plonky2_leaves(4, 2))
    bls = merkle.generate_leaves(0, 64, 1, seed=3, field="bls12-381")
    assert bls.shape == (64, 1, 4)
    out = subprocess.run(
        [cli, "merkle", "build", "--preset", "plonky2", "--leaves", "1024", "--leaf-width", "3",
         "--seed", "11"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    assert merkle.build(whole).cap.tolist() == [[int(x) for x in out]]
    with pytest.raises(zkaccel.InvalidInputError):
        merkle.generate_leaves(0, 1 << 40, 8)
