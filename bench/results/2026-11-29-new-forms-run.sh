#!/usr/bin/env bash
# The new-user forms of 2026-11-29 on the GPU machine, from a stage of
# scripts/stage-gpu.sh with the bundles of test/Integration/NewUsers/
# {complex-arithmetic,c-math-library-calls,front-end-forms}.mlir in
# <stage>/newforms (this file copied to <stage>/newforms/run.sh): each entry
# checked against its CPU reference at a few sizes, called as usual and on
# the caller's stream, and once under compute-sanitizer memcheck.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE" || exit 1
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
N=newforms
check() { # check LABEL ARGS...
  local label=$1
  shift
  if bin/threadbind-run "$@" --check >"/tmp/$label.log" 2>&1 &&
      bin/threadbind-run "$@" --check --on-stream >>"/tmp/$label.log" 2>&1; then
    echo "CHECK $label ok $(grep -h '^check:' "/tmp/$label.log" | head -1)"
  else
    echo "CHECK $label FAILED"
    tail -5 "/tmp/$label.log"
  fi
}
for n in 1 37 1000 100003; do
  check "phase-$n" $N/complex-arithmetic.so --entry phase --size "$n" --scalar 2=0.75
  check "activations-$n" $N/c-math-library-calls.so --entry activations --shape 0="$n" --shape 1="${n}x14" --rtol 1e-5 --atol 1e-6
  check "doubles-$n" $N/c-math-library-calls.so --entry doubles --size "$n"
  check "axpy4-$n" $N/front-end-forms.so --entry axpy4 --shape 0=$((4 * n)) --shape 1=$((4 * n)) --shape 3="$n"
done
for s in 1x1 33x37 1000x777; do
  check "saxpy-rows-$s" $N/front-end-forms.so --entry saxpy_rows --size "${s/x/,}"
  check "life-$s" $N/front-end-forms.so --entry life --size "${s/x/,}"
done
for n in 1 33 1000; do
  check "transpose-in-place-$n" $N/front-end-forms.so --entry transpose_in_place --size "$n,$n"
  check "both-$n" $N/front-end-forms.so --entry both --size "$n"
done
for n in 2 64 1048576; do
  check "scan-$n" $N/front-end-forms.so --entry scan --size "$n"
done
for args in "complex-arithmetic.so --entry phase --size 1000 --scalar 2=0.75" \
    "c-math-library-calls.so --entry activations --shape 0=1000 --shape 1=1000x14 --rtol 1e-5 --atol 1e-6" \
    "front-end-forms.so --entry life --size 33,37" \
    "front-end-forms.so --entry scan --size 1024"; do
  set -- $args
  if compute-sanitizer --tool memcheck --error-exitcode 9 bin/threadbind-run \
      "$N/$1" "${@:2}" --check >/tmp/memcheck.log 2>&1; then
    echo "MEMCHECK $args ok"
  else
    echo "MEMCHECK $args FAILED"
    tail -8 /tmp/memcheck.log
  fi
done
