#!/usr/bin/env bash
# GPU run 2 (2026-12-07, thirty-eighth stop): the f8 families with the
# two-warpgroups member (128 x 192, two compute warpgroups, five stages,
# past one wave) beside the families before it (`_old`: with the
# persistent-pairs member of the thirty-seventh stop). Here:
#   (artifacts/f8cur: the f8pairs set built at 33b833e, without its _old kernels)
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh f8pairs && mv artifacts/f8pairs artifacts/f8two
#   python3 docs/perf-data/transpose-2026-12-05/merge_old.py artifacts/f8cur artifacts/f8two
#   tar cJf artifacts/pack/f8two.tar.xz -C artifacts f8two
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/f8n192-2026-12-07/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin f8two
H="python3 -m gemm_mlir.harness"
A=artifacts/f8two
d() { local l=$1 s=$2 k=$3; step 40 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
for s in 4096x4096x4096 8192x8192x8192 4096x14336x4096 6144x6144x6144 2048x2048x8192 2048x2048x4096 1024x4096x4096 3008x5008x4096 8192x2048x8192 16384x4096x4096; do
  d tn $s g_f8_tn_none,g_f8_tn_none_old; done
d nn 4096x4096x4096 g_f8_nn_none,g_f8_nn_none_old
cut -c1-130 $O/r/duel.txt | grep -v "^duel"
step 150 check $H check $A --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -8
gpu_end
