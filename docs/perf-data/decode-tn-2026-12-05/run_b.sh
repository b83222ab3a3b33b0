#!/usr/bin/env bash
# GPU run 2 (2026-12-05, twenty-fourth stop): the final families. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every     # with the change, renamed everynew
#   (artifacts/every: cf0eb24; artifacts/everyhead: acc7f79, as in run 1)
#   for s in every everyhead everynew; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/decode-tn-2026-12-05/run_b.sh
# 1. tn: the final rules (decode-wgmma, decode-wgmma-16 and their
#    -two-waves) against cf0eb24's families on run 1's tn rows;
# 2. nn: the final families (decode-wgmma-n on the new grids, gemv-mma-n
#    back to loading U stretches at once) against acc7f79's (the same
#    gemv-mma-n kernels) on run 1's nn rows and odd-N rows;
# First check of the tn families (the new kernel), last 3. the every list on
# the final families, check of the nn families, then the probe; what the
# device time left allows (GPU_BUDGET_S).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
check() {
  step 120 check-$1 python3 -m gemm_mlir.harness check artifacts/everynew --shapes full --only $1_ --out $O/r/check-$1.json > $O/r/check-$1.txt 2>&1
  tail -1 $O/r/check-$1.txt; grep -v "^ " $O/r/check-$1.txt | grep -v "^ok" | cut -c1-300 | head -5
}
for s in every everyhead everynew; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
check tn
. "$here/rows.sh"
final_rows
for s in everynew every; do
  step 70 tn-$s python3 -m gemm_mlir.harness every artifacts/$s --rows "$TN" --out $O/r/tn-$s.json > $O/r/tn-$s.txt 2>&1
  grep -E "rows, " $O/r/tn-$s.txt
done
for s in everynew everyhead; do
  step 60 nn-$s python3 -m gemm_mlir.harness every artifacts/$s --rows "$NN" --out $O/r/nn-$s.json > $O/r/nn-$s.txt 2>&1
  grep -E "rows, " $O/r/nn-$s.txt
done
step 100 every python3 -m gemm_mlir.harness every artifacts/everynew --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
check nn
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
step 90 probe python3 -m gemm_mlir.harness every artifacts/everynew --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1
grep -E "rows, " $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
