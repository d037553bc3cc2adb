"""compare against `sightline-cli compare --json`, on a generated run and its variant."""

import pytest

import sightline
from conftest import cli, cli_error_line, cli_json, sample


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    before, after = root / "before", root / "after"
    common = ["--dp", "2", "--layers", "2", "--hidden", "1024", "--heads", "8", "--seq", "512"]
    cli("generate", "--out", before, *common)
    cli("generate", "--out", after, *common, "--gpu-speedup", "2")
    return str(before), str(after)


def test_compare(runs):
    before, after = runs
    ranks, kernels, raw = sightline.compare(before, after)
    expected = cli_json("compare", "--json", before, after)
    assert raw == expected
    assert list(ranks["iteration_after_us"]) == [r["iteration"]["after_us"] for r in expected["ranks"]]
    assert len(kernels) == len(expected["by_kernel"])


def test_prediction(runs):
    before, after = runs
    _, _, raw = sightline.compare(sightline.load(before), after, knobs={"compute.speedup": 2})
    assert raw == cli_json("compare", "--json", before, after, "--set", "compute.speedup=2")
    assert [k.split("=")[0] for k in raw["prediction"]["changed_knobs"]] == ["compute.speedup"]


def test_not_one_program(runs):
    before, _ = runs
    other = sample("03-tp2-pp2")
    rc, line = cli_error_line("compare", before, other)
    with pytest.raises(sightline.Error) as raised:
        sightline.compare(before, other)
    assert str(raised.value) == line
