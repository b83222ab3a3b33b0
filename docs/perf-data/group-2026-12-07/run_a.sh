#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-sixth stop): grouped rasterization of the
# f16 tn default tile (128 x 256, group = 1, 4, 8 (the default), 12, 16,
# 32: gr0-gr5) and of the persistent 128 x 256 tile (group 8, 16: gr6,
# gr7), each shape a duel with the default family and cuBLAS. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh group
#   tar cJf artifacts/pack/group.tar.xz -C artifacts group
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/group-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin group
H="python3 -m gemm_mlir.harness"
A=artifacts/group
step 60 check $H check $A --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt
K=g_f16_tn_none
for i in 0 1 2 3 4 5 6 7; do K=$K,g_f16_tn_none_gr$i; done
for s in 12288x4096x4096 4096x4096x4096 8192x8192x8192 4096x11008x4096 4096x4096x11008 12288x4096x4096 6144x6144x6144 16384x8192x4096; do
  step 60 "tn $s" $H duel $A --kernels $K --layout tn --shape $s --reps 20 --warm-s 2 --out $O/r/d-tn-$s.json >> $O/r/duel.txt 2>&1
done
cut -c1-110 $O/r/duel.txt
gpu_end
