"""Field conversions and batch arithmetic (Goldilocks, BN254, BLS12-381).

Goldilocks elements: ``uint64`` arrays of canonical values. BN254 / BLS12-381 elements:
``uint64`` arrays with a trailing axis of four little-endian limbs.
"""

from collections.abc import Sequence

from .types import FieldName, Words


def modulus(field: FieldName) -> int:
    """The modulus ``p`` of ``field`` (``goldilocks``, ``bn254``, ``bls12-381``)."""

def to_array(values: Sequence[int], field: FieldName, *, reduce: bool = False) -> Words:
    """Python ints as elements; values outside ``[0, p)`` raise unless ``reduce=True``."""

def to_ints(values: Words, field: FieldName) -> list[int]:
    """Elements (any shape) as a flat list of Python ints."""

def reduce(values: Words, field: FieldName) -> Words:
    """Any words, each element reduced modulo ``p``."""

def add(a: Words, b: Words, field: FieldName) -> Words:
    """``a + b`` element by element (equal shapes)."""

def sub(a: Words, b: Words, field: FieldName) -> Words:
    """``a - b`` element by element."""

def mul(a: Words, b: Words, field: FieldName) -> Words:
    """``a * b`` element by element."""

def inverse(a: Words, field: FieldName) -> Words:
    """``1 / a`` element by element; zero raises ``InvalidInputError``."""

__all__ = [
    "add",
    "inverse",
    "modulus",
    "mul",
    "reduce",
    "sub",
    "to_array",
    "to_ints",
]
