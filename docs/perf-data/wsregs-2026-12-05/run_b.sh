#!/usr/bin/env bash
# GPU run 2 (2026-12-05, twenty-sixth stop): the state as committed
# (e3df0a4: entry registers fixed where a warp-specialized block fills the
# SM, f8 partial sums of up to two warpgroups over 256 of K, the pack
# kernel's shifted copies) against 2f28859 (everyold), on the every list;
# the f16/f8 warp-specialized kernels with (wsr1) and without (wsr0) the
# fixed entry registers; the correctness matrix of the new families. Here:
#   at e3df0a4: CHIP=sm_90a ./scripts/gpu_artifacts.sh every   # renamed everyfin
#   (everyold: 2f28859's every set; wsr0, wsr1: run_a.sh)
#   for s in everyfin everyold wsr0 wsr1; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/wsregs-2026-12-05/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in everyfin everyold wsr0 wsr1; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
every() {
  for s in "$@"; do
    step 110 e-$s python3 -m gemm_mlir.harness every artifacts/${s%[12]} --out $O/r/e-$s.json > $O/r/e-$s.txt 2>&1
    grep -A14 "rows, " $O/r/e-$s.txt | head -15
  done
}
bench() {
  for s in "$@"; do
    step 70 b-$s python3 -m gemm_mlir.harness bench artifacts/${s%[12]} --dtypes f16,f8 --out $O/r/b-$s.json > $O/r/b-$s.txt 2>&1
  done
}
every everyfin1 everyold1
bench wsr01 wsr11
step 150 check python3 -m gemm_mlir.harness check artifacts/everyfin --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1
tail -2 $O/r/check.txt
bench wsr12 wsr02
every everyold2 everyfin2
python3 "$here/table.py" $O/r 2>/dev/null | grep -E 'kernel|_t[4678] |_to2[123] |g_f8_tn_none |g_f16_(tn|nn)_none ' | head -40
for f in $O/r/*.json; do gzip -9 $f; done
python3 docs/perf-data/decode-tn-2026-12-05/compare.py $O/r/e-everyold1.json.gz,$O/r/e-everyold2.json.gz $O/r/e-everyfin1.json.gz,$O/r/e-everyfin2.json.gz 2>&1 | tail -25
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
