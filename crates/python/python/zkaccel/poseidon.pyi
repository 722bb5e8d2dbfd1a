"""Poseidon presets: plonky2 (Goldilocks, width 12), neptune (BLS12-381), circomlib (BN254)."""

from .types import PoseidonPreset, Strength, Words


def permute(states: Words, preset: PoseidonPreset, *, arity: int = 2,
            strength: Strength = "standard", inplace: bool = False) -> Words:
    """Permutations of a batch of states ``(n, t)`` (256-bit: ``(n, t, 4)``), on all cores:
    a new array, or ``states`` itself with ``inplace=True`` (writeable, C-contiguous; no other
    thread may touch it until the call returns: the GIL is released while it runs)."""

def hash(inputs: Words, preset: PoseidonPreset, *, arity: int = 2,
         strength: Strength = "standard") -> Words:
    """plonky2 ``hash_no_pad`` (a digest ``(4,)``); neptune's node hash of ``arity`` elements
    or circomlib's ``poseidon(inputs)`` (one element ``(4,)``)."""

def hash_many(inputs: Words, preset: PoseidonPreset, *, arity: int = 2,
              strength: Strength = "standard") -> Words:
    """:func:`hash` of each row of ``(n, k)`` (256-bit ``(n, k, 4)``): ``(n, 4)``."""

__all__ = [
    "hash",
    "hash_many",
    "permute",
]
