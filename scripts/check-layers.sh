#!/usr/bin/env bash
# Fails when a file of the core includes a layer it may not (docs/ARCHITECTURE.md, "Layers"): the
# core's folders include only downwards, and nothing in core/ includes Qt or the GUI; the same for
# the GUI's role folders, whose lowest, ui/model, includes no widgets. Run by .ci/run;
# prints every forbidden include as file:line: include (layer -> layer).
set -euo pipefail
cd "$(dirname "$0")/.."

# core/<layer> may include the layers its sightline_layer(<layer> BELOW ...) line in
# core/CMakeLists.txt names (besides itself): the build and this check read one list.
# read_layers ARRAY FUNCTION FILE: ARRAY[name]="the names below it", from FILE's FUNCTION(name BELOW ...) lines.
read_layers() {
  local -n into=$1
  local name below
  while read -r name below; do
    into[$name]="$below"
  done < <(sed -nE "s/^$2\\(([a-z]+)( BELOW ([a-z ]+))?\\)\$/\\1 \\3/p" "$3")
  if [ "${#into[@]}" -lt 2 ]; then
    echo "check-layers: no $2() lines found in $3"
    exit 1
  fi
}
declare -A allowed=()
read_layers allowed sightline_layer core/CMakeLists.txt
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

# The GUI's role folders (ui/CMakeLists.txt, sightline_ui_role lines) include only the roles below
# them, by bare header name; the files in ui/ itself are the top and may include every role.
declare -A uiAllowed=() roleOf=()
read_layers uiAllowed sightline_ui_role ui/CMakeLists.txt
for role in "${!uiAllowed[@]}"; do
  for header in ui/"$role"/*.h; do roleOf[$(basename "$header")]=$role; done
done
for header in ui/*.h; do roleOf[$(basename "$header")]=top; done
for role in "${!uiAllowed[@]}"; do
  while IFS= read -r hit; do
    file="${hit%%:*}"
    rest="${hit#*:}"
    line="${rest%%:*}"
    name="$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$rest")"
    target="${roleOf[$name]-}"
    [ -n "$target" ] && [ "$target" != "$role" ] || continue
    case " ${uiAllowed[$role]} " in *" $target "*) continue ;; esac
    report "$file:$line" "\"$name\"" "ui/$role" "ui/$target"
  done < <(grep -rnE '^#include "[A-Za-z]+\.h"' "ui/$role" --include='*.h' --include='*.cpp' || true)
done
# The model is widget-free: Qt Core and Gui only.
if grep -rnE '^#include <(QtWidgets/|QtCharts/|QtSvg/)?Q(Widget|Abstract(Button|ScrollArea|Slider|SpinBox|ItemView)|Application|MainWindow|Dialog|Dock|Label|Layout|[HV]BoxLayout|GridLayout|FormLayout|PushButton|ToolButton|Menu|MenuBar|ToolBar|StatusBar|LineEdit|ComboBox|CheckBox|SpinBox|Table(View|Widget)|Tree(View|Widget)|HeaderView|ScrollBar|Splitter|Tab(Widget|Bar)|MessageBox|FileDialog|ToolTip|Chart|Svg)' ui/model --include='*.h' --include='*.cpp'; then
  echo "ui/model includes widgets (above): it is the GUI's widget-free library"
  bad=1
fi

# The checks above read `#include "layer/X.h"` at the start of a line: an include that hides from
# them (a relative path such as "../sim/X.h", or one indented or spaced as "  #include" and
# "# include") would leave its layer unseen, so none is allowed in core/, ui/ or app/.
if grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]*\.\./' core ui app python --include='*.h' --include='*.cpp'; then
  echo "relative includes (above): include a header by its layer's path (\"sim/X.h\") or its bare name in ui/"
  bad=1
fi
if grep -rnE '^([[:space:]]+#[[:space:]]*|#[[:space:]]+)include' core ui app python --include='*.h' --include='*.cpp'; then
  echo "indented includes (above): write #include at the start of the line, where the layer check reads it"
  bad=1
fi

# Nothing in core/ includes Qt or the GUI.
if grep -rnE '^#include <Q|^#include "(ui|app)/' core --include='*.h' --include='*.cpp'; then
  echo "core/ includes Qt or the GUI (above)"
  bad=1
fi
# The Python module (python/) sits on the core beside app/: no Qt, no GUI, no CLI code (what the
# CLI and Python share lives in core/report).
if grep -rnE '^#include <Q|^#include "(ui|app|cli)/|^#include "(CliCommon|SimSetup)\.h"' python --include='*.h' --include='*.cpp'; then
  echo "python/ includes Qt, the GUI or the CLI (above): share code through core/"
  bad=1
fi
exit $bad
