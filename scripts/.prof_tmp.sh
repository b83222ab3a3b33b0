#!/bin/bash
OUT=${OUT:-/tmp/out}
for k in g_f16_nn_none g_f16_tn_none; do
  ptxas -arch=sm_90a artifacts/wgmma/$k/*.ptx -o artifacts/wgmma/$k/gemm_kernels.sm_90a.cubin
  timeout 200 ncu --clock-control none --kernel-name regex:"^${k}_gemm" --launch-skip 2 --launch-count 1 \
    --section SourceCounters -o /tmp/rep_$k -f \
    python3 python/gemm_mlir/harness.py bench artifacts/wgmma --only $k --shape 4096x4096x4096 --reps 3 > /dev/null 2>&1
  ncu -i /tmp/rep_$k.ncu-rep --page source --csv --print-source sass > /tmp/src_$k.csv 2>&1
  gzip -c /tmp/src_$k.csv > $OUT/src_$k.csv.gz
done
