#!/usr/bin/env bash
# GPU run 4 (2026-12-06, twenty-eighth stop): a second pass of run 3's
# fair bench (f16, bf16, f8), the fused epilogues on randn and unit-size
# inputs, and the sustained duels of the shapes whose ratio moved most
# between runs; clocks logged. Same artifacts as run_c.sh; on the GPU
# (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/slices-2026-12-06/run_d.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh slices $O/r > $O/r/prepare.txt 2>&1; tail -1 $O/r/prepare.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu \
  --format=csv,noheader -lms 100 > $O/r/smi.csv 2>&1 &
smi=$!
mark() { echo "$(date +%H:%M:%S.%N | cut -c1-12) $*" >> $O/r/marks.txt; }
H="python3 -m gemm_mlir.harness"
A=artifacts/slices
mark bench; step 150 bench $H bench $A --dtypes f16,bf16,f8 --out $O/r/bench.json > $O/r/bench.txt 2>&1
for s in 4096x11008x4096 4096x4096x11008 12288x4096x4096; do
  mark "bench $s"; step 40 "bench $s" $H bench $A --dtypes f16 --shape $s --out $O/r/bench-$s.json >> $O/r/bench.txt 2>&1
done
grep -v "_t0 \|_mc0 \|_sl1 " $O/r/bench.txt | grep "none \|rc " | cut -c1-120
mark fused; step 90 fused $H fused $A --out $O/r/fused.json > $O/r/fused.txt 2>&1
mark fused-unit; step 90 fused-unit $H fused $A --inputs unit --out $O/r/fused-unit.json > $O/r/fused-unit.txt 2>&1
cut -c1-200 $O/r/fused.txt $O/r/fused-unit.txt
duel() {  # dtype layout shape
  mark "duel $*"
  step 40 "duel $*" $H duel $A --kernels g_$1_$2_none,g_$1_$2_none_t0,g_$1_$2_none_sl0 --layout $2 --shape $3 \
    --reps 40 --warm-s 5 --out $O/r/d-$1-$2-$3.json >> $O/r/duel.txt 2>&1
}
duel f16 tn 12288x4096x4096
duel f16 tn 4096x4096x4096
duel bf16 tn 4096x4096x4096
duel f16 nn 4096x4096x11008
duel f16 tn 8192x8192x8192
cat $O/r/duel.txt
kill $smi
for f in $O/r/*.json $O/r/smi.csv; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
