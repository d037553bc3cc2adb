#!/usr/bin/env python3
"""Per-family achieved efficiency of one GPU from single-GPU traces recorded on it.

Usage: scripts/calibrate-gpu-efficiency.py CLI TRACE [TRACE...]

Runs `CLI info TRACE` on each trace (every trace must be recorded on the same GPU: one machine at a
time) and combines `roofline.achieved` (docs/GpuModel.md, "Achieved efficiency"): per kernel family,
roofline time over measured time summed over all traces (so long kernels weigh as they do in a
step), and the shortest kernel time as the median of the traces' 5th percentiles. Prints the JSON
fragment of resources/gpus.json ("efficiency", "min_kernel_us") and, per trace, what it contributed.
Families seen in fewer than 20 kernels in all are left out: too few to stand for the GPU.
"""
import json
import statistics
import subprocess
import sys

MIN_KERNELS = 20
MIN_TRACES = 2
MIN_TRACE_KERNELS = 500


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cli, traces = sys.argv[1], sys.argv[2:]
    sums, mins, gpus = {}, [], set()
    for t in traces:
        out = subprocess.run([cli, "info", t], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"{t}: {out.stderr.strip()}")
        roof = json.loads(out.stdout).get("roofline", {})
        if "error" in roof:
            sys.exit(f"{t}: {roof['error']}")
        gpus.add(roof["gpu"]["name"])
        achieved = roof.get("achieved", {})
        if "min_kernel_us" in achieved and achieved.get("kernels", 0) >= MIN_TRACE_KERNELS:
            mins.append(achieved["min_kernel_us"])
        for family, f in achieved.get("by_family", {}).items():
            used = f["kernels"] >= MIN_KERNELS and f["roofline_us"] > 0
            if used:
                sums.setdefault(family, []).append(min(1.0, f["roofline_us"] / f["time_us"]))
            print(f"# {t}: {family} {f['kernels']} kernels, {f['time_us']:.0f} us, "
                  f"efficiency {f['efficiency']:.3f}{'' if used else ' (not used)'}", file=sys.stderr)
    if len(gpus) != 1:
        sys.exit(f"the traces were recorded on {len(gpus)} GPUs ({', '.join(sorted(gpus))}): one at a time")
    efficiency = {k: round(statistics.median(v), 3) for k, v in sorted(sums.items()) if len(v) >= MIN_TRACES}
    result = {"gpu": gpus.pop(), "efficiency": efficiency}
    if mins:
        result["min_kernel_us"] = round(statistics.median(mins), 2)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
