#!/usr/bin/env bash
# GPU run (2026-12-06, twenty-seventh stop): the multicast pairs against
# the same tiles loading on their own and cuBLAS, timed in turns
# (`harness duel`: bench times each kernel's repetitions in a row, cuBLAS
# first, and on an H100 the clock drifts over a row of 8192^3 kernels).
# Here: the artifacts of run_a.sh (the `multicast` set at the final
# commit); on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/multicast-2026-12-06/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh multicast $O/r > $O/r/prepare.txt 2>&1; tail -3 $O/r/prepare.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader | tee $O/r/gpu.txt
duel() {  # dtype layout shape
  local k="g_$1_$2_none,g_$1_$2_none_t0,g_$1_$2_none_t6,g_$1_$2_none_mc0,g_$1_$2_none_mc1"
  step 60 "duel $*" python3 -m gemm_mlir.harness duel artifacts/multicast --kernels $k \
    --layout $2 --shape $3 --reps 60 --out $O/r/d-$1-$2-$3-$4.json >> $O/r/duel.txt 2>&1
}
for round in $(seq 1 ${ROUNDS:-2}); do
  duel f16 tn 8192x8192x8192 $round
  duel f16 nn 8192x8192x8192 $round
  duel bf16 tn 8192x8192x8192 $round
  duel f16 tn 4096x4096x4096 $round
  duel f16 nn 4096x4096x4096 $round
  duel f16 tn 12288x4096x4096 $round
  duel f16 nn 4096x11008x4096 $round
  duel f16 tn 4099x4097x4095 $round
done
cat $O/r/duel.txt
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
