"""Field conversions and batch arithmetic (Goldilocks, BN254, BLS12-381).

Goldilocks elements: ``uint64`` arrays of canonical values. BN254 / BLS12-381 elements:
``uint64`` arrays with a trailing axis of four little-endian limbs.
"""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Words = npt.NDArray[np.uint64]

def modulus(field: str) -> int:
    """The modulus ``p`` of ``field`` (``goldilocks``, ``bn254``, ``bls12-381``)."""

def to_array(values: Sequence[int], field: str, *, reduce: bool = False) -> Words:
    """Python ints as elements; values outside ``[0, p)`` raise unless ``reduce=True``."""

def to_ints(values: Words, field: str) -> list[int]:
    """Elements (any shape) as a flat list of Python ints."""

def reduce(values: Words, field: str) -> Words:
    """Any words, each element reduced modulo ``p``."""

def add(a: Words, b: Words, field: str) -> Words:
    """``a + b`` element by element (equal shapes)."""

def sub(a: Words, b: Words, field: str) -> Words:
    """``a - b`` element by element."""

def mul(a: Words, b: Words, field: str) -> Words:
    """``a * b`` element by element."""

def inverse(a: Words, field: str) -> Words:
    """``1 / a`` element by element; zero raises ``InvalidInputError``."""
