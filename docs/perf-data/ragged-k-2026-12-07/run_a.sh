#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-sixth stop): the f16 tn family ran
# 5000x5000x3000 at 0.68x cuBLAS (persist4-2026-12-07): which of M, N, K
# off the tile's multiples costs it, each shape a duel with cuBLAS, and the
# kernels each call launches. Pack: everysc (bars-2026-12-07). On the GPU:
#   OUT=$OUT bash docs/perf-data/ragged-k-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin everysc
H="python3 -m gemm_mlir.harness"
A=artifacts/everysc
for s in 5000x5000x3000 5000x5000x4096 4096x4096x3000 4096x4096x3008 5120x5120x3072 5000x5000x3072 4992x4864x3072 4096x4096x4000; do
  step 25 "tn $s" $H duel $A --kernels g_f16_tn_none --layout tn --shape $s --reps 20 --warm-s 1 --out $O/r/d-tn-$s.json >> $O/r/duel.txt 2>&1
done
grep -v "^duel\|^cublas" $O/r/duel.txt | cut -c1-110
step 60 profile $H profile $A --rows "f16 tn 5000x5000x3000; f16 tn 5000x5000x3072; f16 tn 4096x4096x3000" --out $O/r/profile.json > $O/r/profile.txt 2>&1; cut -c1-200 $O/r/profile.txt
gpu_end
# Run 2 (run_b.sh): rows padded to 64 elements against rows as given.
