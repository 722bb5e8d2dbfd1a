"""STARK proofs of the shipped AIRs (fibonacci, factorial), starky 1.1.0-compatible."""

from collections.abc import Sequence

def prove(air: str, log_rows: int, *, inputs: Sequence[int] | None = None,
          config: str = "standard-fast", rate_bits: int | None = None,
          cap_height: int | None = None, pow_bits: int | None = None,
          queries: int | None = None, encoding: str = "zkaccel") -> bytes:
    """The proof file ``zkaccel prove`` writes for the same statement."""

def prove_with_trace(air: str, log_rows: int, *, inputs: Sequence[int] | None = None,
                     config: str = "standard-fast", rate_bits: int | None = None,
                     cap_height: int | None = None, pow_bits: int | None = None,
                     queries: int | None = None, encoding: str = "zkaccel") -> tuple[bytes, str]:
    """:func:`prove` and the proof's kernel trace (JSON Lines)."""

def verify(proof: bytes, *, air: str | None = None, log_rows: int | None = None,
           inputs: Sequence[int] | None = None, encoding: str = "zkaccel",
           config: str = "standard-fast", rate_bits: int | None = None,
           cap_height: int | None = None, pow_bits: int | None = None,
           queries: int | None = None, starky_compatible: bool = False) -> list[int]:
    """The proof's public inputs; ``VerificationError`` when it does not verify."""
