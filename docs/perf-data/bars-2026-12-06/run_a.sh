#!/usr/bin/env bash
# GPU run 1 (2026-12-06, thirty-second stop): where the bars of issues 13
# and 15 stand on the GPU the device gives, and the first GPU run of the
# harness's poisoned() outputs and time_fn (turns of one call). Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh persist
#   for s in every persist; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/bars-2026-12-06/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every persist
H="python3 -m gemm_mlir.harness"
step 60 check-every $H check artifacts/every --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; tail -1 $O/r/check-every.txt
step 150 every $H every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; tail -4 $O/r/every.txt
step 70 bench-16 $H bench artifacts/every --dtypes f16,bf16 --out $O/r/bench-16.json > $O/r/bench-16.txt 2>&1
grep ratio $O/r/bench-16.txt | cut -c1-120
for s in 4096x4096x4096 8192x8192x8192; do
  step 40 "duel f8 $s" $H duel artifacts/persist --kernels g_f8_tn_none,g_f8_tn_none_fr1 --layout tn --shape $s \
    --reps 20 --warm-s 2 --out $O/r/d-f8-$s.json >> $O/r/duel.txt 2>&1
done
step 40 fused-randn $H fused artifacts/every --out $O/r/fused-randn.json > $O/r/fused-randn.txt 2>&1
step 40 fused-unit $H fused artifacts/every --inputs unit --out $O/r/fused-unit.json > $O/r/fused-unit.txt 2>&1
step 30 duel-i8 $H duel artifacts/every --kernels g_i8_tn_none --layout tn --shape 4096x4096x4096 --reps 20 --out $O/r/d-i8.json >> $O/r/duel.txt 2>&1
step 40 duel-prefill $H duel artifacts/every --kernels g_f16_tn_none --layout tn --shape 12288x4096x4096 --reps 20 --warm-s 2 --out $O/r/d-f16-12288.json >> $O/r/duel.txt 2>&1
cut -c1-150 $O/r/duel.txt
grep -h "ratio\|us" $O/r/fused-*.txt | cut -c1-150 | head -20
gpu_end
