#!/usr/bin/env bash
# GPU run 2 (2026-12-07, thirty-seventh stop): the f8 families with their
# persistent-pairs member (the default tile as persistent blocks in
# multicast pairs past one wave) beside the same families before it
# (`_old`). Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh f8pairs    # before the rule -> f8old
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh f8pairs    # with it
#   python3 docs/perf-data/transpose-2026-12-05/merge_old.py artifacts/f8old artifacts/f8pairs
#   tar cJf artifacts/pack/f8pairs.tar.xz -C artifacts f8pairs
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/mcpersist-2026-12-07/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin f8pairs
H="python3 -m gemm_mlir.harness"
A=artifacts/f8pairs
step 100 check $H check $A --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -8
d() { local l=$1 s=$2 k=$3; step 30 "duel $l $s" $H duel $A --kernels $k --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$l-$s-${k%%,*}.json >> $O/r/duel.txt 2>&1; }
for s in 4096x4096x4096 8192x8192x8192 4096x14336x4096 4099x4097x4096 2048x2048x4096; do d tn $s g_f8_tn_none,g_f8_tn_none_old; done
for s in 4096x4096x4096; do d nn $s g_f8_nn_none,g_f8_nn_none_old; done
cut -c1-130 $O/r/duel.txt | grep -v "^duel"
gpu_end
