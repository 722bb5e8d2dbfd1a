"""Design-space sweeps of the accelerator models on Ray: each knob's values split into tasks,
the points gathered in order into the sweep a single machine computes, and written as the same
CSV and plots (``zkaccel model unizk sweep``, ``zkaccel model ntt-fpga sweep``)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import models as _models
from ..errors import InvalidInputError
from ..types import SweepModel
from ._tasks import connect, gather, mark_attempt

import ray  # noqa: E402 (after ._tasks, which checks that Ray is installed)

#: The models a sweep runs, and the function of ``zkaccel.models`` that runs a chunk of one.
MODELS = {"unizk": "unizk_sweep", "ntt-fpga": "ntt_fpga_sweep"}
#: Most values one knob takes (the local sweep's limit: a chart's categorical axis).
MAX_VALUES = 64

_KNOB = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _run_chunk(model: SweepModel, knob: str, index: int, values: list[str], base: dict[str, Any],
               attempts_dir: str | None, delay: float) -> dict[str, Any]:
    mark_attempt(attempts_dir, f"{knob}.{index}", delay)
    result: dict[str, Any] = getattr(_models, MODELS[model])(knob, values, **base)
    return result


def _check(model: SweepModel, grid: Mapping[str, Sequence[Any]], chunk: int) -> dict[str, list[str]]:
    if model not in MODELS:
        raise InvalidInputError(f"model {model!r}: sweeps run {', '.join(sorted(MODELS))}")
    if not grid:
        raise InvalidInputError("the grid names no knob")
    if not 1 <= chunk <= MAX_VALUES:
        raise InvalidInputError(f"chunk {chunk}: 1 to {MAX_VALUES} values per task")
    checked: dict[str, list[str]] = {}
    for knob, values in grid.items():
        if not isinstance(knob, str) or not _KNOB.match(knob):
            raise InvalidInputError(f"knob {knob!r}: a plain name (letters, digits, _ and -)")
        if isinstance(values, (str, bytes)) or not 1 <= len(values) <= MAX_VALUES:
            raise InvalidInputError(f"{knob}: a list of 1 to {MAX_VALUES} values")
        checked[knob] = [str(v).strip() for v in values]
    return checked


def sweep(
    model: SweepModel,
    grid: Mapping[str, Sequence[Any]],
    out_dir: str | os.PathLike[str],
    *,
    base: Mapping[str, Any] | None = None,
    chunk: int = 4,
    font: str | os.PathLike[str] | None = None,
    address: str | None = None,
    max_retries: int = 3,
    progress: Callable[[int, int, float], None] | None = None,
    _attempts_dir: str | None = None,
    _delay: float = 0.0,
) -> dict[str, dict[str, Any]]:
    """Sweeps each knob of ``grid`` (knob → values) of ``model`` (``unizk`` or ``ntt-fpga``)
    on Ray tasks of ``chunk`` values each; ``base`` holds the keyword arguments of
    :func:`zkaccel.models.unizk_sweep` (``workload=``, ``trace=``, ``shape=``, ``mode=``,
    ``knobs=``) or :func:`zkaccel.models.ntt_fpga_sweep` (``log_points=``, ``pipelines=``, …)
    that fix the rest of the configuration. The points are gathered in the grid's order and
    written to ``out_dir`` by :func:`zkaccel.models.write_sweep` — the CSV, SVG and PNG a
    local sweep writes, byte for byte. Returns knob → ``{"sweep": dict, "files": {...}}``.

    A value or knob the model refuses raises its ``InvalidInputError`` at once, the other
    tasks cancelled (Ray does not retry application errors); a task lost with its worker or
    node is retried up to ``max_retries`` times. ``progress(done, total, tasks_per_s)`` is
    called as tasks finish."""
    checked = _check(model, grid, chunk)
    base_kwargs = dict(base or {})
    connect(address)
    base_ref = ray.put(base_kwargs)
    task = ray.remote(num_cpus=1, max_retries=max_retries)(_run_chunk)
    pending: dict[Any, tuple[str, int]] = {}
    for knob, values in checked.items():
        for index, start in enumerate(range(0, len(values), chunk)):
            ref = task.remote(model, knob, index, values[start:start + chunk], base_ref,
                              _attempts_dir, _delay)
            pending[ref] = (knob, index)
    total, parts = len(pending), {}
    started = time.monotonic()

    def record(key: tuple[str, int], part: dict[str, Any]) -> None:
        parts[key] = part
        if progress is not None:
            progress(len(parts), total, len(parts) / max(time.monotonic() - started, 1e-9))

    gather(pending, record)
    results: dict[str, dict[str, Any]] = {}
    for knob in checked:
        chunks = [parts[key] for key in sorted(k for k in parts if k[0] == knob)]
        gathered = dict(chunks[0])
        gathered["points"] = [p for c in chunks for p in c["points"]]
        files = _models.write_sweep(gathered, out_dir, model=model, font=font)
        results[knob] = {"sweep": gathered, "files": files}
    return results
