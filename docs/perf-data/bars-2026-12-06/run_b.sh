#!/usr/bin/env bash
# GPU run 2 (2026-12-06, thirty-second stop): wide decode on few blocks
# (33 to 256 rows, N in the thousands: the decode_wide rows the dispatch
# gives 64 blocks on 132 SMs), the f16 tn / nn families against the WIDEDEC
# tiles (cases.py), each shape a duel with cuBLAS. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh widedec
#   tar cJf artifacts/pack/widedec.tar.xz -C artifacts widedec
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/bars-2026-12-06/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin widedec
H="python3 -m gemm_mlir.harness"
step 90 check $H check artifacts/widedec --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt
KT=g_f16_tn_none; KN=g_f16_nn_none
for i in 0 1 2 3 4 5 6 7 8 9; do KT=$KT,g_f16_tn_none_wd$i; done
for i in 0 1 4 5 6 7; do KN=$KN,g_f16_nn_none_wd$i; done
for s in 64x4096x4096 96x4096x11008 33x4096x4096 48x8192x8192 128x4096x4096 \
         128x4096x11008 200x4096x4096 80x5120x5120 64x2048x8192 160x4096x14336 96x3000x5000; do
  step 25 "tn $s" $H duel artifacts/widedec --kernels $KT --layout tn --shape $s --reps 30 --out $O/r/d-tn-$s.json >> $O/r/duel.txt 2>&1
  step 25 "nn $s" $H duel artifacts/widedec --kernels $KN --layout nn --shape $s --reps 30 --out $O/r/d-nn-$s.json >> $O/r/duel.txt 2>&1
done
cut -c1-160 $O/r/duel.txt
gpu_end
