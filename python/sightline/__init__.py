"""Sightline from Python: load, simulate and analyse distributed training traces (docs/Python.md).

Every number comes from Sightline's core (the compiled module ``_core``), the same code
``sightline-cli`` runs: this file only turns what the core returns into pandas frames and spreads
rank files over a Dask cluster.
"""

import json
import os

import numpy as np
import pandas as pd

from . import _core
from ._core import (  # noqa: F401  (the error classes are the module's API)
    Error,
    FormatError,
    GraphError,
    KnobError,
    LimitError,
    ParseError,
    ReadError,
    UsageError,
    WriteError,
)
from .summary import JobSummary, local_cluster, summarize, worker_config  # noqa: F401

__all__ = [
    "load", "compare", "summarize", "local_cluster", "worker_config", "Session", "Result", "JobSummary",
    "Error", "ReadError",
    "ParseError", "FormatError", "LimitError", "WriteError", "GraphError", "UsageError", "KnobError",
]


def _paths(paths):
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def _tqdm_progress():
    """A tqdm bar over the bytes loaded when tqdm is installed, else None."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    bar = tqdm(total=0, unit="B", unit_scale=True, desc="loading", leave=False)

    def update(done, total):
        if total and bar.total != total:
            bar.total = total
        bar.n = done
        bar.refresh()
        if total and done >= total:
            bar.close()
    return update


def _frame(columns, categories):
    """A DataFrame of the core's numpy columns; `categories` maps a code column to its names."""
    data = {}
    for key, value in columns.items():
        if not isinstance(value, np.ndarray):
            continue
        if key in categories:
            # The core hands each distinct name once; -1 (no launching op) becomes NaN.
            data[key] = pd.Categorical.from_codes(value, categories=columns[categories[key]])
        else:
            data[key] = value
    return pd.DataFrame(data, copy=False)


def _warning_frame(stats):
    return pd.DataFrame(stats, columns=["key", "severity", "count", "lines", "message", "example"])


class Session:
    """A loaded trace set (sightline.load); its graph is built on the first simulation."""

    def __init__(self, core):
        self._core = core
        self._info = None

    @property
    def paths(self):
        return list(self._core.paths)

    @property
    def rank_ids(self):
        return list(self._core.rank_ids)

    def info(self):
        """The dict ``sightline-cli info --json`` prints."""
        if self._info is None:
            self._info = json.loads(self._core.info_json())
        return self._info

    def warnings(self):
        """The warning counters (info's warning_stats) as a frame: key, severity, count, ..."""
        return _warning_frame(self.info()["warning_stats"])

    def events(self, rank=None, kind=None):
        """The measured events as a DataFrame, one row per event, built from the core's arrays:
        rank, pid, tid (the stream on GPU tracks), name, cat (the event kind), class, ts and dur
        (microseconds), correlation, launch_op (the op around a GPU op's launch call)."""
        cols = self._core.events(-1 if rank is None else int(rank), "" if kind is None else str(kind))
        codes = {"name": "names", "launch_op": "names", "cat": "cat_names", "class": "class_names"}
        return _frame(cols, codes)

    def simulate(self, knobs=None):
        """Replays the set with `knobs` ({"compute.speedup": 2, ...}, the keys and values of
        ``--set``); a bad knob raises KnobError before anything runs."""
        return Result(_core._simulate(self._core, knobs or {}))

    def sweep(self, knob, values, knobs=None):
        """One simulation per value of `knob` (on all cores), as ``sightline-cli sweep --json``:
        a frame with one row per value (the baseline first)."""
        raw = json.loads(self._core.sweep_json(knob, [_knob_text(v) for v in values], knobs or {}))
        rows = [dict(raw["baseline"], value=None)] + raw["points"]
        frame = pd.DataFrame([{
            "value": p["value"], "iteration_us": p["iteration_us"], "change_pct": p["change_pct"],
            "exposed_comm_us": p["exposed_comm_us"], "exposed_comm_max_us": p["exposed_comm_max_us"],
            "critical_path_us": p["critical_path"]["length_us"],
            **{"path_" + k + "_pct": v["pct"] for k, v in p["critical_path"]["by_kind"].items()},
        } for p in rows])
        frame.attrs["knob"] = raw["knob"]
        frame.attrs["json"] = raw
        return frame


def _knob_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Result:
    """One simulation (Session.simulate)."""

    def __init__(self, core):
        self._core = core
        self._json = None

    def json(self):
        """The dict ``sightline-cli simulate --json`` prints."""
        if self._json is None:
            self._json = json.loads(self._core.json())
        return self._json

    @property
    def iteration_us(self):
        return self._core.iteration_us

    @property
    def ranks(self):
        """Per rank: measured, simulated, error, pinned share and the breakdown (simulated, and
        measured as measured_*), as simulate --json's ranks[]."""
        rows = []
        for r in self.json()["ranks"]:
            row = {k: v for k, v in r.items() if not isinstance(v, (dict, list))}
            for k, v in r.get("measured", {}).items():
                if not isinstance(v, (dict, list)):
                    row["measured_" + k] = v
            rows.append(row)
        return pd.DataFrame(rows)

    def events(self):
        """The simulated timeline of the loaded ranks: one row per graph node with its simulated
        and measured start and duration (us)."""
        return _frame(self._core.events(), {"name": "names", "class": "class_names"})

    def critical_path(self):
        """The critical path's segments, as ``critical-path --json``; the whole object in .attrs."""
        raw = json.loads(self._core.critical_path_json())
        frame = pd.DataFrame(raw["segments"])
        # Embedding work ("embedding lookup", "embedding all-to-all") is named only on its segments;
        # elsewhere the column is empty, as `edge` and `op` are.
        if "work" in frame.columns:
            frame["work"] = frame["work"].fillna("")
        frame.attrs["length_us"] = raw["length_us"]
        frame.attrs["by_kind"] = raw["by_kind"]
        if "embedding" in raw:
            frame.attrs["embedding"] = raw["embedding"]
        return frame

    def collectives(self):
        """Every rank's arrival at every collective (measured), as ``collectives --json``: one row
        per arrival with the collective's index, type, group, spread and last rank."""
        return _collective_frame(json.loads(self._core.collectives_json()))

    def report(self, path):
        """Writes the report of this simulation as HTML, JSON or CSV (by the extension), as
        ``sightline-cli report --no-pictures`` does."""
        self._core.report(os.fspath(path))


def _collective_frame(raw):
    rows = []
    for i, c in enumerate(raw["collectives"]):
        for a in c["arrivals"]:
            rows.append({"collective": i, "type": c["type"], "group": c["group"], "size": c["size"],
                         "bytes": c["bytes"], "first_us": c["first_us"], "spread_us": c["spread_us"],
                         "last_rank": c["last_rank"], **a})
    frame = pd.DataFrame(rows, columns=["collective", "type", "group", "size", "bytes", "first_us",
                                        "spread_us", "last_rank", "rank", "arrival_us", "start_us",
                                        "end_us", "waited_us"])
    frame.attrs["ranks"] = raw["ranks"]
    frame.attrs["json"] = raw
    return frame


def load(paths, et=None, step=None, progress=None):
    """Loads trace files or folders (Kineto, Nsight Systems, Chakra, ... as the CLI takes them).

    et: execution traces (files or folders) for collective sizes; step: ProfilerStep#N only;
    progress: a callable(done, total) called as the load advances (a tqdm bar when tqdm is
    installed and progress is None). The GIL is released while loading; Ctrl-C cancels."""
    if progress is None:
        progress = _tqdm_progress()
    core = _core._load(_paths(paths), _paths(et) if et else [], -1 if step is None else int(step),
                       progress)
    return Session(core)


def compare(before, after, knobs=None, predict=False):
    """Two measured runs (Sessions or paths), as ``sightline-cli compare --json``: returns
    (per-rank frame, per-kernel frame, the whole dict). With knobs (or predict), `before` is
    simulated with them and held against `after` (the dict's "prediction")."""
    b = before if isinstance(before, Session) else load(before)
    a = after if isinstance(after, Session) else load(after)
    raw = json.loads(_core._compare(b._core, a._core, knobs or {}, bool(predict)))
    ranks = pd.DataFrame([{"rank": r["rank"], "aligned_pct": r["aligned_pct"],
                           **{f"{k}_{m}": r[k][m] for k in ("iteration", "compute", "communication",
                                                            "exposed_comm", "idle", "wait")
                              for m in ("before_us", "after_us", "delta_pct")}}
                          for r in raw["ranks"]])
    kernels = pd.DataFrame(raw["by_kernel"])
    return ranks, kernels, raw
