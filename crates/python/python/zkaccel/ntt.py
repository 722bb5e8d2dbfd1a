"""Number-theoretic transforms: orders, cosets, batches in both layouts, low-degree extensions.

Implemented in Rust (``zkaccel._native.ntt``); types and documentation in ``ntt.pyi``.
"""

from ._native import ntt as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
