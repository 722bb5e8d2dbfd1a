"""Distributed Merkle trees: aligned subtrees on Ray tasks, their roots combined on the driver.

A tree of ``num_leaves = arity^n`` rows is split into ``subtrees = arity^k`` aligned subtrees;
subtree ``i`` holds rows ``[i·m, (i+1)·m)`` with ``m = num_leaves / subtrees``. Its root is the
cap digest ``i`` at height ``k``, so the driver's :func:`zkaccel.merkle.combine` of the roots
gives exactly the single-machine commitment (cap height ``≤ k``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import merkle as _merkle
from ..errors import InvalidInputError
from ..types import FieldName
from ._state import JobState
from ._tasks import connect, gather, mark_attempt

import ray  # noqa: E402 (after ._tasks, which checks that Ray is installed)


@dataclasses.dataclass(frozen=True)
class GeneratedLeaves:
    """Leaves generated on the fly (:func:`zkaccel.merkle.generate_leaves`): row ``i`` is the
    same on every machine, so tasks need only this description."""

    num_leaves: int
    leaf_width: int
    seed: int | None = None

    def width(self, field: FieldName) -> int:
        """Elements per leaf row."""
        return self.leaf_width

    def rows(self, first: int, count: int, field: FieldName) -> np.ndarray:
        return _merkle.generate_leaves(first, count, self.leaf_width, seed=self.seed, field=field)


@dataclasses.dataclass(frozen=True)
class NpyLeaves:
    """Leaves in a ``.npy`` file on storage every node sees (``uint64``; shape
    ``(num_leaves, width)``, or ``(num_leaves, width, 4)`` / ``(num_leaves, 4)`` for 256-bit
    fields). Tasks memory-map it and read only their rows."""

    path: str

    def _array(self) -> np.ndarray:
        array: np.ndarray = np.load(self.path, mmap_mode="r")
        if array.dtype != np.uint64:
            raise InvalidInputError(f"{self.path}: dtype {array.dtype}, expected uint64")
        return array

    @property
    def num_leaves(self) -> int:
        return int(self._array().shape[0])

    def width(self, field: FieldName) -> int:
        """Elements per leaf row: Goldilocks ``(n, width)``; 256-bit ``(n, width, 4)`` or
        ``(n, 4)`` (one element per leaf)."""
        shape = self._array().shape
        if field == "goldilocks":
            return int(shape[1]) if len(shape) == 2 else 1
        return int(shape[1]) if len(shape) == 3 else 1

    def rows(self, first: int, count: int, field: FieldName) -> np.ndarray:
        return np.ascontiguousarray(self._array()[first : first + count])


@dataclasses.dataclass(frozen=True)
class TextLeaves:
    """Leaves in a text file on storage every node sees, in the format ``zkaccel merkle build
    --input`` reads (a leaf per line, elements decimal or ``0x``-hex separated by commas or
    whitespace; blank lines and ``#`` comments skipped). Made by :meth:`TextLeaves.open`, which
    indexes the file in one pass on the driver (rows, width, where every part of ``part_rows``
    rows starts); each task then seeks to its subtree's rows and parses only those, every value
    checked canonical."""

    path: str
    num_leaves: int
    leaf_width: int
    part_rows: int
    offsets: tuple[int, ...] = dataclasses.field(repr=False)
    #: SHA-256 of the offsets: a state directory's job records it (the offsets are not shown).
    fingerprint: str = ""

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, arity: int = 2,
             max_offsets: int = 1 << 20) -> TextLeaves:
        """Indexes ``path`` for trees of ``arity``: any aligned subtree of ``part_rows`` or
        more leaves starts at a recorded offset (at most ``max_offsets`` of them)."""
        rows, width, part_rows, offsets = _merkle.index_text_rows(
            path, arity=arity, max_offsets=max_offsets)
        digest = hashlib.sha256(np.asarray(offsets, dtype="<u8").tobytes()).hexdigest()
        return cls(os.fspath(path), rows, width, part_rows, tuple(offsets), digest)

    def width(self, field: FieldName) -> int:
        """Elements per leaf row."""
        return self.leaf_width

    def check_split(self, rows: int) -> None:
        """Refuses subtrees of ``rows`` leaves that do not start at recorded offsets."""
        if rows % self.part_rows:
            raise InvalidInputError(
                f"{self.path}: subtrees of {rows} leaves, but the index records parts of "
                f"{self.part_rows} (fewer subtrees, or TextLeaves.open with more max_offsets)")

    def rows(self, first: int, count: int, field: FieldName) -> np.ndarray:
        self.check_split(first)
        part = first // self.part_rows
        if part >= len(self.offsets):
            raise InvalidInputError(f"{self.path}: row {first} past the {self.num_leaves} rows")
        return _merkle.read_text_rows(self.path, self.offsets[part], first, count,
                                      self.leaf_width, field=field)


Source = GeneratedLeaves | NpyLeaves | TextLeaves

FIELDS: dict[str, FieldName] = {
    "plonky2": "goldilocks", "neptune": "bls12-381", "circomlib": "bn254",
}


def _subtree_root(source: Source, spec: dict[str, Any], index: int, rows: int,
                  attempts_dir: str | None, delay: float) -> tuple[int, bytes]:
    """One task: subtree ``index``'s root, as the 32 bytes of its ``(4,)`` digest."""
    marker = mark_attempt(attempts_dir, f"{index:010d}", delay)
    leaves = source.rows(index * rows, rows, FIELDS[spec["preset"]])
    tree = _merkle.build(leaves, **spec)
    root = tree.cap.reshape(-1)
    if marker is not None:
        with open(marker, "a") as f:
            f.write("done\n")
    return index, root.astype("<u8").tobytes()


def _exact_log(n: int, base: int) -> int | None:
    k = 0
    while n > 1 and n % base == 0:
        n //= base
        k += 1
    return k if n == 1 else None


def _progress_to_stderr(done: int, total: int, rate: float) -> None:
    print(f"\r{done}/{total} subtrees, {rate:.1f}/s", end="\n" if done == total else "",
          file=sys.stderr, flush=True)


def build(
    source: Source,
    *,
    subtrees: int,
    preset: str = "plonky2",
    arity: int = 2,
    strength: str = "standard",
    cap_height: int = 0,
    state_dir: str | os.PathLike[str] | None = None,
    address: str | None = None,
    max_retries: int = 3,
    progress: Callable[[int, int, float], None] | None = _progress_to_stderr,
    _attempts_dir: str | None = None,
    _delay: float = 0.0,
) -> _merkle.Commitment:
    """The commitment of the tree over ``source``, built as ``subtrees`` aligned subtrees on
    Ray tasks (``address``: an existing cluster; default: the one ``ray.init`` finds or
    starts). With ``state_dir``, each root is persisted as it arrives and a restarted call
    resubmits only the missing subtrees. Tasks lost with a node are retried up to
    ``max_retries`` times; a bad input raises ``InvalidInputError`` before anything runs."""
    if preset not in FIELDS:
        raise InvalidInputError(f"unknown tree preset {preset!r}; known: {', '.join(FIELDS)}")
    n = source.num_leaves
    depth = _exact_log(n, arity)
    k = _exact_log(subtrees, arity)
    if depth is None or k is None or k > depth:
        raise InvalidInputError(
            f"{n} leaves in {subtrees} subtrees: both must be powers of the arity {arity}, "
            "with no more subtrees than leaves"
        )
    if cap_height > k:
        raise InvalidInputError(f"cap height {cap_height} above the {subtrees} subtree roots")
    rows = n // subtrees
    if isinstance(source, TextLeaves):
        source.check_split(rows)
    spec: dict[str, Any] = {"preset": preset, "arity": arity, "strength": strength}
    # Check the shape of one subtree on the driver: a deterministic error fails here, once.
    _merkle.build(source.rows(0, min(rows, arity), FIELDS[preset]), **spec)

    state = None
    done: dict[int, bytes] = {}
    if state_dir is not None:
        job = {"source": repr(source), "subtrees": subtrees, **spec}
        state = JobState(state_dir, job)
        done = state.done()
    connect(address)
    task = ray.remote(num_cpus=1, max_retries=max_retries)(_subtree_root)
    source_ref = ray.put(source)
    pending = {
        task.remote(source_ref, spec, i, rows, _attempts_dir, _delay): i
        for i in range(subtrees)
        if i not in done
    }
    start, finished_here = time.monotonic(), 0

    def record(_: int, result: tuple[int, bytes]) -> None:
        nonlocal finished_here
        index, root = result
        if state is not None:
            state.record(index, root)
        done[index] = root
        finished_here += 1
        if progress is not None:
            progress(len(done), subtrees, finished_here / max(time.monotonic() - start, 1e-9))

    gather(pending, record)
    roots = np.frombuffer(b"".join(done[i] for i in range(subtrees)), dtype="<u8")
    return _merkle.combine(
        np.ascontiguousarray(roots.reshape(subtrees, 4).astype(np.uint64)),
        num_leaves=n,
        leaf_width=source.width(FIELDS[preset]),
        cap_height=cap_height,
        **spec,
    )
