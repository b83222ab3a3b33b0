#!/usr/bin/env bash
# GPU run 2 (2026-12-07, fortieth stop): after run 1, the persistent
# member's K bound lowered to 1024 (where the persist4 run had measured
# 8192 x 8192 x 1024 3.4% faster) and wave-fit in nt (run 1 checked nt's
# 128 x 192 tile). The families before (every0, at ce58114, as run_a.sh
# says) and with both (every, at this commit), each against cuBLAS in turns
# on K = 1024-2048 whole-tile grids and nt wave-fit grids. Here:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   tar cJf artifacts/pack/every.tar.xz -C artifacts every  (every0 as run_a.sh)
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/persistent-2026-12-07/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every0 every
H="python3 -m gemm_mlir.harness"
d() { local dt=$1 l=$2 s=$3 a
  for a in every0 every; do
    step 30 "duel $a $dt $l $s" $H duel artifacts/$a --kernels g_${dt}_${l}_none --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$a-$dt-$l-$s.json >> $O/r/duel-$a.txt 2>&1
  done; }
for s in 8192x8192x1024 4096x4096x1024 4096x11008x1024 12288x4096x2048; do d f16 tn $s; done
d f16 nt 3072x3072x4096; d bf16 nt 2304x2304x4096
for a in every0 every; do echo "== $a"; grep -v "^cublas" $O/r/duel-$a.txt | cut -c1-110; done
gpu_end
