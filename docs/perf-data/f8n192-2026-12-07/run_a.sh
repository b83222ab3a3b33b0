#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-eighth stop): f8 e4m3 tiles of N = 192
# (cases.py F8N192, nN: 128 x 192 with two compute warpgroups, promoted
# partial sums) beside the default tile and the f8 family: checked on the
# full shape list, then dueled against cuBLASLt. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh f8n192
#   tar cJf artifacts/pack/f8n192.tar.xz -C artifacts f8n192
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/f8n192-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin f8n192
H="python3 -m gemm_mlir.harness"
A=artifacts/f8n192
K=g_f8_tn_none,g_f8_tn_none_n0,g_f8_tn_none_n1,g_f8_tn_none_n2,g_f8_tn_none_n3,g_f8_tn_none_n4,g_f8_tn_none_n5,g_f8_tn_none_n8
d() { local l=$1 s=$2 k=$3; step 60 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
d tn 4096x4096x4096 $K
d tn 8192x8192x8192 $K
cut -c1-130 $O/r/duel.txt | grep -v "^duel"
step 120 check $H check $A --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -8
: > $O/r/duel2.txt
for s in 4096x14336x4096 6144x6144x6144 2048x2048x8192; do step 60 "duel tn $s" $H duel $A --kernels $K --layout tn --shape $s --reps 20 --warm-s 1 --out $O/r/d2-$s.json >> $O/r/duel2.txt 2>&1; done
cut -c1-130 $O/r/duel2.txt | grep -v "^duel"
gpu_end
