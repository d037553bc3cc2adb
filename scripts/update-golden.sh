#!/usr/bin/env bash
# Regenerates the golden report files that tests/cli/test_ReportGolden.cpp compares with:
# `sightline-cli report` on the bundled sample samples/02-dp4 with one knob set, as HTML, JSON and
# CSV, without timeline pictures (they depend on the machine's fonts). Run it after a deliberate change to the report, then review the diff before committing.
#   scripts/update-golden.sh [path/to/sightline-cli]   (default: build/ci/app/sightline-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
cli="${1:-build/ci/app/sightline-cli}"
out=tests/data/golden
mkdir -p "$out"
"$cli" report samples/02-dp4 --set compute.speedup=2 --no-pictures \
  --out "$out/report-02-dp4.html" --json "$out/report-02-dp4.json" --csv "$out/report-02-dp4.csv"
# The sample's path is written as given (relative), so the files do not depend on the checkout.
echo "wrote $out/report-02-dp4.{html,json,csv}"
