#!/usr/bin/env bash
# GPU run 1 (2026-12-06, thirty-first stop): persistent blocks with one main
# loop per load path. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh persist   (at the commit before
#     the versioned persistent loop, renamed persistold; then again at it)
#   for s in persist persistold; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/persist-2026-12-06/run_a.sh
# The correctness matrix of the persist set; f8, f16 and bf16 rows of the
# old and new builds in turns; sustained duels of the persistent f16 tiles
# against the default family; the fused epilogues.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in persist persistold; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
step 150 check $H check artifacts/persist --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt
for s in persistold persist persistold persist; do
  step 45 bench-f8-$s $H bench artifacts/$s --dtypes f8 --out $O/r/bench-f8-$s.json >> $O/r/bench-f8-$s.txt 2>&1
done
for s in persistold persist; do
  step 90 bench-16-$s $H bench artifacts/$s --dtypes f16,bf16 --out $O/r/bench-16-$s.json >> $O/r/bench-16-$s.txt 2>&1
done
for s in 8192x8192x8192 12288x4096x4096; do
  step 40 "duel $s" $H duel artifacts/persist --kernels g_f16_tn_none,g_f16_tn_none_pp27,g_f16_tn_none_pp26 --layout tn --shape $s \
    --reps 40 --warm-s 5 --out $O/r/d-f16-tn-$s.json >> $O/r/duel.txt 2>&1
done
step 60 fused $H fused artifacts/persist --out $O/r/fused.json > $O/r/fused.txt 2>&1
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
