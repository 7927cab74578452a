cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64
nvidia-smi --query-gpu=name --format=csv,noheader
for r in 1 2; do
bin/polybench-bench polybench/polybench.txt --stage polybench --only gemm,gemm-untiled,3mm,3mm-untiled,gemm-1024,gemm-2048 --runs 20 --warmup 3 2>&1 | grep -E "RESULT|FAIL" | sed 's/ min_ms=[^ ]* max_ms=[^ ]*//; s/size=std //'
done
for tool in memcheck racecheck; do
  for s in "512x512x512" "600x37x555" "513x1000x511"; do
    IFS=x read -r m k n <<<"$s"
    compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 5 bin/threadbind-run examples/matmul.so --entry matmul --shape 0=${m}x$k --shape 1=${k}x$n --shape 2=${m}x$n --check > /tmp/o.txt 2>&1 && echo "LABEL $tool-$s ok" || { echo "LABEL $tool-$s FAILED"; tail -5 /tmp/o.txt; }
  done
done
