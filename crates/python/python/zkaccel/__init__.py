"""zkaccel: accelerated zero-knowledge proof kernels, numpy in and numpy out.

Submodules: :mod:`zkaccel.fields`, :mod:`zkaccel.poseidon`, :mod:`zkaccel.mimc`,
:mod:`zkaccel.ntt`, :mod:`zkaccel.merkle`, :mod:`zkaccel.stark`, :mod:`zkaccel.models`;
the argument types in :mod:`zkaccel.types`;
exceptions in :mod:`zkaccel.errors`.

Element arrays: Goldilocks elements are ``uint64`` arrays of canonical values (``< p``);
BN254 and BLS12-381 elements are ``uint64`` arrays with a trailing axis of four little-endian
limbs (shape ``(..., 4)``), canonical too; :func:`zkaccel.fields.to_array` and
:func:`zkaccel.fields.to_ints` convert from and to Python ints. Arrays must be C-contiguous.

Calls release the GIL while they compute and run on all cores (rayon); set
``RAYON_NUM_THREADS`` before the first call to use fewer.
"""

from . import errors, fields, merkle, mimc, models, ntt, poseidon, stark, types
from ._native import __version__
from .errors import (
    InvalidInputError,
    ResourceError,
    StorageError,
    VerificationError,
    ZkaccelError,
)

__all__ = [
    "__version__",
    "errors",
    "fields",
    "merkle",
    "mimc",
    "models",
    "ntt",
    "poseidon",
    "stark",
    "types",
    "ZkaccelError",
    "InvalidInputError",
    "VerificationError",
    "ResourceError",
    "StorageError",
]
