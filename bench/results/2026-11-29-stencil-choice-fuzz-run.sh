#!/usr/bin/env bash
# The fuzz cases that take the stencil choice under the default options,
# against the CPU reference under memcheck.
cd "$(dirname "${BASH_SOURCE[0]}")"
export LD_LIBRARY_PATH=$PWD/../lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name --format=csv,noheader
while read -r line; do
  [[ -z $line ]] && continue
  eval "set -- $line"
  out=$(compute-sanitizer --tool memcheck --error-exitcode 9 ../bin/threadbind-run "$@" 2>&1)
  echo "FUZZ $1 rc=$? $(grep -c 'Invalid' <<<"$out") invalid $(grep -o 'check: [a-zA-Z]*' <<<"$out" | head -1)"
done < commands.txt
