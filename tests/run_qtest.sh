#!/usr/bin/env bash
# Runs one Qt Test program for CTest so that skips are visible (docs/Testing.md):
#   - the program's output passes through unchanged (CTest shows it on failure);
#   - a non-zero exit (failed functions, a crash, a sanitizer abort) is returned as it is, so a
#     failure stays a failure even when other functions skipped;
#   - an exit of 0 with at least one "SKIP   :" line returns 77, which the test's SKIP_RETURN_CODE
#     turns into "Skipped" in CTest instead of "Passed".
# Qt Test exits with the number of failed functions, so a run with exactly 77 failures would read
# as a skip: that exit is returned as 1 instead.
#   usage: run_qtest.sh PROGRAM [ARGS...]
set -u
if [ $# -lt 1 ]; then
  echo "usage: $0 PROGRAM [ARGS...]" >&2
  exit 2
fi
log="$(mktemp "${TMPDIR:-/tmp}/sightline-qtest.XXXXXX")" || exit 2
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
code=${PIPESTATUS[0]}
if [ "$code" -eq 77 ]; then
  exit 1
fi
if [ "$code" -ne 0 ]; then
  exit "$code"
fi
if grep -q '^SKIP   :' "$log"; then
  echo "run_qtest.sh: $(grep -c '^SKIP   :' "$log") skipped function(s): reported to CTest as skipped" >&2
  exit 77
fi
exit 0
