#!/usr/bin/env bash
# GPU run 4 (2026-12-06, thirty-first stop): `bench` now times cuBLAS and
# each kernel in turns (time_in_turns). The f8 and f16/bf16 rows of the
# persist set (the same kernel twice under two names, g_f8_tn_none's large
# member and fr0, shows what the order cost before), and sustained duels of
# issue 15's prefill rows. Artifacts as run_c.sh (persist.tar.xz); on the GPU:
#   OUT=$OUT bash docs/perf-data/persist-2026-12-06/run_d.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh persist $O/r > $O/r/prepare-persist.txt 2>&1; tail -1 $O/r/prepare-persist.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
step 60 bench-f8 $H bench artifacts/persist --dtypes f8 --out $O/r/bench-f8.json > $O/r/bench-f8.txt 2>&1
step 150 bench-16 $H bench artifacts/persist --dtypes f16,bf16 --out $O/r/bench-16.json > $O/r/bench-16.txt 2>&1
for s in 4096x11008x4096 4096x4096x11008 12288x4096x4096 8192x8192x8192; do
  step 45 "duel $s" $H duel artifacts/persist --kernels g_f16_tn_none,g_f16_tn_none_pp27,g_f16_tn_none_pp4 --layout tn --shape $s \
    --reps 30 --warm-s 3 --out $O/r/d-f16-$s.json >> $O/r/duel.txt 2>&1
done
step 45 "duel bf16" $H duel artifacts/persist --kernels g_bf16_tn_none,g_bf16_tn_none_pp9 --layout tn --shape 8192x8192x8192 \
    --reps 30 --warm-s 3 --out $O/r/d-bf16-8192.json >> $O/r/duel.txt 2>&1
cut -c1-150 $O/r/duel.txt
grep "ratio" $O/r/bench-f8.txt | cut -c1-130
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
