#!/usr/bin/env bash
#===- bench/sanitize.sh - compute-sanitizer over every benchmark kernel --===#
#
# Run from a directory made by bench/stage.sh, on a machine with an NVIDIA
# GPU, its driver and compute-sanitizer. Runs the ThreadBind bundle of every
# line of suite.txt (tails, padding and the widened variants included) and
# every entry of the reductions bundle under compute-sanitizer's memcheck
# and racecheck, at sizes that are not multiples of anything (a partial
# warp, a partial block, a partial vector and a grid that loops), each run
# checked against the CPU reference. Prints one line per run,
# "SANITIZE <tool> <label> ok|FAILED", then a count; exits non-zero if any
# run failed or reported an error.
#
#   JOBS=8 bash sanitize.sh [log]
#
#===----------------------------------------------------------------------===#

set -uo pipefail
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LOG=${1:-/dev/stdout}
JOBS=${JOBS:-8}
RUN=$STAGE/bin/threadbind-run
command -v compute-sanitizer >/dev/null || {
  echo "compute-sanitizer not found" >&2
  exit 2
}

# Sizes that are multiples of nothing: a warp and a bit, four blocks and a
# bit (a partial vector), and 100003; 2-D shapes likewise, ragged along
# both dimensions. (Sizes 0 and 1 are covered by gpu-check.sh --tails.)
sizes_1d="37 1029 100003"
sizes_2d="3,37 33,1029 257,259"

jobs_file=$(mktemp)
add() { # add LABEL ARGS...: one threadbind-run, under each tool
  for tool in memcheck racecheck; do
    printf '%s\t%s\t%s\n' "$tool" "$1" "${*:2}" >>"$jobs_file"
  done
}

while read -r name rest; do
  [[ -z $name || $name == \#* ]] && continue
  entry=$(sed -n 's/.*entry=\([^ ]*\).*/\1/p' <<<"$rest")
  first=$(sed -n 's/.*sizes=\([^; ]*\).*/\1/p' <<<"$rest")
  scalars=$(grep -o 'scalar=[0-9]*:[^ ]*' <<<"$rest" |
    sed 's/scalar=\([0-9]*\):/--scalar \1=/' | tr '\n' ' ')
  if [[ $first == *x* ]]; then sizes=$sizes_2d; else sizes=$sizes_1d; fi
  for n in $sizes; do
    shape=()
    # A transpose writes a C x R output for an R x C input.
    [[ $entry == transpose ]] && shape=(--shape "1=${n#*,}x${n%,*}")
    add "$name-$n" "$STAGE/$name-threadbind.so" --entry "$entry" \
      --size "$n" "${shape[@]}" $scalars --check
  done
done <"$STAGE/suite.txt"

# The reductions: every entry of the default build at three sizes; the
# variants (atomic cross-block combine, no unrolling, a block a row) where
# they differ from it.
R=$STAGE/reductions
for bundle in "$R"/*.so; do
  variant=$(basename "$bundle" .so)
  for entry in $("$RUN" "$bundle" --list | sed 's/(.*//'); do
    if [[ $entry == row* ]]; then
      sizes="3,37 33,1029 65,513"
    elif [[ $variant == reductions-block-rows ]]; then
      continue
    elif [[ $variant == reductions ]]; then
      sizes="33 1029 100003"
    else
      sizes="1029 100003"
    fi
    for n in $sizes; do
      add "$variant-$entry-$n" "$bundle" --entry "$entry" --size "$n" --check
    done
  done
done

one() { # one "TOOL<tab>LABEL<tab>ARGS": the verdict, and the output if bad
  local tool label args out
  IFS=$'\t' read -r tool label args <<<"$1"
  # shellcheck disable=SC2086
  if out=$(compute-sanitizer --tool "$tool" --error-exitcode 9 \
    --print-limit 5 "$RUN" $args 2>&1); then
    echo "SANITIZE $tool $label ok"
  else
    echo "SANITIZE $tool $label FAILED"
    echo "$out" | tail -20 | sed 's/^/    /'
  fi
}
export -f one
export RUN

results=$(mktemp)
trap 'rm -f "$jobs_file" "$results"' EXIT
{
  echo "DATE $(date -u +%F)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
    2>/dev/null | sed 's/^/GPU /'
  compute-sanitizer --version | tail -1 | sed 's/^/SANITIZER /'
  xargs -P "$JOBS" -d '\n' -n 1 bash -c 'one "$1"' _ <"$jobs_file"
} 2>&1 | tee "$results" >"$LOG"
runs=$(grep -c '^SANITIZE ' "$results")
failed=$(grep -c '^SANITIZE .* FAILED$' "$results")
summary="sanitize: $runs runs, $failed failed"
echo "$summary"
[[ $LOG == /dev/stdout ]] || echo "$summary" >>"$LOG"
((failed == 0 && runs > 0))
