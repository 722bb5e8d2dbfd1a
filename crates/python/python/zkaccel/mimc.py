"""MiMC over BN254: circomlib MiMC7 (AMAZE), gnark, ethsnarks, circomlib MiMCSponge.

Implemented in Rust (``zkaccel._native.mimc``); types and documentation in ``mimc.pyi``.
"""

from ._native import mimc as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
