"""NTTs through the Python API, checked against the DFT written out with Python integers
(ω taken from the transform of e₁ and checked to have exact order n)."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

import zkaccel
from zkaccel import fields, ntt
from zkaccel.types import FieldName, Order

# The multiplicative generators the coset transforms shift by (plonky2, arkworks).
GENERATORS = {"goldilocks": 7, "bn254": 5, "bls12-381": 7}


def bitrev(values: list[int]) -> list[int]:
    n = len(values)
    bits = n.bit_length() - 1
    return [values[int(format(i, f"0{bits}b")[::-1], 2) if bits else 0] for i in range(n)]


def omega(field: FieldName, n: int) -> int:
    p = fields.modulus(field)
    e1 = [0] * n
    e1[1 % n] = 1
    w = fields.to_ints(ntt.forward(fields.to_array(e1, field), field=field), field)[1 % n]
    assert pow(w, n, p) == 1 and (n == 1 or pow(w, n // 2, p) == p - 1)
    return w


def dft(values: list[int], w: int, p: int, shift: int = 1) -> list[int]:
    n = len(values)
    return [
        sum(x * pow(shift * pow(w, k, p), i, p) for i, x in enumerate(values)) % p
        for k in range(n)
    ]


@pytest.mark.parametrize("field", ["goldilocks", "bn254", "bls12-381"])
@pytest.mark.parametrize("log_n", [0, 1, 3, 6])
def test_forward_inverse_orders_and_cosets(field: FieldName, log_n: int) -> None:
    p, n = fields.modulus(field), 1 << log_n
    rng = random.Random(log_n)
    x = [rng.randrange(p) for _ in range(n)]
    a = fields.to_array(x, field)
    w = omega(field, n)
    want = dft(x, w, p)
    assert fields.to_ints(ntt.forward(a, field=field), field) == want
    assert fields.to_ints(ntt.forward(a, field=field, order="nr"), field) == bitrev(want)
    br = fields.to_array(bitrev(x), field)
    assert fields.to_ints(ntt.forward(br, field=field, order="rn"), field) == want
    assert fields.to_ints(ntt.forward(br, field=field, order="rr"), field) == bitrev(want)
    assert fields.to_ints(ntt.inverse(fields.to_array(want, field), field=field), field) == x
    g = GENERATORS[field]
    coset = fields.to_ints(ntt.forward(a, field=field, coset=True), field)
    assert coset == dft(x, w, p, shift=g)
    back = ntt.inverse(fields.to_array(coset, field), field=field, coset=True)
    assert fields.to_ints(back, field) == x
    assert fields.to_ints(a, field) == x  # the input is not modified


@pytest.mark.parametrize("field", ["goldilocks", "bn254"])
def test_inplace_batches_and_ldes(field: FieldName) -> None:
    p = fields.modulus(field)
    rng = random.Random(3)
    rows = [[rng.randrange(p) for _ in range(16)] for _ in range(5)]
    singles = [fields.to_ints(ntt.forward(fields.to_array(r, field), field=field), field) for r in rows]
    limb = () if field == "goldilocks" else (4,)
    poly_major = fields.to_array(sum(rows, []), field).reshape((5, 16) + limb)
    out = ntt.forward_batch(poly_major, field=field)
    assert fields.to_ints(out, field) == sum(singles, [])
    index_major = np.ascontiguousarray(np.swapaxes(poly_major, 0, 1))
    out = ntt.forward_batch(index_major, field=field, layout="index-major")
    assert fields.to_ints(np.ascontiguousarray(np.swapaxes(out, 0, 1)), field) == sum(singles, [])
    back = ntt.forward_batch(out, field=field, layout="index-major", inverse=True)
    assert fields.to_ints(back, field) == fields.to_ints(index_major, field)
    # In place: the caller's array holds the result, and is what is returned.
    a = fields.to_array(rows[0], field)
    r = ntt.forward(a, field=field, inplace=True)
    assert r is a and fields.to_ints(a, field) == singles[0]
    # LDE: the polynomial evaluated on g·⟨ω_N⟩, N = 16·4.
    coeffs = fields.to_array(rows[1], field)
    w = omega(field, 64)
    g = GENERATORS[field]
    want = [sum(c * pow(g * pow(w, k, p), i, p) for i, c in enumerate(rows[1])) % p for k in range(64)]
    assert fields.to_ints(ntt.lde(coeffs, 2, field=field), field) == want
    batch = ntt.lde_batch(poly_major, 2, field=field)
    assert batch.shape == (5, 64) + limb
    assert fields.to_ints(batch[1], field) == want


def test_ntt_errors() -> None:
    with pytest.raises(zkaccel.InvalidInputError, match="power of two"):
        ntt.forward(np.arange(6, dtype=np.uint64))
    with pytest.raises(zkaccel.InvalidInputError, match="order"):
        ntt.forward(np.arange(4, dtype=np.uint64), order="xx")  # type: ignore[arg-type]
    with pytest.raises(zkaccel.InvalidInputError, match="not canonical"):
        ntt.forward(np.array([0, 2**64 - 1], dtype=np.uint64))
    with pytest.raises(ValueError, match="C-contiguous"):
        ntt.forward(np.arange(8, dtype=np.uint64)[::2])
    frozen = np.arange(4, dtype=np.uint64)
    frozen.flags.writeable = False
    with pytest.raises(zkaccel.InvalidInputError, match="in place"):
        ntt.forward(frozen, inplace=True)
    with pytest.raises(TypeError):
        ntt.forward(np.arange(4, dtype=np.float32))
    with pytest.raises(zkaccel.InvalidInputError, match="too large"):
        ntt.lde(np.arange(4, dtype=np.uint64), 60)


@pytest.mark.parametrize("order", ["nn", "nr", "rn", "rr"])
@pytest.mark.parametrize("kind", ["forward", "inverse", "coset", "batch"])
def test_goldilocks_refusal_in_place_leaves_the_words(order: Order, kind: str) -> None:
    """2^16 points: the plan checks the words inside its first pass and undoes what it had
    transformed when it meets a word ≥ p (first, middle or last): refused, array unchanged,
    and the same transform of canonical words equals the one on a copy."""
    n = 1 << 16
    rng = np.random.default_rng(16)
    good = rng.integers(0, 2**63, size=n, dtype=np.uint64)
    good[:64] = np.arange(64, dtype=np.uint64)  # small words too: they must come back as such

    def run(a: npt.NDArray[np.uint64], inplace: bool) -> npt.NDArray[np.uint64]:
        if kind == "forward":
            return ntt.forward(a, order=order, inplace=inplace)
        if kind == "inverse":
            return ntt.inverse(a, order=order, inplace=inplace)
        if kind == "coset":
            return ntt.forward(a, order=order, coset=True, inplace=inplace)
        return ntt.forward_batch(a.reshape(4, n // 4), order=order, inplace=inplace)

    for at in [0, n // 2 + 3, n - 1]:
        a = good.copy()
        a[at] = np.uint64(2**64 - 2**32 + 1 + at)
        before = a.copy()
        with pytest.raises(zkaccel.InvalidInputError, match="not canonical"):
            run(a, True)
        assert np.array_equal(a, before), at
    a = good.copy()
    copied = run(a, False)
    assert run(a, True) is not None
    assert np.array_equal(a.reshape(copied.shape), copied)


@pytest.mark.parametrize("field", ["bn254", "bls12-381"])
def test_large_256_bit_transforms_in_place(field: FieldName) -> None:
    """2^14 points (past the small-size kernels), in place on the caller's canonical words:
    outputs checked at random points by Horner's rule with Python integers."""
    p, n = fields.modulus(field), 1 << 14
    rng = random.Random(14)
    x = [rng.randrange(p) for _ in range(n - 2)] + [p - 1, 0]
    a = fields.to_array(x, field)
    w, g = omega(field, n), GENERATORS[field]
    assert ntt.forward(a, field=field, coset=True, inplace=True) is a
    out = fields.to_ints(a, field)
    for k in rng.sample(range(n), 4) + [0, n - 1]:
        point = g * pow(w, k, p) % p
        want = 0
        for c in reversed(x):
            want = (want * point + c) % p
        assert out[k] == want, k
    ntt.inverse(a, field=field, coset=True, inplace=True)
    assert fields.to_ints(a, field) == x
    # A word group ≥ p anywhere: refused, the array left as it was.
    a[n // 2] = np.array(fields.to_array([0], field)[0])
    a[n // 2, 3] = np.uint64(2**64 - 1)
    before = a.copy()
    with pytest.raises(zkaccel.InvalidInputError, match="not canonical"):
        ntt.forward(a, field=field, inplace=True)
    assert np.array_equal(a, before)
