#!/usr/bin/env bash
# GPU run 3 (2026-12-06, thirty-first stop): the final build. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh persist
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   for s in persist every; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/persist-2026-12-06/run_c.sh
# The correctness matrices of the persist set and of the dispatch families
# (every: their warp-specialized members' versioned loops now run at least
# one k-tile); sustained duels of the f8 tiles against cuBLASLt (the
# harness's duel now calls _scaled_mm for f8); the f8, f16 and bf16 rows.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in persist every; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
step 60 check-persist $H check artifacts/persist --shapes full --out $O/r/check-persist.json > $O/r/check-persist.txt 2>&1; tail -1 $O/r/check-persist.txt
step 220 check-every $H check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; tail -1 $O/r/check-every.txt
K=g_f8_tn_none,g_f8_tn_none_fr7,g_f8_tn_none_fr6,g_f8_tn_none_pp32,g_f8_tn_none_fr1
for s in 4096x4096x4096 6144x6144x6144 8192x8192x8192 4096x14336x4096; do
  step 40 "duel $s" $H duel artifacts/persist --kernels $K --layout tn --shape $s \
    --reps 30 --warm-s 3 --out $O/r/d-f8-$s.json >> $O/r/duel.txt 2>&1
done
cut -c1-150 $O/r/duel.txt
step 30 bench-f8 $H bench artifacts/persist --dtypes f8 --out $O/r/bench-f8.json > $O/r/bench-f8.txt 2>&1
step 60 bench-16 $H bench artifacts/persist --dtypes f16,bf16 --out $O/r/bench-16.json > $O/r/bench-16.txt 2>&1
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
