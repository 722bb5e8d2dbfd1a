"""The accelerator models (AMAZE, FPGA NTT, UniZK, AcclMT): each report as a dict.

Implemented in Rust (``zkaccel._native.models``); types and documentation in ``models.pyi``.
"""

from ._native import models as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
