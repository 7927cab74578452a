#!/usr/bin/env bash
# Stencils widened in cover launches against bench/stencil-widen/probe.cu's
# kernels (the same widening by hand, without the alignment test), under
# ncu, 2026-11-29: one launch each at the PolyBench sizes.
STAGE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$STAGE"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__grid_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
ncu --metrics $M --launch-count 3 bin/threadbind-run widen/jacobi2d-new.so --entry jacobi_2d \
  --scalar 0=2 --shape 1=1000x1000 --shape 2=1000x1000 2>&1 | grep -E "jacobi_2d_kernel|gpu__|smsp__|launch__|sm__|dram__|l1tex__"
ncu --metrics $M --launch-count 1 bin/threadbind-run widen/conv3d-new.so --entry conv3d \
  --shape 0=256x256x256 --shape 1=256x256x256 2>&1 | grep -E "conv3d_kernel|gpu__|smsp__|launch__|sm__|dram__|l1tex__"
nvcc -O3 -arch=sm_90 -o /tmp/probe widen/probe.cu
ncu --metrics $M --kernel-name regex:"jacobiTwin|jacobiWide|conv3dTwin|conv3dWide" --launch-count 12 /tmp/probe 2>&1 | grep -E "jacobi|conv3d|gpu__|smsp__|launch__|sm__|dram__|l1tex__" | grep -v "max rel"
