"""Poseidon presets: plonky2 (Goldilocks, width 12), neptune (BLS12-381), circomlib (BN254)."""

import numpy as np
import numpy.typing as npt

Words = npt.NDArray[np.uint64]

def permute(states: Words, preset: str, *, arity: int = 2, strength: str = "standard",
            inplace: bool = False) -> Words:
    """Permutations of a batch of states ``(n, t)`` (256-bit: ``(n, t, 4)``), on all cores:
    a new array, or ``states`` itself with ``inplace=True`` (writeable, C-contiguous)."""

def hash(inputs: Words, preset: str, *, arity: int = 2, strength: str = "standard") -> Words:
    """plonky2 ``hash_no_pad`` (a digest ``(4,)``); neptune's node hash of ``arity`` elements
    or circomlib's ``poseidon(inputs)`` (one element ``(4,)``)."""

def hash_many(inputs: Words, preset: str, *, arity: int = 2, strength: str = "standard") -> Words:
    """:func:`hash` of each row of ``(n, k)`` (256-bit ``(n, k, 4)``): ``(n, 4)``."""
