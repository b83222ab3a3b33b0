#!/usr/bin/env bash
# GPU run 7 (2026-12-06, twenty-eighth stop): the sliced staging as a loop
# over the slices (more than two) at the final commit: `check` and `check
# --shapes full` of the slices set, `fused` (library re-timed before each
# kernel), sustained duels of sl0 against the default family. Here first:
#   CHIP=sm_90a GEMM_OPTS="allow-tf32" ./scripts/gpu_artifacts.sh slices
#   mkdir -p artifacts/pack && tar cJf artifacts/pack/slices.tar.xz -C artifacts slices
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/slices-2026-12-06/run_g.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh slices $O/r > $O/r/prepare.txt 2>&1; tail -1 $O/r/prepare.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
A=artifacts/slices
step 70 check-small $H check $A --out $O/r/check-small.json > $O/r/check-small.txt 2>&1; grep checks $O/r/check-small.txt
step 110 check-full $H check $A --shapes full --out $O/r/check-full.json > $O/r/check-full.txt 2>&1; grep checks $O/r/check-full.txt
step 40 fused $H fused $A --out $O/r/fused.json > $O/r/fused.txt 2>&1; cut -c1-200 $O/r/fused.txt
for s in 8192x8192x8192 12288x4096x4096; do
  step 30 "duel $s" $H duel $A --kernels g_f16_tn_none,g_f16_tn_none_sl0 --layout tn --shape $s \
    --reps 40 --warm-s 5 --out $O/r/d-f16-tn-$s.json >> $O/r/duel.txt 2>&1
done
cat $O/r/duel.txt
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
