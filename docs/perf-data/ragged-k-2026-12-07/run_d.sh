#!/usr/bin/env bash
# GPU run 4: the final threshold (M * N >= 512 * (M + N)): the every set at
# the commit that set it, checked, pitch.py (as given = a call now), the
# every list. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   tar cJf artifacts/pack/every.tar.xz -C artifacts every
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/ragged-k-2026-12-07/run_d.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every
H="python3 -m gemm_mlir.harness"
S="4096x4096x3000 5000x5000x3000 8192x8192x1000 2048x2048x3000 1024x1024x3000 768x4096x3000 512x512x3000 128x4096x3000 4096x4096x3008"
step 70 pitch python3 $here/pitch.py artifacts/every $S > $O/r/pitch.txt 2>&1; cut -c1-200 $O/r/pitch.txt
step 90 check $H check artifacts/every --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -5
step 90 every $H every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; grep -E "rows,|min ratio|geomean" $O/r/every.txt | head -8
gpu_end
