"""The accelerator models (AMAZE, FPGA NTT, UniZK, AcclMT): each report as a dict."""

import os
from collections.abc import Sequence
from typing import Any

from .types import NttCore, SweepModel, UnizkMode

def amaze(design: str | None = None, *, config: dict[str, Any] | None = None) -> Any:
    """One design's dict (``config``, ``model``, ``paper``), or a list over every design."""

def ntt_fpga(log_points: int, *, pipelines: int = 1, mul_latency: int = 5, width: int = 256,
             points: int = 4096, core: NttCore = "ours", clock_mhz: float = 68.0) -> dict[str, Any]:
    """The FPGA NTT core's cycles and time (``core``: ours, pipezk, pipelined)."""

def ntt_fpga_tables(*, mul_latency: int = 5, clock_mhz: float = 68.0) -> dict[str, Any]:
    """Tables III (``table_iii``: the core on 4096 points beside the paper's and the PipeZK
    replica), V (``table_v``: end to end per series) and VII (``table_vii``: the U50 column)
    from the model beside the paper's, at the multiplier latency and clock given."""

def ntt_fpga_trace(trace: str, *, core: NttCore = "ours",
                   clock_mhz: float = 68.0) -> dict[str, Any]:
    """The FPGA NTT model's replay of a kernel trace's wide-field NTT records."""

def unizk(*, trace: str | None = None, shape: str | None = None, workload: str | None = None,
          mode: UnizkMode = "paper", knobs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The UniZK model's report on a kernel trace, a plonky2 shape or a built-in workload."""

def unizk_sweep(knob: str, values: Sequence[Any], *, trace: str | None = None,
                shape: str | None = None, workload: str | None = None, mode: UnizkMode = "paper",
                knobs: dict[str, Any] | None = None) -> dict[str, Any]:
    """A sweep of the UniZK model: ``knob`` over ``values`` (at most 64), each point's
    milliseconds and speedup per class (NTT, polynomial, hash, layout, total) over the base."""

def ntt_fpga_sweep(knob: str, values: Sequence[Any], *, log_points: int = 8, pipelines: int = 1,
                   mul_latency: int = 5, width: int = 256, points: int = 4096,
                   core: NttCore = "ours", clock_mhz: float = 68.0) -> dict[str, Any]:
    """A sweep of the FPGA NTT core model: ``knob`` (log_points, pipelines, mul_latency, width,
    clock_mhz, points, core) over ``values``; cycles, time, multipliers and ratios to the base."""

def write_sweep(sweep: dict[str, Any], out: str | os.PathLike[str], *, model: SweepModel,
                font: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """Writes a sweep's CSV, SVG and PNG into ``out`` as the CLI does (``model``: ``unizk``,
    ``ntt-fpga`` or ``acclmt``); returns their paths as ``{"csv", "svg", "png"}``."""

def acclmt(leaves: int | None = None, *, hashes: int | None = None, arity: int = 2,
           shape: dict[str, int] | None = None, config: dict[str, Any] | None = None,
           cycle_exact: bool = False) -> dict[str, Any]:
    """AcclMT, key for key the CLI's ``zkaccel model acclmt tables --json``: one tree of ``leaves`` (a
    power of ``arity``: 2, 4, 8 or 11, FileCoin's Poseidon; wider than 2 is beyond the paper)
    on the Merkle controller (``run``: cycles, ms, utilisation; ``geometry``: the buffers for
    the arity); ``hashes`` states streamed through the engine (``run``: cycles, cycles per
    hash, utilisation); or, with neither, Tables I and II, the time losses, the mean
    utilisation and the controller (``config``: the controller's fields, missing ones at the
    paper's values; ``shape``: a Poseidon instance's ``width``, ``alpha``, ``full_rounds`` and
    ``partial_rounds`` in place of FileCoin's). ``cycle_exact=True`` builds the tree on the
    RTL controller's cycle-exact model (``controller``: its Verilog parameters; ``depth``;
    ``run``: cycles, leaf and root hashes, utilisation), whose cycles are the RTL's."""

def acclmt_sweep(knob: str, values: Sequence[Any], *, leaves: int = 16384,
                 config: dict[str, Any] | None = None) -> dict[str, Any]:
    """A sweep of the AcclMT controller model: ``knob`` (batch, mul_latency, slot_gap,
    handover_gap, clock_mhz, bandwidth_gbps, subtree_leaves, scratch_pad_nodes,
    level0_subtrees, merger, leaves) over ``values``; each build and its speedup."""

def acclmt_trace(trace: str, *, config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The AcclMT controller's replay of a kernel trace's wide-field Merkle records (binary;
    neptune's arity 4 and 8 too)."""

__all__ = [
    "acclmt",
    "acclmt_sweep",
    "acclmt_trace",
    "amaze",
    "ntt_fpga",
    "ntt_fpga_sweep",
    "ntt_fpga_tables",
    "ntt_fpga_trace",
    "unizk",
    "unizk_sweep",
    "write_sweep",
]
