"""Merkle trees (plonky2, neptune, circomlib): caps, multiproofs, commitments, bounded-memory
builds, trees assembled from subtree roots."""

import os
from collections.abc import Sequence
from typing import final

from .types import FieldName, PoseidonPreset, Strength, Words


@final
class Commitment:
    """A tree's cap, shape and hash; what a verifier holds openings to."""

    @property
    def cap(self) -> Words: ...
    @property
    def num_leaves(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def cap_height(self) -> int: ...
    @property
    def leaf_width(self) -> int: ...
    @property
    def arity(self) -> int: ...
    def to_bytes(self) -> bytes:
        """The canonical encoding."""
    @staticmethod
    def from_bytes(data: bytes, *, preset: PoseidonPreset = "plonky2", arity: int = 2,
                   strength: Strength = "standard") -> Commitment:
        """Decodes a commitment of the given tree preset."""
    def verify(self, indices: Sequence[int], leaves: Words, proof: bytes) -> None:
        """Raises ``VerificationError`` unless ``leaves`` are the committed leaves at
        ``indices`` (increasing) by the multiproof ``proof``."""

@final
class MerkleTree:
    """A tree with every level in memory."""

    @property
    def cap(self) -> Words:
        """``arity**cap_height`` digests ``(k, 4)``."""
    @property
    def num_leaves(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def cap_height(self) -> int: ...
    @property
    def leaf_width(self) -> int: ...
    def commitment(self) -> Commitment: ...
    def open(self, indices: Sequence[int]) -> tuple[Words, bytes]:
        """The opened rows (increasing index order) and one multiproof."""

def build(leaves: Words, *, preset: PoseidonPreset = "plonky2", arity: int = 2,
          strength: Strength = "standard", cap_height: int = 0) -> MerkleTree:
    """A tree over rows ``(n, width)`` (plonky2) or elements ``(n, 4)`` (neptune, circomlib)."""

def build_streaming_commitment(leaves: Words, *, preset: PoseidonPreset = "plonky2", arity: int = 2,
                               strength: Strength = "standard", cap_height: int = 0,
                               subtree_leaves: int = 4096,
                               memory_budget: int = 1 << 30) -> Commitment:
    """The commitment alone, built from standard subtrees within ``memory_budget`` bytes;
    ``leaves`` may be a ``numpy.memmap``."""

def combine(roots: Words, *, num_leaves: int, leaf_width: int, cap_height: int = 0,
            preset: PoseidonPreset = "plonky2", arity: int = 2,
            strength: Strength = "standard") -> Commitment:
    """The commitment of a tree from the roots of its aligned subtrees."""

def generate_leaves(first_row: int, rows: int, width: int, *, seed: int | None = None,
                    field: FieldName = "goldilocks") -> Words:
    """Rows ``first_row ..`` of the generated leaves (the CLI's ``--seed``; without a seed,
    element ``j`` of row ``i`` is ``i*1000003 + j``); any split gives the same rows."""

def index_text_rows(path: str | os.PathLike[str], *, arity: int = 2,
                    max_offsets: int = 1 << 20) -> tuple[int, int, int, list[int]]:
    """One pass over a text file of leaves (the CLI's ``--input`` format): ``(rows, width,
    part_rows, offsets)``, the byte offsets where rows ``0, part_rows, 2·part_rows, …`` start
    (``part_rows`` the smallest power of ``arity`` keeping at most ``max_offsets``)."""

def read_text_rows(path: str | os.PathLike[str], offset: int, first_row: int, rows: int,
                   width: int, *, field: FieldName = "goldilocks") -> Words:
    """``rows`` leaves of ``width`` canonical elements from the text file at byte ``offset``
    (where row ``first_row`` starts): shape ``(rows, width)`` (256-bit ``(rows, width, 4)``)."""

__all__ = [
    "Commitment",
    "MerkleTree",
    "build",
    "build_streaming_commitment",
    "combine",
    "generate_leaves",
    "index_text_rows",
    "read_text_rows",
]
