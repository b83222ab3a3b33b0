#!/usr/bin/env bash
# GPU run 6 (2026-12-06, twenty-eighth stop): issue 15's tf32 row and its
# "every layout" row (tf32, i8, f8 in nn/nt/tt) by the fair bench (the
# library re-timed right before each kernel), twice, and tf32 tn under
# sustained load (duel --warm-s 5); clocks logged. Here first:
#   CHIP=sm_90a GEMM_OPTS="allow-tf32" ./scripts/gpu_artifacts.sh transpose
#   mkdir -p artifacts/pack && tar cJf artifacts/pack/transpose.tar.xz -C artifacts transpose
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/slices-2026-12-06/run_f.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh transpose $O/r > $O/r/prepare.txt 2>&1; tail -1 $O/r/prepare.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu \
  --format=csv,noheader -lms 100 > $O/r/smi.csv 2>&1 &
smi=$!
mark() { echo "$(date +%H:%M:%S.%N | cut -c1-12) $*" >> $O/r/marks.txt; }
H="python3 -m gemm_mlir.harness"
A=artifacts/transpose
for i in 1 2; do
  mark bench$i; step 120 bench$i $H bench $A --dtypes tf32,i8,f8 --out $O/r/bench$i.json > $O/r/bench$i.txt 2>&1
  cut -c1-120 $O/r/bench$i.txt
done
for s in 4096x4096x4096 8192x8192x8192; do
  mark "duel $s"; step 40 "duel $s" $H duel $A --kernels g_tf32_tn_none --layout tn --shape $s \
    --reps 30 --warm-s 5 --out $O/r/d-tf32-tn-$s.json >> $O/r/duel.txt 2>&1
done
cat $O/r/duel.txt
kill $smi
for f in $O/r/*.json $O/r/smi.csv; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
