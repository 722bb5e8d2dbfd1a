"""Field conversions and batch arithmetic (Goldilocks, BN254, BLS12-381).

Implemented in Rust (``zkaccel._native.fields``); types and documentation in ``fields.pyi``.
"""

from ._native import fields as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
