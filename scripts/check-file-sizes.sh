#!/usr/bin/env bash
# Fails when a source file holds more than 700 lines (docs/ARCHITECTURE.md, "Layers": rooms of one
# job). Run by .ci/run; prints each file over the limit with its line count.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=700
bad=0
while IFS= read -r -d '' file; do
  lines=$(wc -l <"$file")
  if [ "$lines" -gt "$limit" ]; then
    echo "$file: $lines lines (more than $limit: split it by job)"
    bad=1
  fi
done < <(git ls-files -z -- '*.cpp' '*.h' '*.py' '*.sh')
exit $bad
