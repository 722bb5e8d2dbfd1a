"""Fields through the Python API: conversions, canonical checks, batch arithmetic against
Python's own integers (an independent implementation of the same arithmetic)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import zkaccel
from zkaccel import fields
from zkaccel.types import FieldName

FIELDS = {
    "goldilocks": 2**64 - 2**32 + 1,
    "bn254": 21888242871839275222246405745257275088548364400416034343698204186575808495617,
    "bls12-381": 52435875175126190479447740508185965837690552500527637822603658699938581184513,
}


@pytest.mark.parametrize("field", FIELDS)
def test_modulus_and_round_trip(field: FieldName) -> None:
    p = FIELDS[field]
    assert fields.modulus(field) == p
    values = [0, 1, 2, p - 1, p // 2] + [random.Random(1).randrange(p) for _ in range(50)]
    array = fields.to_array(values, field)
    assert array.dtype == np.uint64
    assert array.shape == ((len(values),) if field == "goldilocks" else (len(values), 4))
    assert fields.to_ints(array, field) == values


@pytest.mark.parametrize("field", FIELDS)
def test_non_canonical_values_are_refused_unless_reduced(field: FieldName) -> None:
    p = FIELDS[field]
    for bad in (p, p + 1, 2**256 + 5, -1):
        with pytest.raises(zkaccel.InvalidInputError):
            fields.to_array([bad], field)
        assert fields.to_ints(fields.to_array([bad], field, reduce=True), field) == [bad % p]
    words = np.full((3,) if field == "goldilocks" else (3, 4), 2**64 - 1, dtype=np.uint64)
    with pytest.raises(ValueError, match="not canonical"):
        fields.mul(words, words, field)
    reduced = fields.reduce(words, field)
    limbs = 1 if field == "goldilocks" else 4
    top = sum((2**64 - 1) << (64 * i) for i in range(limbs))
    assert fields.to_ints(reduced, field) == [top % p] * 3


@pytest.mark.parametrize("field", FIELDS)
def test_batch_arithmetic_matches_python_integers(field: FieldName) -> None:
    p = FIELDS[field]
    rng = random.Random(7)
    a = [rng.randrange(p) for _ in range(300)] + [0, 1, p - 1]
    b = [rng.randrange(1, p) for _ in range(300)] + [p - 1, p - 1, p - 1]
    x, y = fields.to_array(a, field), fields.to_array(b, field)
    assert fields.to_ints(fields.add(x, y, field), field) == [(u + v) % p for u, v in zip(a, b)]
    assert fields.to_ints(fields.sub(x, y, field), field) == [(u - v) % p for u, v in zip(a, b)]
    assert fields.to_ints(fields.mul(x, y, field), field) == [u * v % p for u, v in zip(a, b)]
    assert fields.to_ints(fields.inverse(y, field), field) == [pow(v, -1, p) for v in b]
    with pytest.raises(zkaccel.InvalidInputError, match="zero"):
        fields.inverse(fields.to_array([1, 0], field), field)


def test_wrong_dtypes_shapes_and_layouts_are_clear_errors() -> None:
    x = np.arange(8, dtype=np.uint64)
    with pytest.raises(TypeError):
        fields.mul(x.astype(np.float64), x, "goldilocks")
    with pytest.raises(TypeError):
        fields.mul(x.astype(np.int64), x, "goldilocks")
    with pytest.raises(ValueError, match="C-contiguous"):
        fields.mul(x[::2], x[::2], "goldilocks")
    with pytest.raises(ValueError, match="shape"):
        fields.mul(x, x[:4], "goldilocks")
    with pytest.raises(ValueError, match=r"\(\.\.\., 4\)"):
        fields.mul(x, x, "bn254")
    with pytest.raises(zkaccel.InvalidInputError, match="unknown field"):
        fields.modulus("bls12-377")  # type: ignore[arg-type]
    # The hierarchy: every error is a ZkaccelError and the built-in one users catch.
    assert issubclass(zkaccel.InvalidInputError, ValueError)
    assert issubclass(zkaccel.VerificationError, ValueError)
    assert issubclass(zkaccel.ResourceError, MemoryError)
    assert issubclass(zkaccel.StorageError, OSError)
    for cls in (zkaccel.InvalidInputError, zkaccel.ResourceError, zkaccel.StorageError):
        assert issubclass(cls, zkaccel.ZkaccelError)
