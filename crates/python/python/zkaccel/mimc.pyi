"""MiMC over BN254: circomlib MiMC7 (AMAZE), gnark, ethsnarks, circomlib MiMCSponge."""

from .types import MimcPreset, Words


def encrypt(x: Words, k: Words, *, preset: MimcPreset = "circomlib") -> Words:
    """MiMC-p/p encryption of each ``x`` under its key ``k`` (``(n, 4)`` each)."""

def hash(inputs: Words, *, key: int = 0, preset: MimcPreset = "circomlib") -> Words:
    """The Miyaguchi-Preneel hash of ``(k, 4)`` inputs: one element ``(4,)``."""

def hash_many(inputs: Words, *, key: int = 0, preset: MimcPreset = "circomlib") -> Words:
    """:func:`hash` of each row of ``(n, k, 4)``: ``(n, 4)``."""

def sponge_hash(inputs: Words, *, key: int = 0, outputs: int = 1) -> Words:
    """circomlib ``MiMCSponge``: ``outputs`` elements ``(outputs, 4)``."""

__all__ = [
    "encrypt",
    "hash",
    "hash_many",
    "sponge_hash",
]
