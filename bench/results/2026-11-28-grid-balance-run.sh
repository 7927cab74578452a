#!/usr/bin/env bash
# Grid-stride grids with the last two dimensions balanced (939b1a9) against
# the greedy split before it (bd25629): five 3-D stencils compiled by both
# compilers, checked at a ragged size, and timed (threadbind-run --bench,
# kernel time median) at 320^3, 384^3 and 448^3, where the greedy grid
# left part of the device idle, and at 256^3, where both give 4x64x4; two
# rounds, old and new interleaved. Then planes3d.cu (the same stencils in
# CUDA on the greedy and the balanced grid, beside covering grids) and the
# PolyBench suite; and the runtime's kernel lookup before and after being
# remembered, on the launch-bound PolyBench benchmarks.
#
#   OLD=/path/to/old/threadbind-compile \
#     bash bench/results/2026-11-28-grid-balance-run.sh stage   # here
#   bash .device/check/scripts/grid-balance-run.sh run    # GPU: all but the suite
#   bash .device/check/scripts/grid-balance-run.sh suite  # GPU: the suite
set -euo pipefail
PROGRAMS=(
  "conv3d bench/polybench/conv3d.mlir conv3d"
  "heat3d test/Integration/Programs/heat-3d.mlir kernel"
  "box27 bench/blockshape/box27.mlir box27"
  "box27s bench/blockshape/box27s.mlir box27s"
  "grad3d bench/blockshape/grad3d.mlir grad3d"
)
if [[ ${1:-} == stage ]]; then
  source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"
  OUT=$THREADBIND_ROOT/.device/check/shapes
  mkdir -p "$OUT" "$THREADBIND_ROOT/.device/check/scripts"
  cp "${BASH_SOURCE[0]}" "$THREADBIND_ROOT/.device/check/scripts/grid-balance-run.sh"
  for p in "${PROGRAMS[@]}"; do
    read -r name file entry <<<"$p"
    threadbind-compile "$THREADBIND_ROOT/$file" --emit bundle -o "$OUT/$name-new.so"
    "$OLD" "$THREADBIND_ROOT/$file" --emit bundle -o "$OUT/$name-old.so"
  done
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o "$THREADBIND_ROOT/.device/check/bin/planes3d" \
    "$THREADBIND_ROOT/bench/blockshape/planes3d.cu"
  exit 0
fi
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LD_LIBRARY_PATH=$STAGE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=$STAGE/bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
suite() {
  echo "=== polybench suite"
  timeout 300 "$STAGE/bin/polybench-bench" "$STAGE/polybench/polybench.txt" \
    --stage "$STAGE/polybench" --runs 10 --warmup 2 2>&1 |
    grep -E "^RESULT|FAIL|speedup|\|" | head -150
}
if [[ ${1:-} == suite ]]; then suite; exit 0; fi
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
for p in "${PROGRAMS[@]}"; do
  read -r name file entry <<<"$p"
  for side in old new; do
    for size in 37x45x131 5x300x7 130x3x70; do
      if "$RUN" "$STAGE/shapes/$name-$side.so" --entry "$entry" \
          --shape 0=$size --shape 1=$size $(extra "$name" 3) \
          --check --rtol 1e-4 --atol 1e-4 >/dev/null 2>&1; then
        echo "CHECK $name $side $size ok"
      else
        echo "CHECK $name $side $size FAILED"
      fi
    done
  done
done
for round in 1 2; do
  for size in 320x320x320 384x384x384 448x448x448 256x256x256; do
    for p in "${PROGRAMS[@]}"; do
      read -r name file entry <<<"$p"
      for side in old new; do
        out=$("$RUN" "$STAGE/shapes/$name-$side.so" --entry "$entry" \
          --shape 0=$size --shape 1=$size $(extra "$name") --bench 20 2>&1)
        t=$(sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p' <<<"$out")
        echo "TIME round=$round size=$size $name $side ${t:-?}"
      done
    done
  done
done
echo "=== planes3d"
"$STAGE/bin/planes3d" 320 384 448 256
# Kernel time alone, by ncu (its clocks fixed), with what it moved: is
# ThreadBind's conv3d kernel slower than CUDA's on the same grid?
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
if [[ ${WITH_NCU:-1} == 1 ]]; then
echo "=== ncu threadbind conv3d 256"
"$NCU" --metrics $M -k regex:conv3d_kernel --launch-count 2 "$RUN" \
  "$STAGE/shapes/conv3d-new.so" --entry conv3d --shape 0=256x256x256 \
  --shape 1=256x256x256 --bench 2 2>&1 | grep -E "conv3d_kernel|^ +[a-z_]+__|launch__" | head -40
for k in cover cyclic; do
  # The first launch of each is conv3d's, 32x8 cover and 64x4 greedy cyclic.
  echo "=== ncu planes3d 256 $k"
  "$NCU" --metrics $M -k regex:$k --launch-count 1 "$STAGE/bin/planes3d" 256 \
    2>&1 | grep -E "$k|^ +[a-z_]+__|launch__" | head -20
done
fi
# The runtime before (lib-old: a driver lookup of the kernel on every
# launch) and after (lib: remembered) under the launch-bound benchmarks,
# where a stage put a lib-old beside lib (run a only; no difference, so
# the change was dropped).
for round in 1 2 3; do
  [[ -d $STAGE/lib-old ]] || break
  for rt in lib-old lib; do
    echo "=== runtime $rt round $round"
    LD_LIBRARY_PATH=$STAGE/$rt "$STAGE/bin/polybench-bench" \
      "$STAGE/polybench/polybench.txt" --stage "$STAGE/polybench" --runs 30 \
      --warmup 3 --only jacobi-2d,fdtd-2d,conv2d,conv3d 2>&1 | grep -E "^RESULT|FAIL"
  done
done
[[ ${1:-} == run ]] && exit 0
suite
