#!/usr/bin/env bash
#===- scripts/test.sh - Set up, build and run every test suite -----------===#
#
# Sets up and builds (setup.sh), then runs, in order:
#   - the lit suite: FileCheck, CPU execution with mlir-runner of the
#     original and the transformed IR, the plugin with Debian's mlir-opt,
#     ptxas where the CUDA toolkit is, the bad-input contract;
#   - the GoogleTest suite, through ctest;
#   - the Python tests (pytest with Debian's python3 and NumPy);
#   - a bounded batch of differential fuzzing (fuzz/loopnest_fuzz.py,
#     THREADBIND_FUZZ_CASES cases, default 60), and of option fuzzing over
#     the test programs (fuzz/option_fuzz.py, THREADBIND_OPTION_FUZZ_TRIALS
#     trials, default 60);
#   - with THREADBIND_TEST_SANITIZERS=1, the lit and unit suites again in a
#     build under ASan and UBSan (test-sanitizers.sh).
# Prints each summary and one combined line, and exits non-zero if anything
# failed.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

status=0
lit_log=$(mktemp)
ctest_log=$(mktemp)
trap 'rm -f "$lit_log" "$ctest_log"' EXIT

echo "==> lit suite"
"$LLVM_PREFIX/bin/lit" -sv "$THREADBIND_BUILD_DIR/test" 2>&1 | tee "$lit_log" ||
  status=1

echo "==> unit tests (ctest)"
ctest --test-dir "$THREADBIND_BUILD_DIR" --output-on-failure -j "$(nproc)" \
  2>&1 | tee "$ctest_log" || status=1

echo "==> python tests (pytest, Debian's python3)"
pytest_log=$(mktemp)
trap 'rm -f "$lit_log" "$ctest_log" "$pytest_log"' EXIT
PATH="$PATH:/usr/local/cuda/bin" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
  "$THREADBIND_ROOT/python/tests" 2>&1 | tee "$pytest_log" || status=1
pytest_count() { # pytest_count WORD: "N WORD" in pytest's summary, or 0
  grep -oE "[0-9]+ $1" "$pytest_log" | tail -n 1 | grep -oE '^[0-9]+' || echo 0
}
py_passed=$(pytest_count passed)
py_failed=$(( $(pytest_count failed) + $(pytest_count error) ))
py_skipped=$(pytest_count skipped)

echo "==> differential fuzzing, a bounded batch (fuzz/loopnest_fuzz.py)"
fuzz_cases=${THREADBIND_FUZZ_CASES:-60}
if /usr/bin/python3 "$THREADBIND_ROOT/fuzz/loopnest_fuzz.py" \
    --cases "$fuzz_cases" --seed 1 --jobs "$(nproc)"; then
  fuzz_failed=0
else
  fuzz_failed=1
  status=1
fi

echo "==> option fuzzing over the test programs (fuzz/option_fuzz.py)"
option_trials=${THREADBIND_OPTION_FUZZ_TRIALS:-60}
if /usr/bin/python3 "$THREADBIND_ROOT/fuzz/option_fuzz.py" \
    --trials "$option_trials" --seed 1 --jobs "$(nproc)"; then
  option_fuzz_failed=0
else
  option_fuzz_failed=1
  status=1
fi

# The same suites under ASan and UBSan, in their own build tree (about 20
# minutes on two cores): CI asks for it with THREADBIND_TEST_SANITIZERS=1.
sanitizers_failed=0
sanitizers_ran=0
if [[ ${THREADBIND_TEST_SANITIZERS:-0} == 1 ]]; then
  echo "==> the suites under sanitizers (scripts/test-sanitizers.sh)"
  sanitizers_ran=1
  bash "$THREADBIND_ROOT/scripts/test-sanitizers.sh" || {
    sanitizers_failed=1
    status=1
  }
fi

count() { # count FILE REGEX: the number after the first match, or 0
  sed -n -E "s/$2/\1/p" "$1" | head -n 1 | grep . || echo 0
}
lit_passed=$(count "$lit_log" '^ *Passed *: *([0-9]+).*')
lit_failed=$(count "$lit_log" '^ *Failed *: *([0-9]+).*')
lit_skipped=$(count "$lit_log" '^ *Unsupported *: *([0-9]+).*')
ctest_total=$(count "$ctest_log" '.*tests failed out of ([0-9]+).*')
ctest_failed=$(count "$ctest_log" '.* ([0-9]+) tests failed out of.*')
if ((lit_passed + ctest_total == 0)); then
  echo "no test ran" >&2
  status=1
fi
passed=$((lit_passed + ctest_total - ctest_failed + py_passed + 1 - fuzz_failed +
  1 - option_fuzz_failed + sanitizers_ran - sanitizers_failed))
failed=$((lit_failed + ctest_failed + py_failed + fuzz_failed +
  option_fuzz_failed + sanitizers_failed))
echo
echo "lit: $lit_passed passed, $lit_failed failed, $lit_skipped unsupported"
echo "unit: $((ctest_total - ctest_failed)) passed, $ctest_failed failed"
echo "python: $py_passed passed, $py_failed failed, $py_skipped skipped"
echo "fuzz: $fuzz_cases cases, $([[ $fuzz_failed == 0 ]] && echo "all matched" || echo "FAILED (fuzz/failures)")"
echo "option fuzz: $option_trials trials, $([[ $option_fuzz_failed == 0 ]] && echo "all matched or refused cleanly" || echo "FAILED (fuzz/failures/options)")"
if ((sanitizers_ran)); then
  echo "sanitizers: $([[ $sanitizers_failed == 0 ]] && echo "lit and unit tests clean" || echo FAILED)"
fi
echo "summary: $passed passed, $failed failed, $((lit_skipped + py_skipped)) skipped"
if ((failed != 0)); then status=1; fi
exit $status
