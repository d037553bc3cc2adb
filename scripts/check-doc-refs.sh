#!/usr/bin/env bash
# Fails when a comment points at a document or section that does not exist: every
# `docs/X.md` must be a file, and every `docs/X.md, "Section"` a heading of it (any level; the
# quoted text is the heading's start, so "Lazy args" matches "## Lazy args (io/LazyArgs.h)") or a
# paragraph's bold lead-in ("**Pinned time**").
# Also no comment may point at an issue number or at a DESIGN.md outside the repository.
# Run by .ci/run; prints each broken pointer as file:line: what.
set -euo pipefail
cd "$(dirname "$0")/.."

bad=0
sources=(core ui app python tests/core tests/cli tests/ui tests/benchmarks tests/fuzz scripts)
while IFS= read -r hit; do
  file="${hit%%:*}"
  rest="${hit#*:}"
  line="${rest%%:*}"
  ref="${rest#*:}"
  doc="$(sed -E 's/^(docs\/[A-Za-z]+\.md).*/\1/' <<<"$ref")"
  if [ ! -f "$doc" ]; then
    echo "$file:$line: $doc does not exist"
    bad=1
    continue
  fi
  if [[ "$ref" == *', "'* ]]; then
    section="$(sed -E 's/^[^"]*"([^"]+)".*/\1/' <<<"$ref")"
    if ! grep -qxF -- "$section" <(grep -E '^#+ ' "$doc" | sed -E 's/^#+ //' | cut -c1-${#section}) &&
      ! grep -qF -- "**$section" "$doc"; then
      echo "$file:$line: $doc has no section \"$section\""
      bad=1
    fi
  fi
done < <(grep -rnoE 'docs/[A-Za-z]+\.md(, "[^"]+")?' "${sources[@]}" --include='*.h' --include='*.cpp' \
           --include='*.in' --include='*.sh' --include='*.py' --include='CMakeLists.txt' | grep -v '^scripts/check-doc-refs.sh' || true)

# Pointers that only meant something to the people who wrote them.
if grep -rnE '(issue|Issue) #?[0-9]+|\.\./shared/DESIGN\.md|[^/]DESIGN\.md' core ui app python tests --include='*.h' --include='*.cpp' --include='*.md' --include='*.py'; then
  echo "comments above point at issue numbers or a DESIGN.md outside the repository"
  bad=1
fi
exit $bad
