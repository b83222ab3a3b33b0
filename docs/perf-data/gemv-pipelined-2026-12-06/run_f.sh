#!/usr/bin/env bash
# GPU run 6 (2026-12-06, twenty-ninth stop): run 5's every list showed rows
# of kernels this stop did not touch at a fraction of their usual speed
# (f16 tn 64x4096x4096 71 us against 14.0 in the last stop's run 5). The
# every list twice more on the same artifacts (run_e.sh's every set), with
# clocks logged, to tell a slow moment of the GPU from a regression.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh every $O/r > $O/r/prepare-every.txt 2>&1; tail -1 $O/r/prepare-every.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,utilization.gpu \
  --format=csv,noheader -lms 200 > $O/r/smi.csv 2>&1 &
smi=$!
H="python3 -m gemm_mlir.harness"
for i in 1 2; do
  step 150 every$i $H every artifacts/every --out $O/r/every$i.json > $O/r/every$i.txt 2>&1
  grep -A12 "rows, " $O/r/every$i.txt | head -13
  grep -E "64x4096x4096|8x11008x4096 " $O/r/every$i.txt | cut -c1-120
done
kill $smi
for f in $O/r/*.json $O/r/smi.csv; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
