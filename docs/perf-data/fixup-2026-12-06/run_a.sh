#!/usr/bin/env bash
# GPU run 1 (2026-12-06, thirty-third stop): `reduction = fixup` (the last
# partial wave's tiles split in K, reduced by the slice that finishes last)
# checked on every shape of the full list (ragged, M = 1, K = 1, batched,
# fused epilogues, f16 / bf16 / f8 / i8) and dueled against the defaults
# and cuBLAS on shapes with a partial last wave and on whole waves. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh fixup
#   tar cJf artifacts/pack/fixup.tar.xz -C artifacts fixup
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/fixup-2026-12-06/run_a.sh
# If the fixup kernels pass and gain on partial last waves without losing
# on whole ones, `git apply tail-fixup.patch` (this folder; also the branch
# `tail-fixup`) adds the tail-fixup member to the sm_90a families (the
# default's tile with split_k = 4 past one wave, before the default; a
# static shape takes it only where its split happens), with its unit and
# lit tests and dispatch.md's tables (full lit suite passed on it,
# 2026-12-07).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin fixup
H="python3 -m gemm_mlir.harness"
A=artifacts/fixup
step 200 check $H check $A --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; grep -c "^ok" $O/r/check.txt; grep -v "^ok" $O/r/check.txt | cut -c1-200 | head -20
d() { local l=$1 s=$2 k=$3; step 40 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
T=g_f16_tn_none
d tn 4099x4097x4095 $T,${T}_fx0,${T}_fx7,${T}_fx10,${T}_fx11
d nn 4099x4097x4095 g_f16_nn_none,g_f16_nn_none_fx1
d tn 4096x4096x4096 $T,${T}_fx0
d tn 8192x8192x8192 $T,${T}_fx0
d tn 2200x4100x1000 $T,${T}_fx0,${T}_fx10
d tn 3000x3000x8000 $T,${T}_fx0,${T}_fx11
d tn 12288x4096x4096 $T,${T}_fx0
d tn 1000x1000x8192 $T,${T}_fx0,${T}_fx11
d tn 4096x4096x4096 g_f8_tn_none,g_f8_tn_none_fx8
d tn 8192x8192x8192 g_f8_tn_none,g_f8_tn_none_fx8
d tn 4099x4097x4095 g_bf16_tn_none,g_bf16_tn_none_fx2
d tn 4099x4097x4095 g_i8_tn_none,g_i8_tn_none_fx9
cut -c1-150 $O/r/duel.txt
gpu_end
