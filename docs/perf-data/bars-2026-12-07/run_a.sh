#!/usr/bin/env bash
# GPU run (2026-12-07, thirty-sixth stop): issue 13's every list and the
# f16/bf16 large shapes of issue 15 on the families of main with the
# shifted columns (the `everysc` pack of shifted-columns-2026-12-07, built
# as its run_a.sh says; the same kernels as `gpu_artifacts.sh every` at
# the commit that applied the patch). Then on the GPU (carry
# ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/bars-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin everysc
H="python3 -m gemm_mlir.harness"
A=artifacts/everysc
for i in 1 2; do
  step 170 "every $i" $H every $A --out $O/r/every$i.json > $O/r/every$i.txt 2>&1
  grep -E "rows,|min ratio|geomean|WRONG|copy" $O/r/every$i.txt | grep -v "^decode\|^decode_wide" | cut -c1-200 | head -8
  grep -E "^decode " $O/r/every$i.txt | cut -c1-200
done
step 80 bench-16 $H bench $A --dtypes f16,bf16 --out $O/r/bench-16.json > $O/r/bench-16.txt 2>&1
grep ratio $O/r/bench-16.txt | cut -c1-140
step 50 duel-prefill $H duel $A --kernels g_f16_tn_none --layout tn --shape 12288x4096x4096 --reps 20 --warm-s 2 --out $O/r/d-f16-12288.json > $O/r/duel.txt 2>&1
cut -c1-150 $O/r/duel.txt
gpu_end
