"""STARK proofs of the shipped AIRs (fibonacci, factorial), starky 1.1.0-compatible."""

from collections.abc import Sequence

from .types import Air, Encoding, StarkConfigName

def prove(air: Air, log_rows: int, *, inputs: Sequence[int] | None = None,
          config: StarkConfigName = "standard-fast", rate_bits: int | None = None,
          cap_height: int | None = None, pow_bits: int | None = None,
          queries: int | None = None, encoding: Encoding = "zkaccel",
          security_bits: int | None = None) -> bytes:
    """The proof file ``zkaccel prove`` writes for the same statement. Overrides that
    conjecture less than ``security_bits`` (default 100) are refused."""

def prove_with_trace(air: Air, log_rows: int, *, inputs: Sequence[int] | None = None,
                     config: StarkConfigName = "standard-fast", rate_bits: int | None = None,
                     cap_height: int | None = None, pow_bits: int | None = None,
                     queries: int | None = None, encoding: Encoding = "zkaccel",
                     security_bits: int | None = None) -> tuple[bytes, str]:
    """:func:`prove` and the proof's kernel trace (JSON Lines)."""

def verify(proof: bytes, *, air: Air | None = None, log_rows: int | None = None,
           inputs: Sequence[int] | None = None, encoding: Encoding = "zkaccel",
           config: StarkConfigName | None = None, rate_bits: int | None = None,
           cap_height: int | None = None, pow_bits: int | None = None,
           queries: int | None = None, starky_compatible: bool = False,
           security_bits: int | None = None, min_security_bits: int = 100) -> list[int]:
    """The proof's public inputs; ``VerificationError`` when it does not verify, conjectures
    less than ``min_security_bits`` of security, or differs from a configuration named."""

__all__ = [
    "prove",
    "prove_with_trace",
    "verify",
]
