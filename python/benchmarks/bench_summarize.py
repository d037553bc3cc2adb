"""summarize of a generated 1,024-rank job on a LocalCluster of 2 worker processes against the
single process (docs/Python.md, "Speed and memory"): wall time of both, each worker's peak
resident memory against one rank's load.

usage: PYTHONPATH=build/ci/python SIGHTLINE_CLI=build/ci/app/sightline-cli \\
       /usr/bin/python3 python/benchmarks/bench_summarize.py [RANKS [LAYERS]]"""

import os
import subprocess
import sys
import tempfile
import time

from dask.distributed import Client

import sightline

CLI = os.environ.get("SIGHTLINE_CLI", "sightline-cli")


def status_mb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return -1


def reset_peak():
    """Starts the peak resident memory (VmHWM) afresh from the current one (Linux's clear_refs)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return status_mb("VmRSS")


def peak_mb():
    return status_mb("VmHWM")


def main():
    ranks = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    layers = int(sys.argv[2]) if len(sys.argv) > 2 else 4  # the generator's default
    out = os.path.join(tempfile.gettempdir(), f"sightline-bench-dp{ranks}-l{layers}")
    if not os.path.isdir(out):
        subprocess.run([CLI, "generate", "--out", out, "--dp", str(ranks), "--layers", str(layers)], check=True,
                       capture_output=True)
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print(f"job: {ranks} ranks, {size / 1e6:.0f} MB in {out}")
    # One rank's load (and summary) alone, in a fresh process: the yardstick of a worker's memory.
    def alone(code):
        """Peak resident memory over the interpreter's of `code` run on rank 0's file, in a fresh process."""
        here = os.path.dirname(os.path.abspath(__file__))
        got = subprocess.run([sys.executable, "-c", (
            "import sys; sys.path.insert(0, sys.argv[2]); import bench_summarize as b, sightline; p = sys.argv[1];"
            f"base = b.reset_peak(); {code}; print(b.peak_mb() - base)"),
            os.path.join(out, "rank-0.json"), here], check=True, capture_output=True, text=True).stdout
        return float(got)

    one_mb = alone("s = sightline.load(p, progress=lambda d, t: None)")
    task_mb = alone("s = sightline._core._rank_summary(p)")
    print(f"one rank alone: its load +{one_mb:.1f} MB resident at the peak, its whole task (load, graph, replay, "
          f"summary) +{task_mb:.1f} MB")
    with sightline.local_cluster(n_workers=2) as cluster, Client(cluster) as client:
        before = client.run(reset_peak)
        t = time.perf_counter()
        summary = sightline.summarize(out, client=client)
        wall = time.perf_counter() - t
        after = client.run(peak_mb)
    print(f"summarize on 2 workers: {wall:.1f} s, complete {summary.complete}; worker peak over idle: " +
          ", ".join(f"+{after[w] - before[w]:.1f} MB ({after[w] - before[w]:.1f} / {one_mb:.1f} = "
                    f"{(after[w] - before[w]) / max(one_mb, 0.1):.2f}x one rank)" for w in after))
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
