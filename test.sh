#!/usr/bin/env bash
# Sets up (Debian packages, build with warnings as errors) and runs the whole test suite via CTest.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/common.sh
sightline_ensure_packages
sightline_build ci
ctest --preset ci "$@"
