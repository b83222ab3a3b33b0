#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-seventh stop): persistent blocks in
# multicast pairs (`schedule = persistent, multicast = 2`, cases.py
# MCPERSIST, mcpN) beside the default families and the persistent 128 x
# 256 tile alone (mcp12): checked on the full shape list (every layout,
# bf16, f8, fused, C read, batched), then duels. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh mcpersist
#   tar cJf artifacts/pack/mcpersist.tar.xz -C artifacts mcpersist
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/mcpersist-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin mcpersist
H="python3 -m gemm_mlir.harness"
A=artifacts/mcpersist
step 150 check $H check $A --shapes full --only mcp --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -8
d() { local l=$1 s=$2 k=$3; step 30 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
for s in 12288x4096x4096 4096x4096x4096 4099x4097x4095; do d tn $s g_f16_tn_none,g_f16_tn_none_mcp0,g_f16_tn_none_mcp12; done
for s in 4096x4096x4096 8192x8192x8192; do d tn $s g_f8_tn_none,g_f8_tn_none_mcp9,g_f8_tn_none_mcp10; done
for s in 8192x8192x8192 4096x11008x4096 5000x5000x3000 3072x3072x4096; do d tn $s g_f16_tn_none,g_f16_tn_none_mcp0,g_f16_tn_none_mcp12; done
for s in 6144x6144x6144 4096x14336x4096; do d tn $s g_f8_tn_none,g_f8_tn_none_mcp9,g_f8_tn_none_mcp10; done
for s in 4096x4096x4096 12288x4096x4096; do d nn $s g_f16_nn_none,g_f16_nn_none_mcp1; done
d tn 12288x4096x4096 g_bf16_tn_none,g_bf16_tn_none_mcp4
cut -c1-130 $O/r/duel.txt | grep -v "^duel"
step 60 fused-randn $H fused $A --out $O/r/fused-randn.json > $O/r/fused-randn.txt 2>&1; cut -c1-170 $O/r/fused-randn.txt
gpu_end
