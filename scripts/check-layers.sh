#!/usr/bin/env bash
# Fails when a file of the core includes a layer it may not (docs/ARCHITECTURE.md, "Layers"): the
# core's folders include only downwards, and nothing in core/ includes Qt or the GUI. Run by .ci/run;
# prints every forbidden include as file:line: include (layer -> layer).
set -euo pipefail
cd "$(dirname "$0")/.."

# core/<layer> may include the layers its sightline_layer(<layer> BELOW ...) line in
# core/CMakeLists.txt names (besides itself): the build and this check read one list.
declare -A allowed=()
while read -r layer below; do
  allowed[$layer]="$below"
done < <(sed -nE 's/^sightline_layer\(([a-z]+)( BELOW ([a-z ]+))?\)$/\1 \3/p' core/CMakeLists.txt)
if [ "${#allowed[@]}" -lt 2 ]; then
  echo "check-layers: no sightline_layer() lines found in core/CMakeLists.txt"
  exit 1
fi
bad=0
report() {
  echo "$1: forbidden include $2 ($3 -> $4)"
  bad=1
}

for layer in "${!allowed[@]}"; do
  [ -d "core/$layer" ] || continue
  while IFS= read -r hit; do
    file="${hit%%:*}"
    rest="${hit#*:}"
    line="${rest%%:*}"
    target="$(sed -E 's/.*#include "([a-z]+)\/.*/\1/' <<<"$rest")"
    [ "$target" = "$layer" ] && continue
    [ -n "${allowed[$target]+x}" ] || continue # not a core layer (a system or generated header)
    case " ${allowed[$layer]} " in *" $target "*) continue ;; esac
    report "$file:$line" "\"$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$rest")\"" "$layer" "$target"
  done < <(grep -rnE '^#include "[a-z]+/' "core/$layer" --include='*.h' --include='*.cpp' || true)
done

# Nothing in core/ includes Qt or the GUI.
if grep -rnE '^#include <Q|^#include "(ui|app)/' core --include='*.h' --include='*.cpp'; then
  echo "core/ includes Qt or the GUI (above)"
  bad=1
fi
exit $bad
