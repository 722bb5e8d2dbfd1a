import numpy as np
from numpy.typing import NDArray

from . import fields, merkle, mimc, models, ntt, poseidon, stark

__version__: str
__all__ = [
    "__version__",
    "_overhead_reference",
    "fields",
    "merkle",
    "mimc",
    "models",
    "ntt",
    "poseidon",
    "stark",
]

def _overhead_reference(case: str, words: NDArray[np.uint64], copy: bool) -> float:
    """The Rust side of benches/overhead.py: the case's call through the Rust API on
    `words`, timed (seconds), in the same binary and memory as the Python call."""
