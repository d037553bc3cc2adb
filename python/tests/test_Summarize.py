"""summarize on Dask (one task per rank file) equals the single-process commands exactly:
`collectives --json` and the per-rank measured breakdown of `simulate --json`; a corrupt rank
file is named and the rest reported, with the summary saying what is missing."""

import shutil

import pytest
from dask.distributed import Client

import sightline
from conftest import cli, cli_json, sample, shared

# What a rank's file decides alone (report/RankSummary.h): equal to the whole set's numbers.
RANK_FIELDS = ("measured_us", "unexplained_wait_us", "prewindow_ops", "typical_launch_latency_us")


@pytest.fixture(scope="module")
def client():
    with sightline.local_cluster(n_workers=2, processes=False) as cluster:
        with Client(cluster) as c:
            yield c


def worker_settings():
    import os

    import dask

    return os.environ.get("MALLOC_ARENA_MAX"), dask.config.get("distributed.worker.profile.enabled")


def test_local_cluster_sets_up_its_workers(job):
    # The settings worker_config() names must reach a worker process (docs/Python.md, "Speed and
    # memory"): a renamed Dask key would leave them silently unset.
    with sightline.local_cluster(n_workers=1) as cluster, Client(cluster) as c:
        assert list(c.run(worker_settings).values()) == [("1", False)]
        check_exact(sightline.summarize(str(job), client=c), str(job))


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    out = tmp_path_factory.mktemp("job") / "dp256"
    cli("generate", "--out", out, "--dp", "256", "--layers", "1", "--hidden", "512", "--heads", "4",
        "--seq", "256", "--vocab", "1000")
    return out


def check_exact(summary, path):
    assert summary.complete and summary.json["missing"] == []
    assert summary.json["collectives"] == cli_json("collectives", "--json", path)
    sim = cli_json("simulate", "--json", path)
    assert len(summary.json["ranks"]) == len(sim["ranks"])
    for mine, theirs in zip(summary.json["ranks"], sim["ranks"]):
        assert mine["rank"] == theirs["rank"]
        for field in RANK_FIELDS:
            assert mine[field] == theirs[field], (mine["rank"], field)
        split = ("comm_wait_us", "comm_transfer_us", "exposed_comm_wait_us", "exposed_comm_transfer_us")
        assert mine["measured"] == {k: v for k, v in theirs["measured"].items() if k not in split}


def test_generated_256_ranks(job, client):
    summary = sightline.summarize(str(job), client=client)
    check_exact(summary, str(job))
    # Someone arrived last and the others waited for it: the arrival times are not all equal.
    assert summary.json["collectives"]["collectives"] and summary.collectives["spread_us"].gt(0).all()
    frame = summary.ranks
    assert len(frame) == 256 and frame["measured_compute_us"].gt(0).all()
    assert summary.by_class.sum() > 0


def test_corrupt_rank(job, client, tmp_path):
    broken = tmp_path / "dp256"
    shutil.copytree(job, broken)
    (broken / "rank-5.json").write_text('{"traceEvents": [')
    summary = sightline.summarize(str(broken), client=client)
    assert not summary.complete
    missing = summary.missing
    assert list(missing["path"]) == [str(broken / "rank-5.json")]
    assert "rank-5.json" in missing["error"][0]
    assert len(summary.json["ranks"]) == 255
    # Every collective of the job includes rank 5: none is shown with a hole, each is counted.
    assert summary.json["collectives"]["collectives"] == []
    assert summary.json["collectives_left_out"] > 0
    # Saved and opened again, the summary is the same.
    summary.save(tmp_path / "job.json")
    assert sightline.JobSummary.open(tmp_path / "job.json").json == summary.json


def test_dlrm_default_cluster():
    """Without a client: a LocalCluster of its own, closed afterwards."""
    path = shared("dlrm-8rank-v100/kineto")
    check_exact(sightline.summarize(path), path)


def test_pipeline_sample(client):
    """Sends and receives between pipeline stages too: the k-th send of a stage meets the k-th
    receive of the next, as the graph pairs them."""
    path = sample("04-dp2-tp2-pp2-2nodes")
    summary = sightline.summarize(path, client=client)
    check_exact(summary, path)
    assert {"send_recv", "all_reduce"} <= set(summary.collectives["type"])


def test_sampled_ranks(client):
    """Two ranks of a 128-rank job: the single process models the missing peers (phantoms); the
    summary leaves those collectives out, counts them, and is not complete."""
    path = shared("sampled-2of128")
    summary = sightline.summarize(path, client=client)
    assert summary.json["collectives"]["collectives"] == []
    assert summary.json["collectives_left_out"] > 0 and not summary.complete
