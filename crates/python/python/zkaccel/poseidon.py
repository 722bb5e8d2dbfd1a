"""Poseidon presets: plonky2 (Goldilocks, width 12), neptune (BLS12-381), circomlib (BN254).

Implemented in Rust (``zkaccel._native.poseidon``); types and documentation in ``poseidon.pyi``.
"""

from ._native import poseidon as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
