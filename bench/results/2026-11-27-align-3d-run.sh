#!/usr/bin/env bash
# Stencils from 1 in grid-stride loops: each thread's start moved before
# the loop (this change) against the test inside the loop (2-D) or the
# unaligned bounds (3-D), before it. PolyBench stencils through
# polybench-bench (the old bundles in polybench-old/), four 3-D stencils
# through threadbind-run, checked against the CPU reference at a ragged
# size, then timed in alternating rounds.
#
#   bash bench/results/2026-11-27-align-3d-run.sh stage-old|stage-new  # here
#   bash .device/check/scripts/align-3d-run.sh run                     # GPU
set -euo pipefail
PROGRAMS=(
  "conv3d bench/polybench/conv3d.mlir conv3d"
  "heat3d test/Integration/Programs/heat-3d.mlir kernel"
  "box27 bench/blockshape/box27.mlir box27"
  "grad3d bench/blockshape/grad3d.mlir grad3d"
)
POLY=(conv3d conv2d jacobi-2d fdtd-2d)
if [[ ${1:-} == stage-* ]]; then
  tag=${1#stage-}
  source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"
  CHECK=$THREADBIND_ROOT/.device/check
  mkdir -p "$CHECK/align3d" "$CHECK/scripts"
  cp "${BASH_SOURCE[0]}" "$CHECK/scripts/align-3d-run.sh"
  for p in "${PROGRAMS[@]}"; do
    read -r name file entry <<<"$p"
    threadbind-compile "$THREADBIND_ROOT/$file" --emit bundle \
      -o "$CHECK/align3d/$name-$tag.so"
  done
  # The old compiler's PolyBench bundles in polybench-old/, the new one's
  # over those scripts/stage-gpu.sh left in polybench/.
  dir=$CHECK/polybench-old
  [[ $tag == new ]] && dir=$CHECK/polybench
  mkdir -p "$dir"
  cp "$THREADBIND_ROOT/bench/polybench/polybench.txt" "$dir/"
  for b in "${POLY[@]}"; do
    threadbind-compile "$THREADBIND_ROOT/bench/polybench/$b.mlir" \
      --emit bundle -o "$dir/$b.so"
  done
  exit 0
fi
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LD_LIBRARY_PATH=$STAGE/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=$STAGE/bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
extra() { [[ $1 == heat3d ]] && echo "--scalar 2=${2:-10}"; true; }
for p in "${PROGRAMS[@]}"; do
  read -r name file entry <<<"$p"
  for tag in old new; do
    for size in 37x45x131 3x5x33 1x1x1; do
      if "$RUN" "$STAGE/align3d/$name-$tag.so" --entry "$entry" \
          --shape 0=$size --shape 1=$size $(extra "$name" 3) \
          --check --rtol 1e-4 --atol 1e-4 >/dev/null 2>&1; then
        echo "CHECK $name $tag $size ok"
      else
        echo "CHECK $name $tag $size FAILED"
      fi
    done
  done
done
for name in conv3d heat3d; do
  entry=conv3d; [[ $name == heat3d ]] && entry=kernel
  for size in 37x45x131 3x5x33; do
    echo "MEMCHECK $name new $size: $(compute-sanitizer --tool memcheck \
      "$RUN" "$STAGE/align3d/$name-new.so" --entry $entry --shape 0=$size \
      --shape 1=$size $(extra "$name" 2) --check --rtol 1e-4 --atol 1e-4 2>&1 |
      grep -E "ERROR SUMMARY|^check" | tr '\n' ' ')"
  done
done
for round in 1 2 3; do
  for p in "${PROGRAMS[@]}"; do
    read -r name file entry <<<"$p"
    for tag in old new; do
      for size in 256x256x256 255x255x255; do
        t=$("$RUN" "$STAGE/align3d/$name-$tag.so" --entry "$entry" \
          --shape 0=$size --shape 1=$size $(extra "$name") --bench 20 \
          2>&1 | sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p')
        echo "TIME round=$round size=$size $name $tag ${t:-?}"
      done
    done
  done
  only=$(IFS=,; echo "${POLY[*]}")
  for dir in polybench-old polybench; do
    "$STAGE/bin/polybench-bench" "$STAGE/$dir/polybench.txt" --stage "$STAGE/$dir" \
      --only "$only" --runs 30 --warmup 3 2>&1 | sed "s/^/$dir r$round /" || true
  done
done
