"""STARK proofs of the shipped AIRs, starky 1.1.0-compatible; the same files as `zkaccel prove`.

Implemented in Rust (``zkaccel._native.stark``); types and documentation in ``stark.pyi``.
"""

from ._native import stark as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
