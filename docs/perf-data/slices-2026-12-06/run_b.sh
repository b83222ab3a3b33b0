#!/usr/bin/env bash
# GPU run 2 (2026-12-06, twenty-eighth stop): how the order of timing
# moves the cuBLAS ratio, with the GPU's clock, power and temperature
# logged (nvidia-smi every 100 ms): f16 tn 8192^3 by `bench` (cuBLAS's
# repetitions first, then ours), by `duel` (every kernel and cuBLAS once a
# round, the order rotating) from a cool GPU and after 10 s of sustained
# load, and `bench` again; then duels after 5 s of load on issue 15's
# shapes, and the fused epilogues with the slices' chunk count fixed.
# Here first (at the commit that adds this file):
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh slices
#   mkdir -p artifacts/pack && tar cJf artifacts/pack/slices.tar.xz -C artifacts slices
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/slices-2026-12-06/run_b.sh
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
K=g_f16_tn_none,g_f16_tn_none_t0,g_f16_tn_none_sl0
S=8192x8192x8192
mark bench-a; step 40 bench-a $H bench $A --only g_f16_tn_none --shape $S --dtypes f16 --out $O/r/b-a.json > $O/r/order.txt 2>&1
mark duel-cool; step 40 duel-cool $H duel $A --kernels $K --layout tn --shape $S --reps 60 --out $O/r/d-cool.json >> $O/r/order.txt 2>&1
mark duel-warm; step 60 duel-warm $H duel $A --kernels $K --layout tn --shape $S --reps 60 --warm-s 10 --out $O/r/d-warm.json >> $O/r/order.txt 2>&1
mark bench-b; step 40 bench-b $H bench $A --only g_f16_tn_none --shape $S --dtypes f16 --out $O/r/b-b.json >> $O/r/order.txt 2>&1
mark done-order
cat $O/r/order.txt
check() { step 90 check-small $H check $A --out $O/r/check-small.json > $O/r/check-small.txt 2>&1; tail -1 $O/r/check-small.txt; }
check
duel() {  # dtype layout shape
  local k="g_$1_$2_none,g_$1_$2_none_t0,g_$1_$2_none_mc0,g_$1_$2_none_sl0"
  mark "duel $*"
  step 45 "duel $*" $H duel $A --kernels $k --layout $2 --shape $3 --reps 40 --warm-s 5 \
    --out $O/r/d-$1-$2-$3.json >> $O/r/duel.txt 2>&1
}
duel f16 tn 8192x8192x8192
duel f16 nn 8192x8192x8192
duel bf16 tn 8192x8192x8192
duel f16 tn 4096x4096x4096
duel f16 nn 4096x4096x4096
duel bf16 tn 4096x4096x4096
duel f16 tn 12288x4096x4096
duel f16 nn 4096x11008x4096
duel f16 tn 4096x4096x11008
duel f16 tn 4099x4097x4095
duel f16 nn 4099x4097x4095
cat $O/r/duel.txt
mark fused; step 90 fused $H fused $A --out $O/r/fused.json > $O/r/fused.txt 2>&1
tail -12 $O/r/fused.txt
kill $smi
for f in $O/r/*.json $O/r/smi.csv; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
