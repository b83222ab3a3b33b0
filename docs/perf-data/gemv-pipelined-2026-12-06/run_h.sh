#!/usr/bin/env bash
# GPU run 8 (2026-12-06, twenty-ninth stop): the final rules (run 5's, plus
# gemv-mma in tt bounded to small weights with 3-8 rows, and the
# -unaligned-b members). `check --shapes full` of the dispatch families
# (every set), the tt rows of runs 3 and 7, and issue 13's every list.
# Here first (at the commit that adds this file):
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   tar cJf artifacts/pack/every.tar.xz -C artifacts every
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/gemv-pipelined-2026-12-06/run_h.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh every $O/r > $O/r/prepare-every.txt 2>&1; tail -1 $O/r/prepare-every.txt
H="python3 -m gemm_mlir.harness"
step 170 check $H check artifacts/every --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1
tail -1 $O/r/check.txt; grep -v "^ " $O/r/check.txt | grep -v "^ok" | cut -c1-300 | head -5
ROWS=""
for m in 3 5 8 9 16; do for nk in 4096x4096 4096x11008 11008x4096 8192x8192 2304x2048 5120x1024 7000x3000 1536x4096; do
  ROWS="$ROWS;f16 tt ${m}x${nk}"
done; done
ROWS="${ROWS#;};f16 tt 7x4097x4093;f16 tt 12x11009x4093;bf16 tt 8x4096x4096;f16 tn 16x1536x16384;f16 tn 16x1536x4096"
step 90 rows $H every artifacts/every --rows "$ROWS" --out $O/r/rows.json > $O/r/rows.txt 2>&1
grep -E "rows, " $O/r/rows.txt
step 150 every $H every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
