#!/usr/bin/env bash
# GPU run 4 (2026-12-07, thirty-eighth stop): run 3 named the f8 nn
# family's 128 x 192 member (g_f8_nn_none_gemm_1) at 4096x4096x1 as the
# kernel of the illegal instruction; this run checks standalone f8 tiles of
# two compute warpgroups outside tn (cases.py F8N192 n9: nn 128 x 192; n10:
# nn 128 x 128; n11: nt 128 x 192) shape by shape (diag.py). Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh f8nn2   # at 35accc5 (refused from 75cc651 on)
#   tar cJf artifacts/pack/f8nn2.tar.xz -C artifacts f8nn2
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin f8nn2
export CUDA_LAUNCH_BLOCKING=1
for k in g_f8_nn_none_n9 g_f8_nn_none_n10 g_f8_nt_none_n11; do
  step 45 "diag $k" python3 $here/diag.py artifacts/f8nn2 $k > $O/r/diag-$k.txt 2>&1; grep -B2 "Error\|error:" $O/r/diag-$k.txt | head -6; tail -1 $O/r/diag-$k.txt
done
gpu_end
