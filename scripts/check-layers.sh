#!/usr/bin/env bash
# Fails when a file of the core includes a layer it may not (docs/ARCHITECTURE.md, "Layers"): the
# core's folders include only downwards, and nothing in core/ includes Qt or the GUI. Run by .ci/run;
# prints every forbidden include as file:line: include (layer -> layer).
set -euo pipefail
cd "$(dirname "$0")/.."

# core/<layer> may include these core layers (besides itself). Lowest first.
declare -A allowed=(
  [base]=""
  [trace]="base"
  [io]="trace base"
  [models]="trace base"
  [graph]="models trace base"
  [structure]="graph models trace base"
  [synth]="structure trace base"
  [sim]="structure graph models trace base"
  [analysis]="sim structure graph models io trace base"
  [report]="analysis sim structure graph models io trace base"
)
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
