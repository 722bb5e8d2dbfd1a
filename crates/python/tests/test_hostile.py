"""Hostile arguments: empty inputs, sizes near 2^64, wrong widths, forged openings. Each gets a
typed error (or a well-defined empty result) quickly, without allocating what it claims."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

import zkaccel
from zkaccel import fields, merkle, mimc, models, ntt, poseidon, stark

U64 = 2**64 - 1
# Errors a hostile argument may get: ours, or Python's own for an int that no u64 holds.
TYPED = (zkaccel.ZkaccelError, OverflowError, TypeError)


def test_empty_inputs() -> None:
    empty = np.zeros(0, dtype=np.uint64)
    with pytest.raises(zkaccel.InvalidInputError):
        ntt.forward(empty)
    with pytest.raises(zkaccel.InvalidInputError):
        merkle.build(np.zeros((0, 4), dtype=np.uint64))
    assert poseidon.hash_many(np.zeros((0, 12), dtype=np.uint64), "plonky2").shape == (0, 4)
    assert poseidon.permute(np.zeros((0, 12), dtype=np.uint64), "plonky2").shape == (0, 12)
    assert fields.to_ints(fields.mul(empty, empty, "goldilocks"), "goldilocks") == []
    with pytest.raises(zkaccel.VerificationError):  # not a proof: it does not verify
        stark.verify(b"")
    tree = merkle.build(np.arange(16, dtype=np.uint64).reshape(8, 2))
    with pytest.raises(zkaccel.InvalidInputError):
        tree.open([])


def test_sizes_near_two_to_the_64() -> None:
    tree = merkle.build(np.arange(16, dtype=np.uint64).reshape(8, 2))
    for index in (8, 2**63, U64):
        with pytest.raises(zkaccel.InvalidInputError):
            tree.open([index])
    rows, proof = tree.open([1])
    with pytest.raises(zkaccel.VerificationError):
        tree.commitment().verify([U64], rows, proof)
    with pytest.raises(TYPED):
        tree.open([2**64])
    # One root may claim any power-of-two size (2^63 is a well-formed claim); others are not.
    assert merkle.combine(tree.cap, num_leaves=2**63, leaf_width=2).depth == 63
    for n in (U64, 3, 0, 2**64):
        with pytest.raises(TYPED):
            merkle.combine(tree.cap, num_leaves=n, leaf_width=2)
    with pytest.raises(TYPED):
        merkle.combine(tree.cap, num_leaves=8, leaf_width=2**40)
    for first, rows_ in ((U64, 2), (0, 2**40), (2**63, 2**63)):
        with pytest.raises(TYPED):
            merkle.generate_leaves(first, rows_, 8)
    small = np.zeros((8, 2), dtype=np.uint64)
    # Subtrees larger than the tree are the whole tree (documented), not an error.
    assert merkle.build_streaming_commitment(small, subtree_leaves=U64) == \
        merkle.build(small).commitment()
    with pytest.raises(TYPED):
        merkle.build_streaming_commitment(small, subtree_leaves=0)
    with pytest.raises(zkaccel.ResourceError):
        merkle.build_streaming_commitment(small, memory_budget=1)
    with pytest.raises(TYPED):
        merkle.build_streaming_commitment(small, memory_budget=2**64)
    with pytest.raises(zkaccel.InvalidInputError):
        ntt.lde(np.arange(4, dtype=np.uint64), U64)
    for outputs in (0, 2**20, U64):
        with pytest.raises(zkaccel.InvalidInputError):
            mimc.sponge_hash(fields.to_array([1], "bn254"), outputs=outputs)
    for log_rows in (0, 27, 2**63):
        with pytest.raises(TYPED):
            stark.prove("fibonacci", log_rows)
    with pytest.raises(TYPED):
        stark.prove("fibonacci", 4, queries=U64)
    with pytest.raises(TYPED):
        models.ntt_fpga(8, points=U64)
    with pytest.raises(TYPED):
        models.unizk(workload="fibonacci", knobs={"vsas": U64})


def test_wrong_widths() -> None:
    with pytest.raises(zkaccel.InvalidInputError):
        poseidon.permute(np.zeros((4, 13), dtype=np.uint64), "plonky2")
    with pytest.raises(zkaccel.InvalidInputError):
        poseidon.hash(np.zeros((3, 3), dtype=np.uint64), "neptune")
    with pytest.raises(zkaccel.InvalidInputError):
        fields.inverse(np.ones((4, 3), dtype=np.uint64), "bn254")
    with pytest.raises(zkaccel.InvalidInputError):
        mimc.encrypt(fields.to_array([1, 2], "bn254"), fields.to_array([1], "bn254"))
    tree = merkle.build(np.arange(32, dtype=np.uint64).reshape(8, 4))
    rows, proof = tree.open([2, 5])
    with pytest.raises(zkaccel.ZkaccelError):
        tree.commitment().verify([2, 5], np.ascontiguousarray(rows[:, :3]), proof)
    with pytest.raises(zkaccel.ZkaccelError):
        tree.commitment().verify([2, 5], np.ascontiguousarray(rows[:1]), proof)
    with pytest.raises(zkaccel.InvalidInputError):
        merkle.combine(np.zeros((4, 3), dtype=np.uint64), num_leaves=8, leaf_width=4)
    with pytest.raises(zkaccel.InvalidInputError):
        ntt.forward_batch(np.zeros((4, 4, 4), dtype=np.uint64))
    with pytest.raises(zkaccel.InvalidInputError):
        ntt.lde_batch(np.zeros((2, 6), dtype=np.uint64), 1)


def test_overhead_reference_computes_the_python_call_and_refuses_bad_arguments() -> None:
    # The benchmark's Rust side (zkaccel._native._overhead_reference, in the test build only:
    # the `bench-hooks` feature, which the wheel and so its stub leave out) must make the call
    # the Python side is compared with: the same transform of the same words.
    hook: Callable[[str, npt.NDArray[np.uint64], bool], float] = getattr(
        zkaccel._native, "_overhead_reference")
    p = np.uint64(2**64 - 2**32 + 1)
    values = (np.arange(1 << 20, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) % p
    rust = values.copy()
    seconds = hook("ntt_goldilocks_2^20", rust, False)
    assert seconds > 0
    rust = np.where(rust >= p, rust - p, rust)  # the plain Rust plan may leave w ≥ p
    assert np.array_equal(rust, ntt.forward(values))
    copied = values.copy()
    hook("ntt_goldilocks_2^20", copied, True)
    assert np.array_equal(copied, values)  # the call transformed a copy of its own
    for case, words in [
        ("unknown", values.copy()),
        ("ntt_goldilocks_2^20", values[:1000].copy()),  # not a power of two
        ("merkle_plonky2_2^20x8", values[:12].copy()),  # not rows of 8
        ("ntt_bn254_2^20", np.full(8, U64, dtype=np.uint64)),  # limbs ≥ p
    ]:
        with pytest.raises(zkaccel.InvalidInputError):
            hook(case, words, False)
    strided = values[::2]
    with pytest.raises(zkaccel.InvalidInputError):
        hook("ntt_goldilocks_2^20", strided, False)
    readonly = values.copy()
    readonly.flags.writeable = False
    with pytest.raises(zkaccel.InvalidInputError):
        hook("ntt_goldilocks_2^20", readonly, False)
