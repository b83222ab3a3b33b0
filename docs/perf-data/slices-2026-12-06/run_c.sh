#!/usr/bin/env bash
# GPU run 3 (2026-12-06, twenty-eighth stop): issue 15's rows under the two
# fair timings (docs/performance.md, "Timing order and the power cap"):
#  - bench and fused with the library re-timed right before each kernel
#    (short bursts: the GPU at its boost clock);
#  - duel after 5 s of sustained load (the GPU at its power cap), the
#    default family and the persistent sliced tile against cuBLAS;
# with the GPU's clock, power and temperature logged every 100 ms.
# Here first (at the commit that adds this file):
#   CHIP=sm_90a GEMM_OPTS="allow-tf32" ./scripts/gpu_artifacts.sh slices
#   mkdir -p artifacts/pack && tar cJf artifacts/pack/slices.tar.xz -C artifacts slices
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/slices-2026-12-06/run_c.sh
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
mark check; step 80 check $H check $A --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt
mark bench; step 150 bench $H bench $A --dtypes f16,bf16,f8,tf32,i8 --out $O/r/bench.json > $O/r/bench.txt 2>&1
for s in 4096x11008x4096 4096x4096x11008 12288x4096x4096; do
  mark "bench $s"; step 40 "bench $s" $H bench $A --dtypes f16 --shape $s --out $O/r/bench-$s.json >> $O/r/bench.txt 2>&1
done
grep -v "_t0 \|_mc0 \|_sl1 " $O/r/bench.txt | grep "none \|rc " | cut -c1-120
mark fused; step 90 fused $H fused $A --out $O/r/fused.json > $O/r/fused.txt 2>&1
cut -c1-200 $O/r/fused.txt
duel() {  # dtype layout shape
  mark "duel $*"
  step 40 "duel $*" $H duel $A --kernels g_$1_$2_none,g_$1_$2_none_sl0 --layout $2 --shape $3 \
    --reps 40 --warm-s 5 --out $O/r/d-$1-$2-$3.json >> $O/r/duel.txt 2>&1
}
for d in f16 bf16; do
  for l in tn nn; do duel $d $l 8192x8192x8192; duel $d $l 4096x4096x4096; done
done
duel f16 tn 12288x4096x4096
duel f16 nn 4096x11008x4096
duel f16 tn 4096x4096x11008
duel f16 tn 4099x4097x4095
cat $O/r/duel.txt | grep -v "^cublas"
kill $smi
for f in $O/r/*.json $O/r/smi.csv; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
