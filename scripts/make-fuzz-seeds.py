#!/usr/bin/env python3
"""Writes tests/fuzz/corpus/fuzz_graph_sim/: seed inputs in the format of tests/fuzz/fuzz_graph_sim.cpp.

That target reads one selector byte (which graph options and knobs to use) followed by up to 4
rank files separated by "\\n--rank--\\n". The bad-input corpus (tests/data/bad) holds plain trace
files, so through this target almost all of it stops in the loader; these seeds instead reach the
graph builder and the simulator with the multi-rank sets of tests/data/bad (each set directory's
files joined) and its small single-file traces (doubled into two identical ranks by selector bit 1),
under several selectors. Deterministic: re-running it gives the same files.

The fuzz replay (scripts/ci-sanitizers.sh, CTest fuzz_replay_*) feeds them, with tests/data/bad,
to the entry points under AddressSanitizer + UndefinedBehaviorSanitizer; libFuzzer can start from
them too (tests/fuzz/CMakeLists.txt).

usage: scripts/make-fuzz-seeds.py [OUT_DIR]   (default tests/fuzz/corpus/fuzz_graph_sim)
"""
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAD = os.path.join(ROOT, "tests", "data", "bad")
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "fuzz", "corpus", "fuzz_graph_sim")
SEPARATOR = b"\n--rank--\n"

# Selector bits (fuzz_graph_sim.cpp): 1 two identical ranks from one part, 2 no cross-stream
# inference, 4 no collective matching, 8 one step (selector >> 4), 16 speed-up / no overlap /
# straggler knobs, 32 alpha-beta communication model with dp scale.
SET_SELECTORS = [0x00, 0x10, 0x20, 0x06, 0x18]
SINGLE_SELECTORS = [0x01, 0x11, 0x21, 0x07]
SINGLE_PREFIXES = ("ok-realistic", "cycle-", "collective-", "ok-gpu-", "flows-", "overlap-", "same-")


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    count = 0
    for entry in sorted(os.listdir(BAD)):
        path = os.path.join(BAD, entry)
        if os.path.isdir(path):
            files = sorted(f for f in os.listdir(path) if os.path.isfile(os.path.join(path, f)))[:4]
            if not files:
                continue
            parts = []
            for f in files:
                with open(os.path.join(path, f), "rb") as fh:
                    parts.append(fh.read())
            for s in SET_SELECTORS:
                write(f"set-{entry}-sel{s:02x}", bytes([s]) + SEPARATOR.join(parts))
                count += 1
        elif entry.startswith(SINGLE_PREFIXES) and os.path.isfile(path):
            with open(path, "rb") as fh:
                data = fh.read()
            for s in SINGLE_SELECTORS:
                write(f"one-{entry}-sel{s:02x}", bytes([s]) + data)
                count += 1
    print(f"wrote {count} seeds to {OUT}")


if __name__ == "__main__":
    main()
