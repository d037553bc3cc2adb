#!/usr/bin/env bash
# Sets up (Debian packages, build) and opens Sightline on the given traces, or on a bundled sample.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/common.sh
sightline_ensure_packages
sightline_build release
if [ $# -eq 0 ]; then
  set -- "$(ls -d samples/*/ 2>/dev/null | head -n1)"
fi
exec build/release/app/sightline "$@"
