"""events() against load on a large trace (docs/Python.md, "Speed and memory"): a >= 200 MB
Kineto file made by replicating the shared single-rank trace, as tests/benchmarks/LargeTrace.h
does; prints load and events() time and the resident memory each adds.

usage: PYTHONPATH=build/ci/python /usr/bin/python3 python/benchmarks/bench_events.py [TRACES_DIR]"""

import gc
import gzip
import json
import os
import sys
import tempfile
import time

import sightline


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return -1


def large_trace(traces):
    source = os.path.join(traces, "single-rank", "rtx2080ti-linear.json.gz")
    path = os.path.join(tempfile.gettempdir(), "sightline-bench-events.json")
    if os.path.exists(path):
        return path
    doc = json.load(gzip.open(source))
    events = doc.pop("traceEvents")
    stamps = [(e["ts"], e.get("dur", 0)) for e in events if isinstance(e.get("ts"), (int, float))]
    span = max(t + d for t, d in stamps) - min(t for t, _ in stamps) + 1000
    head = json.dumps(doc)[:-1] + ',"traceEvents":['
    written, first = len(head), True
    with open(path, "w") as out:
        out.write(head)
        copy = 0
        while written < 210_000_000:
            for e in events:
                e = dict(e)
                if isinstance(e.get("ts"), (int, float)):
                    e["ts"] = e["ts"] + copy * span
                if isinstance(e.get("id"), int):
                    e["id"] = e["id"] + copy * 10_000_000
                if isinstance(e.get("args"), dict) and "correlation" in e["args"]:
                    e["args"] = dict(e["args"], correlation=e["args"]["correlation"] + copy * 10_000_000)
                text = json.dumps(e, separators=(",", ":"))
                out.write(("" if first else ",\n") + text)
                written += len(text) + 2
                first = False
            copy += 1
        out.write("]}")
    return path


def main():
    traces = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                                "shared", "traces")
    path = large_trace(traces)
    print(f"trace: {path}, {os.path.getsize(path) / 1e6:.0f} MB")
    for run in range(3):
        gc.collect()
        base = rss_mb()
        t = time.perf_counter()
        s = sightline.load(path, progress=lambda done, total: None)
        load_s = time.perf_counter() - t
        loaded = rss_mb()
        t = time.perf_counter()
        frame = s.events()
        events_s = time.perf_counter() - t
        framed = rss_mb()
        core_mb = s._core.memory_bytes / 2**20
        frame_mb = frame.memory_usage(deep=True).sum() / 2**20
        print(f"run {run}: {len(frame)} events; load {load_s:.2f} s, events() {events_s:.2f} s "
              f"({events_s / load_s:.2f}x); memory: the core's set {core_mb:.0f} MB (resident +{loaded - base:.0f} MB), "
              f"the frame {frame_mb:.0f} MB ({frame_mb / core_mb:.2f}x; resident +{framed - loaded:.0f} MB)")
        del frame, s


if __name__ == "__main__":
    main()
