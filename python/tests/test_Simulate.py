"""simulate / result frames / sweep against the CLI's JSON, and knob errors as --set gives them."""

import json

import pytest

import sightline
from conftest import cli, cli_error_line, cli_json, sample, shared

KNOBS = {"compute.speedup": 2, "comm.speedup": 1.5}


def sets(knobs):
    return [a for k, v in knobs.items() for a in ("--set", f"{k}={v}")]


def check_simulation(path, knobs, tmp_path):
    s = sightline.load(path)
    r = s.simulate(knobs)
    expected = cli_json("simulate", "--json", path, *sets(knobs))
    assert r.json() == expected
    assert r.iteration_us == expected["iteration"]["simulated_us"]
    ranks = r.ranks
    assert list(ranks["rank"]) == [x["rank"] for x in expected["ranks"]]
    for column in ("measured_us", "simulated_us", "error_pct", "pinned_share_pct", "compute_us", "idle_us"):
        assert list(ranks[column]) == [x[column] for x in expected["ranks"]], column
    assert list(ranks["measured_compute_us"]) == [x["measured"]["compute_us"] for x in expected["ranks"]]
    path_json = cli_json("critical-path", "--json", path, *sets(knobs))
    cp = r.critical_path()
    # The frame has every column on every row: `work` (embedding segments only in the JSON) is empty
    # elsewhere.
    segments = [({"work": ""} if "work" in cp.columns else {}) | s for s in path_json["segments"]]
    assert cp.to_dict("records") == segments
    assert cp.attrs["length_us"] == path_json["length_us"]
    coll = cli_json("collectives", "--json", path)
    frame = r.collectives()
    assert frame.attrs["json"] == coll
    assert len(frame) == sum(len(c["arrivals"]) for c in coll["collectives"])
    # The simulated timeline: one row per graph node.
    timeline = r.events()
    assert len(timeline) == expected["graph"]["nodes"]
    assert (timeline["dur"] >= 0).all()
    # The report file as `report --json` writes it, apart from who wrote it.
    r.report(tmp_path / "py.json")
    cli("report", path, "--json", tmp_path / "cli.json", *sets(knobs))
    mine, theirs = (json.loads((tmp_path / f).read_text()) for f in ("py.json", "cli.json"))
    mine.pop("generator", None)
    theirs.pop("generator", None)
    assert mine == theirs


def test_sample(tmp_path):
    check_simulation(sample("02-dp4"), {}, tmp_path)
    check_simulation(sample("01-dp8-straggler"), KNOBS, tmp_path)


def test_dlrm(tmp_path):
    check_simulation(shared("dlrm-8rank-v100/kineto"), KNOBS, tmp_path)


def test_sweep():
    path = sample("02-dp4")
    frame = sightline.load(path).sweep("compute.speedup", [1.5, 2], knobs={"comm.speedup": 2})
    expected = cli_json("sweep", "--json", path, "--set", "compute.speedup=1.5,2", "--set", "comm.speedup=2")
    assert frame.attrs["json"] == expected
    assert list(frame["iteration_us"]) == [expected["baseline"]["iteration_us"]] + [
        p["iteration_us"] for p in expected["points"]]


@pytest.mark.parametrize("key, value", [("compute.speedup", -1), ("compute.speedup", "fast"),
                                        ("no.such.knob", 2), ("straggler.rank", 99)])
def test_knob_errors(key, value):
    path = sample("02-dp4")
    s = sightline.load(path)
    rc, line = cli_error_line("simulate", path, "--set", f"{key}={value}")
    with pytest.raises(sightline.Error) as raised:
        s.simulate({key: value})
    # The CLI's line is "--set: <the knob's message>" for a knob it refuses before loading.
    assert line in (str(raised.value), "--set: " + str(raised.value))
    if line.startswith("--set: "):
        assert isinstance(raised.value, sightline.KnobError)
