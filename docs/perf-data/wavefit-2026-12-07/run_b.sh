#!/usr/bin/env bash
# GPU run 2 (written in the thirty-ninth stop; never run: the fortieth stop
# ran its checks and duels in docs/perf-data/persistent-2026-12-07 instead. No device was
# lent after run 1): the families with the wave-fit member (e9b224a or
# later): the every set checked on the full shape list, issue 13's every
# list (with its new waves class), the f16/bf16 large shapes, and the
# family against cuBLAS on the grids wave-fit takes and on controls; then
# the 128 x 192 tiles of the wavefit set (nt, bf16 nn and nn with five
# stages added since run 1) checked, so that nt can join the rule. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh wavefit
#   tar cJf artifacts/pack/every.tar.xz -C artifacts every  (wavefit likewise)
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/wavefit-2026-12-07/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every wavefit
H="python3 -m gemm_mlir.harness"
A=artifacts/every
d() { local l=$1 s=$2 k=$3; step 30 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
for s in 3072x3072x4096 2304x2304x4096 3840x3840x4096 1536x9216x4096 65536x129x4096 3072x3072x1024 2560x2560x4096; do d tn $s g_f16_tn_none; done
d nn 3072x3072x4096 g_f16_nn_none
d tn 3072x3072x4096 g_bf16_tn_none
cut -c1-110 $O/r/duel.txt | grep -v "^duel"
step 80 bench-16 $H bench $A --dtypes f16,bf16 --out $O/r/bench-16.json > $O/r/bench-16.txt 2>&1
grep ratio $O/r/bench-16.txt | cut -c1-140
step 170 every $H every $A --out $O/r/every.json > $O/r/every.txt 2>&1
grep -E "rows,|min ratio|geomean|WRONG|copy" $O/r/every.txt | grep -v "^decode\|^decode_wide" | cut -c1-200 | head -8
grep -E "^decode " $O/r/every.txt | cut -c1-200
step 170 check $H check $A --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -5
step 90 check-wf $H check artifacts/wavefit --shapes full --out $O/r/check-wf.json > $O/r/check-wf.txt 2>&1; tail -1 $O/r/check-wf.txt; grep -v "^ok" $O/r/check-wf.txt | head -5
gpu_end
