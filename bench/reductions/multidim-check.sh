#!/usr/bin/env bash
# The multi-dimensional reductions on the GPU, each checked against its CPU
# reference under compute-sanitizer memcheck.
# Staged by hand: a folder with bin/threadbind-run, lib/libThreadBindRuntime.so and
# the bundle of the test's kernels (without its CPU driver), then run there.
cd "$(dirname "$0")"
fails=0
for size in 1,1 5,31 7,33 1000,1000 4096,4099 3,1000003; do
  for entry in sum_2d max_2d_strided sum_min_3d row_sums_2d; do
    # In-order f32 sums on the CPU drift from the GPU's tree sums.
    tol=""
    [[ $entry == sum_2d ]] && tol="--rtol 1e-4 --atol 2"
    [[ $entry == row_sums_2d ]] && tol="--rtol 1e-4 --atol 1e-3"
    if compute-sanitizer --tool memcheck --error-exitcode 9 bin/threadbind-run multidim.so --entry $entry --size $size $tol --check > out.txt 2>&1; then
      echo "LABEL $entry-$size ok $(grep '^check' out.txt)"
    else
      echo "LABEL $entry-$size FAILED"; tail -15 out.txt; fails=$((fails+1))
    fi
  done
done
bin/threadbind-run multidim.so --entry sum_2d --size 8192,8192 --rtol 1e-4 --atol 20 --check --bench 20 | grep -E "kernel|check|bench"
bin/threadbind-run multidim.so --entry row_sums_2d --size 8192,2731 --rtol 1e-4 --atol 1e-3 --check --bench 20 | grep -E "kernel|check|bench"
echo "failures=$fails"
