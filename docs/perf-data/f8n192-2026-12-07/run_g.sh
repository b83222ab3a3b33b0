#!/usr/bin/env bash
# GPU run 6 (2026-12-07, thirty-ninth stop): run_f.sh's experiment, built at
# 9d2cee0 with two temporary environment switches in
# lib/Target/Legality.cpp (not kept): GEMM_EXP_ALLOW_TRANSPOSED made
# checkConfigOnTransposedOperands accept every tile (the reproducers
# compile again), GEMM_EXP_NO_PAIRS made promotionKTiles return 1 (every
# f8 partial sum promoted per k-tile):
#   GEMM_EXP_ALLOW_TRANSPOSED=1 CHIP=sm_90a ./scripts/gpu_artifacts.sh f8nn2
#   GEMM_EXP_ALLOW_TRANSPOSED=1 GEMM_EXP_NO_PAIRS=1 CHIP=sm_90a \
#     ./scripts/gpu_artifacts.sh f8nn2   (moved to artifacts/f8nn4)
#   tar cJf artifacts/pack/f8nn2.tar.xz -C artifacts f8nn2  (f8nn4 likewise)
# Tells whether the illegal instruction of two-warpgroup f8 tiles on
# transposed operands needs the promotion over k-tile pairs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin f8nn2 f8nn4
export CUDA_LAUNCH_BLOCKING=1
for s in f8nn2 f8nn4; do
  for k in g_f8_nn_none_n9 g_f8_nn_none_n10 g_f8_nt_none_n11; do
    step 45 "diag $s $k" python3 $here/diag.py artifacts/$s $k > $O/r/diag-$s-$k.txt 2>&1; grep "Error\|error:" $O/r/diag-$s-$k.txt | head -2; tail -1 $O/r/diag-$s-$k.txt
  done
done
gpu_end
