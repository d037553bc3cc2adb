# Shared by run.sh and test.sh: install missing Debian packages, then configure and build.
# shellcheck shell=bash

SIGHTLINE_PACKAGES=(
  cmake ninja-build g++ pkg-config
  libsimdjson-dev nlohmann-json3-dev zlib1g-dev libbenchmark-dev
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl-dev qt6-qpa-plugins
  xvfb xauth
  libprotobuf-dev protobuf-compiler python3-protobuf
  libsqlite3-dev
  qemu-user
  clang-format
  # The Python module (python/, docs/Python.md): pybind11 and the interpreter's headers to build it,
  # and what its tests, Dask summaries and notebook import, all for Debian's /usr/bin/python3.
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest python3-distributed
  jupyter-nbconvert python3-ipykernel python3-matplotlib
)

sightline_ensure_packages() {
  local missing=()
  for p in "${SIGHTLINE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing Debian packages: ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The grouped test programs use precompiled headers, which ccache caches only with this sloppiness
# (docs/Testing.md, "Test programs and CTest"); exported for every build the scripts start.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"

# The compiler cache, when the machine has one (not installed by us: a first build gains nothing
# from it, a second one much). Said once per configure so a newcomer knows why a rebuild is quick.
sightline_launcher_args() {
  if command -v ccache >/dev/null 2>&1; then
    echo "Using ccache ($(command -v ccache)) for build/$1" >&2
    echo "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
  fi
}

# sightline_build PRESET: configure once, then an incremental build (fast when nothing changed).
sightline_build() {
  local preset="$1"
  if [ ! -f "build/$preset/build.ninja" ]; then
    # shellcheck disable=SC2046
    cmake --preset "$preset" $(sightline_launcher_args "$preset") >/dev/null
  fi
  cmake --build --preset "$preset"
}
