"""Merkle trees (plonky2, neptune, circomlib): caps, multiproofs, commitments, bounded-memory builds, subtree roots combined.

Implemented in Rust (``zkaccel._native.merkle``); types and documentation in ``merkle.pyi``.
"""

from ._native import merkle as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
