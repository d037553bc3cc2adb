"""summarize of a generated 1,024-rank job on a LocalCluster of 2 worker processes against the
single process (docs/Python.md, "Speed and memory"): wall time of both, each worker's peak
resident memory against one rank's load.

usage: PYTHONPATH=build/ci/python SIGHTLINE_CLI=build/ci/app/sightline-cli \\
       /usr/bin/python3 python/benchmarks/bench_summarize.py [RANKS]"""

import os
import resource
import subprocess
import sys
import tempfile
import time

from dask.distributed import Client, LocalCluster

import sightline

CLI = os.environ.get("SIGHTLINE_CLI", "sightline-cli")


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    ranks = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    out = os.path.join(tempfile.gettempdir(), f"sightline-bench-dp{ranks}")
    if not os.path.isdir(out):
        subprocess.run([CLI, "generate", "--out", out, "--dp", str(ranks), "--layers", "2"], check=True,
                       capture_output=True)
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print(f"job: {ranks} ranks, {size / 1e6:.0f} MB in {out}")
    # One rank's load (and summary) alone, in a fresh process: the yardstick of a worker's memory.
    one = subprocess.run([sys.executable, "-c", (
        "import resource, sightline, sys; b = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss;"
        "sightline._core._rank_summary(sys.argv[1]);"
        "print(b / 1024, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"),
        os.path.join(out, "rank-0.json")], check=True, capture_output=True, text=True).stdout.split()
    print(f"one rank summarised alone: peak {float(one[1]):.0f} MB (interpreter and module before it: "
          f"{float(one[0]):.0f} MB)")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        before = client.run(peak_mb)
        t = time.perf_counter()
        summary = sightline.summarize(out, client=client)
        wall = time.perf_counter() - t
        after = client.run(peak_mb)
    print(f"summarize on 2 workers: {wall:.1f} s, complete {summary.complete}; worker peak memory: " +
          ", ".join(f"{after[w]:.0f} MB (idle {before[w]:.0f} MB)" for w in after))
    t = time.perf_counter()
    subprocess.run([CLI, "collectives", "--json", out], check=True, capture_output=True)
    coll = time.perf_counter() - t
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", CLI, "simulate", "--json", out], check=True,
                       capture_output=True, text=True)
    sim = time.perf_counter() - t
    print(f"single process: collectives --json {coll:.1f} s, simulate --json {sim:.1f} s "
          f"(peak {int(p.stderr.split()[-1]) / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
