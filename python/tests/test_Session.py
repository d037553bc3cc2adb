"""load / info / warnings / events against `sightline-cli info --json`."""

import numpy as np
import pandas as pd
import pytest

import sightline
from conftest import cli_json, sample, shared

EVENT_DTYPES = {"rank": np.int32, "pid": np.int64, "tid": np.int64, "ts": np.float64, "dur": np.float64,
                "correlation": np.int64}


def check_session(path, et=None):
    s = sightline.load(path, et=et)
    info = cli_json("info", path, *(["--et", et] if et else []))
    assert s.info() == info
    assert s.rank_ids == [r["rank"] for r in info["ranks"]]
    w = s.warnings()
    assert list(w["key"]) == [x["key"] for x in info["warning_stats"]]
    assert list(w["count"]) == [x["count"] for x in info["warning_stats"]]
    events = s.events()
    for column, dtype in EVENT_DTYPES.items():
        assert events[column].dtype == dtype, column
    for column in ("name", "cat", "class", "launch_op"):
        assert isinstance(events[column].dtype, pd.CategoricalDtype), column
    # One row per event of info's counts, by rank and by kind.
    assert len(events) == info["events"] == sum(r["events"] for r in info["ranks"])
    for r in info["ranks"]:
        by_kind = events[events["rank"] == r["rank"]]["cat"].value_counts()
        assert by_kind[by_kind > 0].to_dict() == r["events_by_kind"], r["rank"]
    first = info["ranks"][0]
    kind = max(first["events_by_kind"], key=first["events_by_kind"].get)
    assert len(s.events(rank=first["rank"], kind=kind)) == first["events_by_kind"][kind]
    return s, events


def test_sample():
    s, events = check_session(sample("02-dp4"))
    # Kernels were launched by an op; durations are never negative.
    kernels = events[events["cat"] == "kernel"]
    assert kernels["launch_op"].notna().any()
    assert (events["dur"] >= 0).all()


def test_dlrm():
    check_session(shared("dlrm-8rank-v100/kineto"), et=shared("dlrm-8rank-v100/et"))


def test_bad_filters():
    s = sightline.load(sample("02-dp4"))
    with pytest.raises(sightline.UsageError, match="no event kind 'kernal'"):
        s.events(kind="kernal")
    with pytest.raises(sightline.UsageError, match="no rank 99"):
        s.events(rank=99)


def test_progress_and_interrupt():
    path = shared("dlrm-8rank-v100/kineto")
    calls = []
    sightline.load(path, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1] > 0
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))

    def interrupt(done, total):
        raise KeyboardInterrupt

    # Ctrl-C while loading: the core is cancelled and the interrupt reaches the caller.
    with pytest.raises(KeyboardInterrupt):
        sightline.load(path, progress=interrupt)
