#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-sixth stop): 9 to 16 rows against a B
# stored K x N whose rows rule out 16-byte loads (odd N), where the family
# takes gemv-mma-16-n-unaligned-narrow (16 columns, 4-byte loads; 48-55% of
# the copy on 11x4097x4093 nn): the gemv-mma tiles of 16 rows by 16, 32
# and 64 columns (the 64-column ones read shifted 16-byte columns since
# the shifted-columns patch), each row a duel with the family and cuBLAS.
# Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh gemvmmacols
#   cp -r artifacts/everysc/g_f16_nn_none artifacts/gemvmmacols/  (+ its cases.json entry)
#   tar cJf artifacts/pack/gemvmmacols.tar.xz -C artifacts gemvmmacols
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/odd-n-16-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin gemvmmacols
H="python3 -m gemm_mlir.harness"
A=artifacts/gemvmmacols
K=g_f16_nn_none
for i in 7 8 9 10 11 12 13 14 15; do K=$K,g_f16_nn_none_gq$i; done
for s in 11x4097x4093 16x4097x4093 9x4097x4093 13x4097x11007 16x5121x4096 12x8193x4096 16x11009x4096 16x4097x2047; do
  step 40 "nn $s" $H duel $A --kernels $K --layout nn --shape $s --reps 30 --out $O/r/d-nn-$s.json >> $O/r/duel.txt 2>&1
done
cut -c1-120 $O/r/duel.txt
gpu_end
# Run 2 (run_b.sh) profiles the family against gq7.
