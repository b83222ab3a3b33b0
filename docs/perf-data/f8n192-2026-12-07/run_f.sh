#!/usr/bin/env bash
# GPU run 6 (2026-12-07, thirty-eighth stop): run 4's kernels built with
# every f8 partial sum promoted per k-tile (an experiment build whose
# wgmmaPromotionKTiles returned 1 under GEMM_EXP_NO_PAIRS, no-pairs.patch, not kept):
#   GEMM_EXP_NO_PAIRS=1 CHIP=sm_90a ./scripts/gpu_artifacts.sh f8nn2   (at 35accc5 -> artifacts/f8nn4)
#   tar cJf artifacts/pack/f8nn4.tar.xz -C artifacts f8nn4
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin f8nn4
export CUDA_LAUNCH_BLOCKING=1
for k in g_f8_nn_none_n9 g_f8_nn_none_n10 g_f8_nt_none_n11; do
  step 45 "diag $k" python3 $here/diag.py artifacts/f8nn4 $k > $O/r/diag-$k.txt 2>&1; grep -B2 "Error\|error:" $O/r/diag-$k.txt | head -6; tail -1 $O/r/diag-$k.txt
done
gpu_end
