#!/usr/bin/env bash
# GPU run 3 (2026-12-05, twenty-fourth stop): run_b.sh's timings without
# its checks (run 2 did them), the rows in both orders. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every     # with the change, renamed everynew
#   (artifacts/every: cf0eb24; artifacts/everyhead: acc7f79, as in run 1)
#   for s in every everyhead everynew; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/decode-tn-2026-12-05/run_c.sh
# 1. tn: the final rules (decode-wgmma, decode-wgmma-16 and their
#    -two-waves) against cf0eb24's families on run 1's tn rows;
# 2. nn: the final families (decode-wgmma-n on the new grids, gemv-mma-n
#    back to loading U stretches at once) against acc7f79's (the same
#    gemv-mma-n kernels) on run 1's nn rows and odd-N rows;
# 3. the every list on the final families (after the first order), then
#    the probe; what the device time left allows (GPU_BUDGET_S).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in every everyhead everynew; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
. "$here/rows.sh"
final_rows
rows() {
  for s in "$@"; do
    if [ "${s#nn-}" != "$s" ]; then R=$NN; else R=$TN; fi
    t=${s#*-}
    step 60 $s python3 -m gemm_mlir.harness every artifacts/${t%2} --rows "$R" --out $O/r/$s.json > $O/r/$s.txt 2>&1
    grep -E "rows, " $O/r/$s.txt
  done
}
rows tn-everynew tn-every nn-everynew nn-everyhead
step 100 every python3 -m gemm_mlir.harness every artifacts/everynew --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
rows tn-every2 tn-everynew2 nn-everyhead2 nn-everynew2
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
step 90 probe python3 -m gemm_mlir.harness every artifacts/everynew --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1
grep -E "rows, " $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
