"""Number-theoretic transforms: orders, cosets, batches in both layouts, LDEs."""

import numpy as np
import numpy.typing as npt

Words = npt.NDArray[np.uint64]

def forward(values: Words, *, field: str = "goldilocks", order: str = "nn", coset: bool = False,
            inplace: bool = False) -> Words:
    """Coefficients to evaluations on ``<w_n>`` (``coset=True``: on ``g<w_n>``); ``order`` is
    input then output order (``nn``, ``nr``, ``rn``, ``rr``). ``inplace=True`` transforms the
    caller's array and returns it."""

def inverse(values: Words, *, field: str = "goldilocks", order: str = "nn", coset: bool = False,
            inplace: bool = False) -> Words:
    """The inverse of :func:`forward` (with the ``1/n`` scale)."""

def forward_batch(values: Words, *, field: str = "goldilocks", layout: str = "polynomial-major",
                  order: str = "nn", inverse: bool = False, inplace: bool = False) -> Words:
    """Transforms of ``(polynomials, n)`` (``polynomial-major``) or ``(n, polynomials)``
    (``index-major``) batches."""

def lde(coefficients: Words, log_blowup: int, *, field: str = "goldilocks",
        coset: bool = True) -> Words:
    """The ``n * 2**log_blowup`` evaluations of a polynomial on ``g<w>`` (natural order)."""

def lde_batch(values: Words, log_blowup: int, *, field: str = "goldilocks",
              layout: str = "polynomial-major", input: str = "coefficients",
              coset: bool = True) -> Words:
    """Batched LDEs in either layout, from ``coefficients`` or ``evaluations``."""
