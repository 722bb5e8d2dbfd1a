"""zkaccel beyond one machine, on Ray (``pip install ./crates/python[dist]``).

- :func:`zkaccel.dist.merkle.build` — a tree of ``arity^n`` leaves as ``arity^k`` aligned
  subtrees built by Ray tasks, combined on the driver into the same commitment a single
  machine computes; each subtree root is persisted as it arrives, so a restarted driver
  resubmits only what is missing.
- :func:`zkaccel.dist.prove_batch` — STARK proofs of many statements, each proof written
  atomically as it arrives, with a manifest of their hashes; resumable.
- :func:`zkaccel.dist.sweep` — the accelerator models' design-space sweeps, each knob's
  values split into tasks, gathered into the CSV and plots a local sweep writes.

Ray supplies retries (a task lost with its node is re-run elsewhere), scheduling and the
local cluster the tests use. Deterministic errors (bad input) are checked on the driver
before anything is submitted and are never retried.
"""

from .merkle import GeneratedLeaves, NpyLeaves, TextLeaves, build
from .proofs import Statement, prove_batch
from .sweeps import sweep

__all__ = ["GeneratedLeaves", "NpyLeaves", "Statement", "TextLeaves", "build", "prove_batch",
           "sweep"]
