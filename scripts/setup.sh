#!/usr/bin/env bash
#===- scripts/setup.sh - Install dependencies, configure and build -------===#
#
# Sourced by demo.sh and test.sh. Installs from Debian only the packages that
# are missing, then configures (Ninja when available) and builds with every
# core. Honours THREADBIND_BUILD_DIR (default: build/) and MLIR_DIR.
#
#===----------------------------------------------------------------------===#

set -euo pipefail

THREADBIND_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
THREADBIND_BUILD_DIR=${THREADBIND_BUILD_DIR:-$THREADBIND_ROOT/build}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}

threadbind_packages=(
  cmake ninja-build g++ python3
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libgtest-dev
  python3-numpy python3-pytest python3-jsonschema
)

threadbind_install_missing() {
  local missing=() pkg
  for pkg in "${threadbind_packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
        grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  echo "==> installing: ${missing[*]}"
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

threadbind_build() {
  local generator=()
  if command -v ninja >/dev/null; then generator=(-G Ninja); fi
  if [[ ! -f $THREADBIND_BUILD_DIR/CMakeCache.txt ]]; then
    echo "==> configuring in $THREADBIND_BUILD_DIR"
    cmake "${generator[@]}" -S "$THREADBIND_ROOT" -B "$THREADBIND_BUILD_DIR" \
      -DCMAKE_BUILD_TYPE=Release ${MLIR_DIR:+-DMLIR_DIR=$MLIR_DIR} >/dev/null
  fi
  echo "==> building with $(nproc) jobs"
  cmake --build "$THREADBIND_BUILD_DIR" -j "$(nproc)"
}

threadbind_install_missing
threadbind_build
export PATH="$THREADBIND_BUILD_DIR/bin:$LLVM_PREFIX/bin:$PATH"
