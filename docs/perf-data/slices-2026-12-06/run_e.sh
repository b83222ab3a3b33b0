#!/usr/bin/env bash
# GPU run 5 (2026-12-06, twenty-eighth stop): the final state. The
# correctness matrix of the dispatch families (`check --shapes full` on
# the every set: the region loop's chunk count changed for small tiles)
# and of the ping-pong set (its region epilogues now stage in slices),
# the every list (issue 13), and issue 15's rows by the fair bench, the
# sustained duels and `fused`; clocks logged. Here first (at the commit
# that adds this file):
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   CHIP=sm_90a GEMM_OPTS="allow-tf32" ./scripts/gpu_artifacts.sh slices
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh pingpong
#   for s in every slices pingpong; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/slices-2026-12-06/run_e.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in every slices pingpong; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu \
  --format=csv,noheader -lms 100 > $O/r/smi.csv 2>&1 &
smi=$!
mark() { echo "$(date +%H:%M:%S.%N | cut -c1-12) $*" >> $O/r/marks.txt; }
H="python3 -m gemm_mlir.harness"
mark check; step 150 check $H check artifacts/every --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1
tail -1 $O/r/check.txt
mark check-pp; step 70 check-pp $H check artifacts/pingpong --out $O/r/check-pp.json > $O/r/check-pp.txt 2>&1
tail -1 $O/r/check-pp.txt
mark every; step 120 every $H every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A14 "rows, " $O/r/every.txt | head -15
A=artifacts/slices
mark bench; step 90 bench $H bench $A --dtypes f16,bf16,f8 --out $O/r/bench.json > $O/r/bench.txt 2>&1
grep -v "_t0 \|_mc0 \|_sl1 \|_sl0 " $O/r/bench.txt | grep "none \|rc " | cut -c1-120
mark fused; step 40 fused $H fused $A --out $O/r/fused.json > $O/r/fused.txt 2>&1
grep -v "_sl" $O/r/fused.txt | cut -c1-200
duel() {  # dtype layout shape
  mark "duel $*"
  step 30 "duel $*" $H duel $A --kernels g_$1_$2_none --layout $2 --shape $3 \
    --reps 40 --warm-s 5 --out $O/r/d-$1-$2-$3.json >> $O/r/duel.txt 2>&1
}
duel f16 tn 8192x8192x8192
duel f16 tn 4096x4096x4096
duel f16 tn 12288x4096x4096
cat $O/r/duel.txt
kill $smi
for f in $O/r/*.json $O/r/smi.csv; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
