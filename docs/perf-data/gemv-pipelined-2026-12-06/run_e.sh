#!/usr/bin/env bash
# GPU run 5 (2026-12-06, twenty-ninth stop): the final rules (gemv-mma-16
# from half the SMs, gemv-mma-16-few in tn with K <= 6144, gemv-mma-16 in
# tt with K <= 4096 and N <= 8192). `check --shapes full` of the dispatch
# families (every set), then issue 13's every list, then run 3's rows.
# Here first (at the commit that adds this file):
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   tar cJf artifacts/pack/every.tar.xz -C artifacts every
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/gemv-pipelined-2026-12-06/run_e.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh every $O/r > $O/r/prepare-every.txt 2>&1; tail -1 $O/r/prepare-every.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
step 170 check $H check artifacts/every --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1
tail -1 $O/r/check.txt; grep -v "^ " $O/r/check.txt | grep -v "^ok" | cut -c1-300 | head -5
step 150 every $H every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A14 "rows, " $O/r/every.txt | head -15
ROWS=""
for s in 16x1536x8192 12x1056x7168 9x2048x16384 16x1536x16384 16x4096x11008 16x1056x4096; do ROWS="$ROWS;f16 tn $s"; done
for s in 16x4096x11008 16x11008x4096 16x32000x4096 9x4096x4096 9x5120x1024 16x1536x4096 12x1056x8192; do ROWS="$ROWS;f16 tt $s"; done
ROWS="${ROWS#;};bf16 tt 16x4096x11008"
step 60 rows $H every artifacts/every --rows "$ROWS" --out $O/r/rows.json > $O/r/rows.txt 2>&1
grep -E "rows, " $O/r/rows.txt
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
