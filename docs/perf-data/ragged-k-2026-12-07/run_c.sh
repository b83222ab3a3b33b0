#!/usr/bin/env bash
# GPU run 3: the families with rows of an odd number of 16 bytes packed
# where the GEMM is compute-bound (docs/dispatch.md; `every` at the commit
# that added it) beside everysc (the same families without the rule):
# checks, pitch.py on both (as given = what a call does now), the every
# list, duels. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   tar cJf artifacts/pack/every.tar.xz -C artifacts every
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/ragged-k-2026-12-07/run_c.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every everysc
H="python3 -m gemm_mlir.harness"
S="4096x4096x3000 5000x5000x3000 8192x8192x1000 4096x11008x1000 2048x2048x3000 1024x1024x3000 512x512x3000 128x4096x3000 64x11008x3000 4096x4096x3008"
step 80 pitch-new python3 $here/pitch.py artifacts/every $S > $O/r/pitch-new.txt 2>&1; cut -c1-200 $O/r/pitch-new.txt
step 80 pitch-old python3 $here/pitch.py artifacts/everysc $S > $O/r/pitch-old.txt 2>&1; cut -c1-200 $O/r/pitch-old.txt
step 90 check $H check artifacts/every --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -5
for s in 4096x4096x3000 8192x8192x1000; do
  step 20 "tn $s" $H duel artifacts/every --kernels g_f16_tn_none --layout tn --shape $s --reps 20 --out $O/r/d-tn-$s.json >> $O/r/duel.txt 2>&1
done
step 20 "nn" $H duel artifacts/every --kernels g_f16_nn_none --layout nn --shape 4096x3000x4096 --reps 20 --out $O/r/d-nn.json >> $O/r/duel.txt 2>&1
step 20 "nn old" $H duel artifacts/everysc --kernels g_f16_nn_none --layout nn --shape 4096x3000x4096 --reps 20 --out $O/r/d-nn-old.json >> $O/r/duel.txt 2>&1
step 20 "bf16" $H duel artifacts/every --kernels g_bf16_tn_none --layout tn --shape 4096x4096x3000 --reps 20 --out $O/r/d-bf16.json >> $O/r/duel.txt 2>&1
grep -v "^duel" $O/r/duel.txt | cut -c1-110
step 90 every $H every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; grep -E "rows,|min ratio|geomean" $O/r/every.txt | head -8
gpu_end
