#!/usr/bin/env bash
# GPU run 3 (2026-12-07, thirty-eighth stop): run 2's check of the f8two
# set stopped at an illegal instruction in its first family (g_f8_nn_none);
# this run checks the families shape by shape (diag.py) with blocking
# launches to name the member. Artifacts as run_b.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin f8two
export CUDA_LAUNCH_BLOCKING=1
for k in g_f8_nn_none g_f8_tn_none g_f8_tn_linear; do
  step 60 "diag $k" python3 $here/diag.py artifacts/f8two $k > $O/r/diag-$k.txt 2>&1; grep -B2 -A3 -i "error\|Traceback" $O/r/diag-$k.txt | head -12; tail -2 $O/r/diag-$k.txt
done
gpu_end
