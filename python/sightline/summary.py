"""sightline.summarize: a job too large for one machine, one task per rank file on Dask
(docs/Python.md, "Jobs larger than one machine"). Each task loads one rank and returns its small
summary (the core's rankSummaryJson); the reduce (the core's jobSummaryJson) builds the job view
from the summaries alone."""

import json
import os
import zlib

import pandas as pd

from . import _core


def _rank_files(paths):
    """The per-rank files of `paths` (files, or folders of per-rank files), sorted by name."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = []
    for p in map(os.fspath, paths):
        if os.path.isdir(p):
            names = sorted(n for n in os.listdir(p)
                           if n.endswith((".json", ".json.gz", ".pt.trace.json", ".sqlite")))
            if not names:
                raise _core.ReadError(f"{p}: no trace files in the folder")
            files += [os.path.join(p, n) for n in names]
        else:
            files.append(p)
    return files


def _summarize_rank(path, step):
    """One rank: (path, summary JSON compressed, None) or (path, None, the error's line). The
    summary waits on the worker until the client fetches its batch; compressed (zlib's fastest
    level, 80 KB of JSON to about 10 KB) it is a small part of a worker's memory."""
    try:
        return path, zlib.compress(_core._rank_summary(path, step).encode(), 1), None
    except _core.Error as e:
        return path, None, str(e)


def _summarize_ranks(paths, step):
    """One task: the ranks of a batch one after the other, each loaded alone."""
    return [_summarize_rank(p, step) for p in paths]


# A task takes rank files until they hold this many bytes (a larger file is a task of its own). A
# task per 170 KB file cost a worker 6-8x one rank's load in Dask's per-task state; batches of
# small files, still loaded one file at a time, cost far less and run 2.5x faster; batches of
# 16 MB or more hold more summaries at once again (docs/Python.md, "Speed and memory").
_BATCH_BYTES = 4 << 20


def _batches(files):
    batch, size = [], 0
    for f in files:
        try:
            n = os.path.getsize(f)
        except OSError:
            n = 0
        if batch and size + n > _BATCH_BYTES:
            yield batch
            batch, size = [], 0
        batch.append(f)
        size += n
    if batch:
        yield batch


class JobSummary:
    """The job view of a summarised job: ranks (per-rank breakdown and pinned share), by_class
    (measured GPU time per kernel class over the job), collectives (every rank's arrival at every
    collective, as ``collectives --json``), missing (rank files that failed, with the error)."""

    def __init__(self, raw):
        self.json = raw
        self.complete = raw["complete"]

    @property
    def ranks(self):
        rows = []
        for r in self.json["ranks"]:
            row = {k: v for k, v in r.items() if not isinstance(v, (dict, list))}
            for k, v in r.get("measured", {}).items():
                if not isinstance(v, (dict, list)):
                    row["measured_" + k] = v
            for k, v in r.get("alone", {}).items():
                row["alone_" + k] = v
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def by_class(self):
        return pd.Series(self.json["by_class_us"], name="us")

    @property
    def collectives(self):
        from . import _collective_frame
        return _collective_frame(self.json["collectives"])

    @property
    def missing(self):
        return pd.DataFrame(self.json["missing"], columns=["path", "error"])

    def save(self, path):
        """Writes the summary as JSON (the job view; JobSummary.open reads it back)."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.json, f)

    @classmethod
    def open(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f))


def worker_config(processes=True):
    """The Dask settings a summarising worker needs (dask.config.set(sightline.worker_config())
    before a cluster is made): Dask's statistical profiler off (its call-tree history grows with
    every task and tells nothing about one C++ call), and for worker processes one malloc arena
    (a task runs on the worker's executor thread, whose own arena would keep a second heap beside
    the main one)."""
    config = {"distributed.worker.profile.enabled": False}
    if processes:
        config["distributed.nanny.pre-spawn-environ.MALLOC_ARENA_MAX"] = 1
    return config


def local_cluster(n_workers=2, processes=True):
    """A LocalCluster of single-threaded workers set up by worker_config()."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set(worker_config(processes)):
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=processes,
                            dashboard_address=":0")


def summarize(paths, client=None, step=None):
    """Summarises a job rank file by rank file on a Dask cluster (a LocalCluster of two
    single-threaded workers in this process, local_cluster(processes=False), when no client is
    given; pass a client of local_cluster() or of a cluster set up by worker_config() for jobs
    that need the memory of separate processes) and reduces the summaries into a JobSummary.
    A rank file that fails is named in .missing with its error and the rest are kept; collectives
    with a missing participant are left out of the job view and counted (collectives_left_out)."""
    from dask.distributed import Client, as_completed

    files = _rank_files(paths)
    own = None
    if client is None:
        own = client = Client(local_cluster(processes=False))
    try:
        futures = client.map(_summarize_ranks, list(_batches(files)), step=-1 if step is None else int(step),
                             pure=False)
        # Each batch's summaries are taken as it is done and its future released, so a worker never
        # holds more than the summaries not yet fetched (not all of its ranks').
        results = []
        for future in as_completed(futures):
            results.extend(future.result())
            future.release()
        del futures
        results.sort(key=lambda r: files.index(r[0]))
    finally:
        if own is not None:
            own.close()
            own.cluster.close()
    summaries = [zlib.decompress(s).decode() for _, s, _ in results if s is not None]
    failures = [(p, e) for p, _, e in results if e is not None]
    return JobSummary(json.loads(_core._job_summary(summaries, failures)))
