#!/usr/bin/env bash
# The 32 programs of test/Integration/NewUsers as bundles (threadbind-compile
# --emit bundle at a962257, which leaves functions that print out of a
# bundle instead of refusing it): every entry that runs on the CPU at
# generic sizes (newusers/runnable.txt: those whose reference ran with
# --size 37,29,13,5), checked against the CPU reference at three sizes, and
# under compute-sanitizer memcheck at one.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
RUN=bin/threadbind-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
date -u
while read -r so entry; do
  for size in 37,29,13,5 1,1,1,1 65,33,17,3; do
    if out=$(timeout 120 $RUN newusers/$so --entry "$entry" --size $size --check 2>&1); then
      echo "CHECK $so $entry $size ok"
    else
      echo "CHECK $so $entry $size FAILED: $(tail -2 <<<"$out" | tr '\n' ' ')"
    fi
  done
  if out=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $RUN newusers/$so --entry "$entry" --size 37,29,13,5 --check 2>&1); then
    echo "MEMCHECK $so $entry ok"
  else
    echo "MEMCHECK $so $entry FAILED: $(grep -m2 -E 'Invalid|error' <<<"$out" | tr '\n' ' ')"
  fi
done < newusers/runnable.txt
