#!/usr/bin/env bash
#===- scripts/fuzz-libfuzzer.sh - Crash-fuzz the parser and the passes ---===#
#
# Builds fuzz/threadbind-fuzz-passes.cpp with clang-22, libFuzzer and ASan
# in build-fuzz/ (ThreadBind's sources get libFuzzer's coverage), seeds a
# corpus with every MLIR input of the lit suite, and fuzzes for the given
# number of seconds (default 600):
#
#   bash scripts/fuzz-libfuzzer.sh [SECONDS] [extra libFuzzer flags...]
#
# Findings (crashes, sanitizer reports, passes that fail silently or leave
# IR that does not verify) are written to fuzz/failures/libfuzzer/; the
# corpus grows in build-fuzz/corpus/. Installs clang-22 and its libFuzzer
# runtime from Debian when missing.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
SECONDS_TO_RUN=${1:-600}
shift || true
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${THREADBIND_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
LLVM=/usr/lib/llvm-22

# Its own packages only: the ordinary build in build/ is not needed.
missing=()
for pkg in cmake ninja-build clang-22 libclang-rt-22-dev libmlir-22-dev \
  mlir-22-tools llvm-22-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "==> installing: ${missing[*]}"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "==> building the fuzz target in $BUILD"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$LLVM/bin/clang" -DCMAKE_CXX_COMPILER="$LLVM/bin/clang++" \
  -DMLIR_DIR="$LLVM/lib/cmake/mlir" -DTHREADBIND_SANITIZERS=address \
  -DTHREADBIND_LIBFUZZER=ON -DTHREADBIND_BUILD_UNITTESTS=OFF >/dev/null
ninja -C "$BUILD" -j "${JOBS:-2}" threadbind-fuzz-passes

# The seeds: every input of the lit suite, split where -split-input-file
# would split it, each under two option bytes (the defaults, and cover
# launches with 64 threads, atomics, 8-byte vectors and nested widening).
CORPUS=$BUILD/corpus
SEEDS=$BUILD/seeds
rm -rf "$SEEDS"
mkdir -p "$CORPUS" "$SEEDS"
/usr/bin/python3 - "$ROOT/test" "$SEEDS" <<'EOF'
import pathlib, sys
test, seeds = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
count = 0
for path in sorted(test.rglob("*.mlir")):
    for chunk in path.read_text().split("// -----"):
        for choice in (0x00, 0xD3):
            count += 1
            (seeds / f"seed-{count:05d}").write_bytes(
                bytes([choice]) + chunk.encode())
print(f"{count} seeds from {test}")
EOF

FAILURES=$ROOT/fuzz/failures/libfuzzer
mkdir -p "$FAILURES"
echo "==> fuzzing for $SECONDS_TO_RUN s"
ASAN_OPTIONS=detect_leaks=0 "$BUILD/bin/threadbind-fuzz-passes" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=20 -rss_limit_mb=4096 \
  -max_len=16384 -dict="$ROOT/fuzz/mlir.dict" -print_final_stats=1 \
  -artifact_prefix="$FAILURES/" "$@" "$CORPUS" "$SEEDS"
