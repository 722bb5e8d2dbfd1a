"""Number-theoretic transforms: orders, cosets, batches in both layouts, LDEs."""

from .types import FieldName, LdeInput, Layout, Order, Words


def forward(values: Words, *, field: FieldName = "goldilocks", order: Order = "nn",
            coset: bool = False, inplace: bool = False) -> Words:
    """Coefficients to evaluations on ``<w_n>`` (``coset=True``: on ``g<w_n>``); ``order`` is
    input then output order (``nn``, ``nr``, ``rn``, ``rr``). ``inplace=True`` transforms the
    caller's array and returns it; no other thread may touch that array until the call
    returns (the GIL is released while it runs)."""

def inverse(values: Words, *, field: FieldName = "goldilocks", order: Order = "nn",
            coset: bool = False, inplace: bool = False) -> Words:
    """The inverse of :func:`forward` (with the ``1/n`` scale)."""

def forward_batch(values: Words, *, field: FieldName = "goldilocks",
                  layout: Layout = "polynomial-major", order: Order = "nn",
                  inverse: bool = False, inplace: bool = False) -> Words:
    """Transforms of ``(polynomials, n)`` (``polynomial-major``) or ``(n, polynomials)``
    (``index-major``) batches."""

def lde(coefficients: Words, log_blowup: int, *, field: FieldName = "goldilocks",
        coset: bool = True) -> Words:
    """The ``n * 2**log_blowup`` evaluations of a polynomial on ``g<w>`` (natural order)."""

def lde_batch(values: Words, log_blowup: int, *, field: FieldName = "goldilocks",
              layout: Layout = "polynomial-major", input: LdeInput = "coefficients",
              coset: bool = True) -> Words:
    """Batched LDEs in either layout, from ``coefficients`` or ``evaluations``."""

__all__ = [
    "forward",
    "forward_batch",
    "inverse",
    "lde",
    "lde_batch",
]
