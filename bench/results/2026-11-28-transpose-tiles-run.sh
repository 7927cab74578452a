#!/usr/bin/env bash
# f32 transposes whose rows are off 8 bytes: the 128x32 tiles (this
# change) against the 32x32 ones (the bundle before it, old/), checked at
# ragged sizes and under racecheck and memcheck, timed in interleaved
# rounds; Triton through compare_triton.py with CUPTI's clock; then the
# examples and the corpus.
#   stage: scripts/stage-gpu.sh, then copy the old bench/triton bundle to
#   .device/check/old/old-kernels.so (with its manifest) and this script
#   into scripts/.
#   run:   bash .device/check/scripts/transpose-tiles-run.sh
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=bin/threadbind-run
NEW=triton/kernels.so OLD=old/old-kernels.so
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
for s in 100x66 66x100 98x34 2x2 777x1000 33x31 64x130 1x1 129x257 257x129 8191x40 40x8191 1000x1; do
  a=${s%x*} b=${s#*x}
  out=$($R $NEW --entry transpose --shape 0=${a}x${b} --shape 1=${b}x${a} --check 2>&1)
  echo "$out" | grep -q "check: ok" && echo "CHECK $s ok" || { echo "CHECK $s FAIL"; echo "$out" | tail -3; }
done
for tool in racecheck memcheck; do
  for s in 98x34 257x129 33x31; do
    a=${s%x*} b=${s#*x}
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $R $NEW --entry transpose --shape 0=${a}x${b} --shape 1=${b}x${a} --check 2>&1 |
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|check:" | sed "s/^/SAN $tool $s /"
  done
done
for round in 1 2 3; do
  for s in 8191x8191 12289x12289 8191x8192 8192x8191 4097x4097 2049x8191 8192x8192; do
    a=${s%x*} b=${s#*x}
    for side in old new; do
      bundle=$NEW; [[ $side == old ]] && bundle=$OLD
      t=$($R $bundle --entry transpose --shape 0=${a}x${b} --shape 1=${b}x${a} --bench 50 2>&1 |
        sed -n 's/.*kernel time median \([0-9.]*\) ms.*/\1/p')
      echo "TIME round=$round $s $side ${t:-?}"
    done
  done
done
echo "=== triton"
timeout 300 python3 triton/compare_triton.py --bundle $NEW --cupti 2>&1 | grep -E "config|^\||RESULT|FAIL|wrong" | grep -v "RESULT.*torch"
echo "=== corpus"
timeout 420 bash scripts/gpu-check.sh --corpus > /tmp/corpus.log 2>&1
echo "corpus rc=$?"
grep -E "^LABEL|^(PASS|FAIL|SUMMARY)|passed|failed" /tmp/corpus.log | grep -v " ok$" | tail -20
grep -c "^LABEL .* ok$" /tmp/corpus.log
[ -n "$OUT" ] && cp /tmp/corpus.log "$OUT/corpus.log"
