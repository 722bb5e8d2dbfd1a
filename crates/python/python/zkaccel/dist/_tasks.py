"""What every ``zkaccel.dist`` job shares: joining the cluster, recording each execution of a
task (for the fault tests), and gathering results as they arrive — an application error
cancelling the rest and raised as itself (Ray does not retry those), lost tasks retried by
Ray."""

from __future__ import annotations

import importlib.util
import logging
import os
import time
from collections.abc import Callable
from typing import Any

# Ray is the optional `dist` extra: say how to get it rather than fail on the import.
if importlib.util.find_spec("ray") is None:  # pragma: no cover - only without the extra
    raise ImportError("zkaccel.dist needs Ray: pip install './crates/python[dist]'")
import ray  # noqa: E402


def connect(address: str | None) -> None:
    """Joins the cluster at ``address`` (default: the one ``ray.init`` finds or starts),
    unless this process already has."""
    if not ray.is_initialized():
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)


def mark_attempt(attempts_dir: str | None, stem: str, delay: float) -> str | None:
    """In a task: a file ``stem.node.pid.ns`` in ``attempts_dir`` per execution (the fault
    tests count them), then ``delay`` seconds of sleep; returns the file's path."""
    marker = None
    if attempts_dir is not None:
        node = ray.get_runtime_context().get_node_id()
        marker = os.path.join(attempts_dir, f"{stem}.{node}.{os.getpid()}.{time.time_ns()}")
        with open(marker, "w") as f:
            f.write("started\n")
    if delay:
        time.sleep(delay)
    return marker


def gather(pending: dict[Any, Any], on_result: Callable[[Any, Any], None]) -> None:
    """Waits for every task of ``pending`` (object ref → key), calling ``on_result(key,
    value)`` as each finishes. A task's application error cancels the others and is raised
    as the error the task raised."""
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                on_result(pending.pop(ref), ray.get(ref))
    except ray.exceptions.RayTaskError as e:
        for ref in pending:
            ray.cancel(ref)
        cause = e.cause if isinstance(e.cause, Exception) else e
        raise cause from None
