#!/usr/bin/env bash
# Builds the headless core, sightline-cli and the core + cli tests with AddressSanitizer and
# UndefinedBehaviorSanitizer (the `asan` preset: no GUI, no benchmarks) and runs those tests,
# including the bad-input corpus (tests/cli/test_BadInputCorpus), and replays tests/data/bad and the
# fuzzers' seeds through the fuzz entry points (CTest fuzz_replay_*). Any sanitizer report fails the
# run (UBSan does not recover; ASan aborts). About 10 minutes on 2 cores from scratch, much less
# when build/asan already exists. Called from .ci/run.
#   usage: scripts/ci-sanitizers.sh [extra ctest args, e.g. -R KinetoLoader]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
. scripts/common.sh
sightline_ensure_packages

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:strict_string_checks=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

jobs="${SIGHTLINE_JOBS:-$(nproc)}"
# -Wno-maybe-uninitialized: GCC 12 with -fsanitize=address at -O1/-O2 warns falsely inside <regex>
# (std::function in _State). -O1 -g1: what ASan recommends, and much quicker to build than -O2 -g.
# shellcheck disable=SC2046
cmake --preset asan $(sightline_launcher_args asan) -DCMAKE_CXX_FLAGS="-Wno-maybe-uninitialized" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >/dev/null
# The grouped test programs of the core and the command line (tests/CMakeLists.txt).
# test_PortableBinary runs the CLI under qemu-x86_64 with a pre-AVX CPU model. It checks the shipped
# (unsanitized) binary, which ./test.sh already does; qemu-user cannot map ASan's shadow memory, so an
# ASan build always fails there. It is left out of this stage only (and builds alone, so not here).
targets=(sightline-cli core_tests cli_tests)
portable_test=cli_test_PortableBinary
# The fuzz entry points with a plain replay main() (tests/CMakeLists.txt): every file of
# tests/data/bad and of tests/fuzz/corpus/<target> goes through each once, under both sanitizers.
for t in tests/fuzz/fuzz_*.cpp; do
  targets+=("fuzz_replay_$(basename "$t" .cpp)")
done
cmake --build build/asan --parallel "$jobs" --target "${targets[@]}"
ctest --test-dir build/asan --output-on-failure --parallel "$jobs" --timeout 900 -R '^(core|cli|fuzz_replay)_' \
  -E "^${portable_test}\$" "$@"
