#!/usr/bin/env bash
# Checks that every tracked C++ source (.cpp, .h under app/, core/, ui/, tests/) is formatted as the
# root .clang-format says: `clang-format --dry-run -Werror`, which changes nothing and names each
# file and line that differs. Build directories and generated files (protobuf output, moc files)
# are never tracked, so they are never checked. Called from .ci/run; seconds on 2 cores.
#   usage: scripts/ci-format.sh           check (exit 1 when a file differs)
#          scripts/ci-format.sh --fix     format those files in place (clang-format -i)
# SIGHTLINE_FORMAT_STRICT=0 reports the differences but exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
. scripts/common.sh
sightline_ensure_packages

strict="${SIGHTLINE_FORMAT_STRICT:-1}"
mapfile -t files < <(git ls-files -- 'app/*.cpp' 'app/*.h' 'core/*.cpp' 'core/*.h' 'ui/*.cpp' 'ui/*.h' \
  'tests/*.cpp' 'tests/*.h' 'python/*.cpp' 'python/*.h')
if [ ${#files[@]} -eq 0 ]; then
  echo "ci-format: no C++ sources found (not a git checkout?)" >&2
  exit 2
fi
echo "ci-format: $(clang-format --version), ${#files[@]} files"

if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if clang-format --dry-run -Werror "${files[@]}" 2>"$log"; then
  echo "ci-format: every file is formatted"
  exit 0
fi
cat "$log" >&2
bad="$(grep -oE '^[^:]+:[0-9]+:[0-9]+: error' "$log" | cut -d: -f1 | sort -u)"
echo "ci-format: $(printf '%s\n' "$bad" | grep -c .) file(s) differ from .clang-format:" >&2
printf '  %s\n' $bad >&2
echo "ci-format: run scripts/ci-format.sh --fix (or clang-format -i FILE) and commit" >&2
if [ "$strict" = "0" ]; then
  echo "ci-format: SIGHTLINE_FORMAT_STRICT=0, not failing" >&2
  exit 0
fi
exit 1
