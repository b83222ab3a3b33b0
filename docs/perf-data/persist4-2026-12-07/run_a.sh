#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-sixth stop): the persistent 128 x 256 tile
# with four stages (cases.py PERSIST4, p4N; group-2026-12-07's gr6, which
# beat the default family on all seven f16 tn shapes of 512-4096 tiles
# there) beside the default families: every layout, bf16, fused
# epilogues, C read, batched; checked on the full shape list, then duels
# on the grids the family's default member takes. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh persist4
#   tar cJf artifacts/pack/persist4.tar.xz -C artifacts persist4
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/persist4-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin persist4
H="python3 -m gemm_mlir.harness"
A=artifacts/persist4
step 150 check $H check $A --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -5
d() { local l=$1 s=$2 k=$3; step 30 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
for s in 3072x3072x4096 2048x8192x4096 8192x8192x1024 4099x4097x4095 5000x5000x3000 12288x4096x4096; do d tn $s g_f16_tn_none,g_f16_tn_none_p40; done
for s in 4096x4096x4096 12288x4096x4096 3072x3072x4096; do d nn $s g_f16_nn_none,g_f16_nn_none_p41; done
d nt 4096x4096x4096 g_f16_nt_none,g_f16_nt_none_p42
d tt 4096x4096x4096 g_f16_tt_none,g_f16_tt_none_p43
for s in 4096x4096x4096 12288x4096x4096; do d tn $s g_bf16_tn_none,g_bf16_tn_none_p44; done
cut -c1-110 $O/r/duel.txt | grep -v "^duel"
step 60 fused-randn $H fused $A --out $O/r/fused-randn.json > $O/r/fused-randn.txt 2>&1; cut -c1-170 $O/r/fused-randn.txt
step 60 fused-unit $H fused $A --inputs unit --out $O/r/fused-unit.json > $O/r/fused-unit.txt 2>&1; cut -c1-170 $O/r/fused-unit.txt
gpu_end
