#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-ninth stop): 128 x 192 tiles (cases.py
# WAVEFIT, wfN) beside the default families, on grids whose 128 x 256
# tiles end in a short last wave and on controls; every kernel checked on
# the full shape list first. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh wavefit
#   tar cJf artifacts/pack/wavefit.tar.xz -C artifacts wavefit
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/wavefit-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin wavefit
H="python3 -m gemm_mlir.harness"
A=artifacts/wavefit
step 150 check $H check $A --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -5
d() { local l=$1 s=$2 k=$3; step 30 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
for s in 3072x3072x4096 2304x2304x4096 4099x4097x4095 3840x3840x4096 2560x2560x4096 4096x4096x4096 3072x3072x1024 5000x5000x3000 6144x6144x4096 3584x3584x4096 2048x5120x4096 65536x129x4096 4096x160x4096 1536x9216x4096; do d tn $s g_f16_tn_none,g_f16_tn_none_wf0,g_f16_tn_none_wf1; done
for s in 3072x3072x4096 4099x4097x4095; do d tn $s g_bf16_tn_none,g_bf16_tn_none_wf2; done
for s in 3072x3072x4096 4099x4097x4095 4096x4096x4096; do d nn $s g_f16_nn_none,g_f16_nn_none_wf3; done
for s in 3072x3072x4096 4099x4097x4095; do d tt $s g_f16_tt_none,g_f16_tt_none_wf6; done
cut -c1-110 $O/r/duel.txt | grep -v "^duel"
gpu_end
