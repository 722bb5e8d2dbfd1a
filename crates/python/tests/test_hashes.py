"""Poseidon and MiMC through the Python API against the known-answer vectors of plonky2,
neptune, circomlibjs, circomlib (MiMC7, MiMCSponge), ethsnarks and gnark-crypto."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import zkaccel
from zkaccel import fields, mimc, poseidon
from zkaccel.types import MimcPreset

GOLDILOCKS_P = 2**64 - 2**32 + 1


def ints(values: list[str]) -> list[int]:
    return [int(v) for v in values]


def test_plonky2_permutation_and_hashes(poseidon_vectors: Any) -> None:
    v = poseidon_vectors["plonky2_goldilocks"]
    states = np.array([ints(c["input"]) for c in v["permutation"]], dtype=np.uint64)
    out = poseidon.permute(states, "plonky2")
    assert out.tolist() == [ints(c["output"]) for c in v["permutation"]]
    # In place: the caller's array is the result; refused arrays are left as they were.
    again = states.copy()
    assert poseidon.permute(again, "plonky2", inplace=True) is again
    assert again.tolist() == out.tolist()
    big = np.arange(40_000 * 12, dtype=np.uint64).reshape(40_000, 12)
    expected = poseidon.permute(big, "plonky2")
    big[39_999, 11] = GOLDILOCKS_P  # the last word of the last parallel chunk
    before = big.copy()
    with pytest.raises(zkaccel.InvalidInputError, match="canonical"):
        poseidon.permute(big, "plonky2", inplace=True)
    assert np.array_equal(big, before)
    big[39_999, 11] = 40_000 * 12 - 1
    poseidon.permute(big, "plonky2", inplace=True)
    assert np.array_equal(big, expected)
    frozen = states.copy()
    frozen.flags.writeable = False
    with pytest.raises(zkaccel.InvalidInputError, match="in place"):
        poseidon.permute(frozen, "plonky2", inplace=True)
    strided = np.zeros((4, 24), dtype=np.uint64)[:, ::2]
    with pytest.raises(zkaccel.InvalidInputError, match="contiguous"):
        poseidon.permute(strided, "plonky2", inplace=True)
    bn_state = fields.to_array([1, 2, 3], "bn254").reshape(1, 3, 4)
    bn_copy = bn_state.copy()
    assert poseidon.permute(bn_copy, "circomlib", inplace=True) is bn_copy
    assert np.array_equal(bn_copy, poseidon.permute(bn_state, "circomlib"))
    for case in v["hash_no_pad"]:
        x = np.array(ints(case["input"]), dtype=np.uint64)
        assert poseidon.hash(x, "plonky2").tolist() == ints(case["hash_no_pad"])
    # A batch of equal-length rows equals the rows hashed one by one.
    rows = np.arange(7 * 10, dtype=np.uint64).reshape(7, 10)
    batch = poseidon.hash_many(rows, "plonky2")
    assert batch.shape == (7, 4)
    for r, d in zip(rows, batch):
        assert poseidon.hash(np.ascontiguousarray(r), "plonky2").tolist() == d.tolist()


@pytest.mark.parametrize("arity", [2, 4, 8, 11])
def test_neptune_hashes(poseidon_vectors: Any, arity: int) -> None:
    cases = poseidon_vectors["neptune_bls12_381"]["per_arity"].get(f"arity{arity}")
    if not cases:
        pytest.skip(f"no neptune vectors for arity {arity}")
    for params in cases:
        for vec in params["vectors"]:
            x = fields.to_array(ints(vec["preimage"]), "bls12-381")
            h = poseidon.hash(x, "neptune", arity=arity, strength=params["strength"])
            assert fields.to_ints(h, "bls12-381") == [int(vec["hash"])]
            if "full_state_after_permutation" not in vec:
                continue
            state = fields.to_array([2**arity - 1] + ints(vec["preimage"]), "bls12-381")
            after = poseidon.permute(state.reshape(1, arity + 1, 4), "neptune", arity=arity,
                                     strength=params["strength"])
            assert fields.to_ints(after, "bls12-381") == ints(vec["full_state_after_permutation"])


def test_circomlib_hashes(poseidon_vectors: Any) -> None:
    for case in poseidon_vectors["circomlibjs_bn254"]["cases"]:
        x = fields.to_array(ints(case["inputs"]), "bn254")
        assert fields.to_ints(poseidon.hash(x, "circomlib"), "bn254") == [int(case["output"])]
        batch = poseidon.hash_many(np.stack([x, x]), "circomlib")
        assert fields.to_ints(batch, "bn254") == [int(case["output"])] * 2


def test_poseidon_errors() -> None:
    with pytest.raises(zkaccel.InvalidInputError, match="unknown Poseidon preset"):
        poseidon.hash(np.zeros(4, dtype=np.uint64), "sha256")  # type: ignore[arg-type]
    with pytest.raises(zkaccel.InvalidInputError):
        poseidon.permute(np.zeros((2, 11), dtype=np.uint64), "plonky2")
    with pytest.raises(zkaccel.InvalidInputError, match="not canonical"):
        poseidon.hash(np.array([GOLDILOCKS_P], dtype=np.uint64), "plonky2")
    with pytest.raises(zkaccel.InvalidInputError):
        poseidon.hash(fields.to_array([1, 2, 3], "bls12-381"), "neptune", arity=2)
    with pytest.raises(zkaccel.InvalidInputError, match="strength"):
        poseidon.hash(fields.to_array([1, 2], "bls12-381"), "neptune", strength="weak")  # type: ignore[arg-type]


PRESETS: dict[str, MimcPreset] = {
    "mimc7_circomlib": "circomlib",
    "mimc7_ethsnarks": "ethsnarks",
    "mimc5_gnark_crypto_bn254": "gnark",
}


@pytest.mark.parametrize("variant", PRESETS)
def test_mimc_cipher_and_hash(mimc_vectors: Any, variant: str) -> None:
    v = mimc_vectors["variants"][variant]
    preset = PRESETS[variant]
    xs = fields.to_array([int(c["x"]) for c in v["cipher_vectors"]], "bn254")
    ks = fields.to_array([int(c["k"]) for c in v["cipher_vectors"]], "bn254")
    got = fields.to_ints(mimc.encrypt(xs, ks, preset=preset), "bn254")
    assert got == [int(c["out"]) for c in v["cipher_vectors"]]
    for case in v["hash_vectors"]:
        x = fields.to_array(ints(case["inputs"]), "bn254")
        h = mimc.hash(x, key=int(case["key"]), preset=preset)
        assert fields.to_ints(h, "bn254") == [int(case["out"])]


def test_mimc_sponge(mimc_vectors: Any) -> None:
    v = mimc_vectors["variants"]["mimcsponge_circomlib_feistel_x5_220"]
    for case in v["sponge_vectors"]:
        x = fields.to_array(ints(case["inputs"]), "bn254")
        out = mimc.sponge_hash(x, key=int(case["key"]), outputs=case["numOutputs"])
        want = case["out"] if isinstance(case["out"], list) else [case["out"]]
        assert fields.to_ints(out, "bn254") == ints(want)
    with pytest.raises(zkaccel.InvalidInputError, match="sponge"):
        mimc.hash(fields.to_array([1], "bn254"), preset="circomlib-sponge")


def test_mimc_batch_equals_single() -> None:
    rows = fields.to_array(list(range(1, 25)), "bn254").reshape(8, 3, 4)
    batch = mimc.hash_many(rows, key=5)
    for r, d in zip(rows, batch):
        assert mimc.hash(np.ascontiguousarray(r), key=5).tolist() == d.tolist()
