"""Persisted driver state: a job description and one file per finished task, written
atomically (a temporary name, then a rename), so a killed driver loses nothing it recorded."""

from __future__ import annotations

import json
import os
import pathlib
import tempfile
from typing import Any

from ..errors import InvalidInputError


def write_atomically(path: pathlib.Path, data: bytes) -> None:
    """``data`` at ``path``, all or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        pathlib.Path(tmp).unlink(missing_ok=True)
        raise


class JobState:
    """A directory holding one job's description and its finished results by index."""

    def __init__(self, directory: str | os.PathLike[str], job: dict[str, Any]) -> None:
        self.dir = pathlib.Path(directory)
        self.results = self.dir / "results"
        self.dir.mkdir(parents=True, exist_ok=True)
        manifest = self.dir / "job.json"
        text = json.dumps(job, sort_keys=True, indent=1).encode()
        if manifest.exists():
            if manifest.read_bytes() != text:
                raise InvalidInputError(
                    f"{self.dir} holds the state of another job; use a new directory"
                )
        else:
            write_atomically(manifest, text)

    def path(self, index: int) -> pathlib.Path:
        return self.results / f"{index:010d}.bin"

    def done(self) -> dict[int, bytes]:
        """The results recorded so far."""
        if not self.results.exists():
            return {}
        out = {}
        for p in self.results.glob("*.bin"):
            out[int(p.stem)] = p.read_bytes()
        return out

    def record(self, index: int, data: bytes) -> None:
        write_atomically(self.path(index), data)
