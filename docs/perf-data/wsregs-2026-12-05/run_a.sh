#!/usr/bin/env bash
# GPU run (2026-12-05, twenty-sixth stop): warp-specialized kernels with
# their register count at entry fixed (.minnctapersm 1, so that ptxas
# honours setmaxnreg) and f8 partial sums promoted every 256 K instead of
# every k-tile. Here first (the `wsregs` case set):
#   GEMM_NO_MINCTASM=1 GEMM_PROMOTION_K=128 CHIP=sm_90a ./scripts/gpu_artifacts.sh wsregs  # -> wsr0 (as before)
#   GEMM_PROMOTION_K=128 CHIP=sm_90a ./scripts/gpu_artifacts.sh wsregs                     # -> wsr1
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh wsregs                                          # -> wsr2
#   for s in wsr0 wsr1 wsr2; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# (the two environment variables were switches of the experiment's build)
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/wsregs-2026-12-05/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in wsr0 wsr1 wsr2; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
bench() {
  for s in "$@"; do
    step 100 b-$s python3 -m gemm_mlir.harness bench artifacts/${s%[12]} --dtypes f16,f8 --out $O/r/b-$s.json > $O/r/b-$s.txt 2>&1
  done
}
bench wsr01 wsr11 wsr21
step 70 check2 python3 -m gemm_mlir.harness check artifacts/wsr2 --out $O/r/check2.json > $O/r/check2.txt 2>&1
tail -2 $O/r/check2.txt
step 50 check1 python3 -m gemm_mlir.harness check artifacts/wsr1 --out $O/r/check1.json > $O/r/check1.txt 2>&1
tail -2 $O/r/check1.txt
bench wsr22 wsr12 wsr02
python3 "$here/table.py" $O/r 2>&1 | tail -60
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
