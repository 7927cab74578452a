#!/usr/bin/env bash
#===- scripts/test-sanitizers.sh - The test suite under ASan and UBSan ---===#
#
# Builds ThreadBind with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-sanitizers/ (THREADBIND_SANITIZERS chooses others) and runs the lit
# suite and the unit tests with it: every pass, the drivers, the runtime
# and the emulation run instrumented, and any report fails the run. The
# Python tests are left out: CPython is not instrumented, so it cannot load
# instrumented libraries.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
# Packages, and the ordinary build (for nothing but its presence).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
BUILD=${THREADBIND_SANITIZER_BUILD_DIR:-$THREADBIND_ROOT/build-sanitizers}
SANITIZERS=${THREADBIND_SANITIZERS:-address,undefined}
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
echo "==> configuring $BUILD with -fsanitize=$SANITIZERS"
cmake "${generator[@]}" -S "$THREADBIND_ROOT" -B "$BUILD" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTHREADBIND_SANITIZERS="$SANITIZERS" \
  ${MLIR_DIR:+-DMLIR_DIR=$MLIR_DIR} >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
echo "==> lit suite, sanitized"
"$LLVM_PREFIX/bin/lit" -sv "$BUILD/test" || status=1
echo "==> unit tests, sanitized"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)" || status=1
exit $status
