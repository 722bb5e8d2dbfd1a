"""Batches of STARK proofs on Ray: each statement proved by a task, each proof written
atomically to an output directory as it arrives, with a manifest of their hashes."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pathlib
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from .. import stark as _stark
from ..errors import InvalidInputError
from ._state import write_atomically
from ..types import Air, StarkConfigName
from ._tasks import connect, gather, mark_attempt

import ray  # noqa: E402 (after ._tasks, which checks that Ray is installed)


@dataclasses.dataclass(frozen=True)
class Statement:
    """One statement to prove: a shipped AIR over ``2^log_rows`` rows with its inputs and
    configuration (as :func:`zkaccel.stark.prove` takes them); ``name`` names its file."""

    name: str
    air: Air
    log_rows: int
    inputs: tuple[int, ...] | None = None
    config: StarkConfigName = "standard-fast"

    def prove_kwargs(self) -> dict[str, Any]:
        return {"inputs": list(self.inputs) if self.inputs is not None else None,
                "config": self.config}


def _as_json(statement: Statement) -> Any:
    """The statement as the manifest records it (tuples become lists)."""
    return json.loads(json.dumps(dataclasses.asdict(statement)))


_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")


def _prove(statement: Statement, attempts_dir: str | None, delay: float) -> tuple[str, bytes]:
    mark_attempt(attempts_dir, statement.name, delay)
    proof = _stark.prove(statement.air, statement.log_rows, **statement.prove_kwargs())
    return statement.name, proof


def prove_batch(
    statements: Sequence[Statement],
    out_dir: str | os.PathLike[str],
    *,
    address: str | None = None,
    max_retries: int = 3,
    progress: Callable[[int, int, float], None] | None = None,
    _attempts_dir: str | None = None,
    _delay: float = 0.0,
) -> dict[str, str]:
    """Proves every statement on Ray tasks; writes ``out_dir/<name>.proof`` (the files
    ``zkaccel prove`` writes) and ``out_dir/manifest.json`` (name → statement and SHA-256).
    Proofs already in the manifest with their file intact are not proved again. Returns
    name → SHA-256. A statement the prover refuses (unknown AIR, wrong inputs, bad
    configuration) raises its ``InvalidInputError`` at once and is not retried (Ray retries
    system failures only); a task lost with its worker or node is retried up to
    ``max_retries`` times."""
    names = [s.name for s in statements]
    if len(set(names)) != len(names):
        raise InvalidInputError("statement names must be distinct (they name the files)")
    for s in statements:
        if not _NAME.match(s.name):
            raise InvalidInputError(f"statement name {s.name!r}: use letters, digits, . _ -")
        if not 1 <= s.log_rows <= 26:
            raise InvalidInputError(f"{s.name}: 2^{s.log_rows} rows: supported 1 to 26")
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / "manifest.json"
    manifest: dict[str, Any] = (
        json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    )
    hashes: dict[str, str] = {}
    for s in statements:
        entry = manifest.get(s.name)
        path = out / f"{s.name}.proof"
        if (entry and entry["statement"] == _as_json(s) and path.exists()
                and hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]):
            hashes[s.name] = entry["sha256"]
    connect(address)
    task = ray.remote(num_cpus=1, max_retries=max_retries)(_prove)
    by_name = {s.name: s for s in statements}
    pending = {task.remote(s, _attempts_dir, _delay): s.name
               for s in statements if s.name not in hashes}
    start, finished_here = time.monotonic(), 0

    def record(_: str, result: tuple[str, bytes]) -> None:
        nonlocal finished_here
        name, proof = result
        write_atomically(out / f"{name}.proof", proof)
        digest = hashlib.sha256(proof).hexdigest()
        hashes[name] = digest
        manifest[name] = {"statement": _as_json(by_name[name]),
                          "sha256": digest, "bytes": len(proof)}
        write_atomically(manifest_path, json.dumps(manifest, sort_keys=True, indent=1).encode())
        finished_here += 1
        if progress is not None:
            rate = finished_here / max(time.monotonic() - start, 1e-9)
            progress(len(hashes), len(statements), rate)

    gather(pending, record)
    return hashes
