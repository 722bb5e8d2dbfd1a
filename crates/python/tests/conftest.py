"""Shared fixtures: the known-answer vectors (produced by plonky2, neptune, circomlibjs,
arkworks and gnark-crypto; provenance in vectors/PROVENANCE.md) and the zkaccel CLI."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
from typing import Any

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def load_vectors(name: str) -> Any:
    """The repository's vectors, or the shared copy beside the checkout."""
    for base in (REPO / "vectors", REPO.parent / "shared" / "vectors"):
        path = base / name
        if path.exists():
            return json.loads(path.read_text())
    pytest.skip(f"{name}: no vectors found")


@pytest.fixture(scope="session")
def poseidon_vectors() -> Any:
    return load_vectors("poseidon.json")


@pytest.fixture(scope="session")
def mimc_vectors() -> Any:
    return load_vectors("mimc.json")


@pytest.fixture(scope="session")
def cli() -> str:
    """The zkaccel binary the test command built (ZKACCEL_CLI), or one on PATH."""
    path = os.environ.get("ZKACCEL_CLI") or shutil.which("zkaccel")
    if not path:
        for profile in ("release", "debug"):
            candidate = REPO / "target" / profile / "zkaccel"
            if candidate.exists():
                path = str(candidate)
                break
    if not path:
        pytest.skip("no zkaccel CLI built")
    return path
