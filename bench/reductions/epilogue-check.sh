#!/usr/bin/env bash
# Reductions whose results feed pure ops (epilogues) and rows that load
# before their reduction, on the GPU: each entry checked against its CPU
# reference under compute-sanitizer memcheck.
# Staged by hand: a folder with bin/threadbind-run, lib/libThreadBindRuntime.so and
# the bundle of the test's kernels (without its CPU driver), then run there.
cd "$(dirname "$0")"
fails=0
check() { # check ENTRY SIZE [threadbind-run options]
  if compute-sanitizer --tool memcheck --error-exitcode 9 bin/threadbind-run ep.so --entry "$1" --size "$2" "${@:3}" --check > out.txt 2>&1; then
    echo "LABEL $1-$2 ok $(grep '^check' out.txt)"
  else
    echo "LABEL $1-$2 FAILED"; tail -15 out.txt; fails=$((fails+1))
  fi
}
for n in 1 33 100003 4194307; do
  check affine_sum $n --rtol 1e-4 --atol 0.1
  check norm $n
  check mean_and_range $n --rtol 1e-4 --atol 1e-3
done
for shape in 1,1 5,31 1000,1000 4096,4099 65536,512; do
  check row_stats $shape --rtol 1e-4 --atol 1e-3
  check row_centered $shape --rtol 1e-4 --atol 1e-2
done
bin/threadbind-run ep.so --entry row_centered --size 8192,8192 --rtol 1e-4 --atol 1e-2 --check --bench 20 | grep -E "kernel|check|bench"
bin/threadbind-run ep.so --entry affine_sum --size 268435456 --rtol 1e-4 --atol 20 --check --bench 20 | grep -E "kernel|check|bench"
echo "failures=$fails"
