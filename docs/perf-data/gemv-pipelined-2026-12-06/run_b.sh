#!/usr/bin/env bash
# GPU run 2 (2026-12-06, twenty-ninth stop): 9-16 rows against few
# gemv-mma-16 blocks (33 to 65 of 16 x 32: N 1056-2080) and long K, where
# f16 tn 16x1536x16384 ran at 0.70x cuBLAS in run 1. decodetn1: the
# families as shipped (gemv-mma-16 from 33 blocks); decodetnB: gemv-mma-16
# from half the SMs (66 blocks), the decode members (cluster, split) below.
# Here first: decodetn1 as in run_a.sh; decodetnB the same set built with
# gemv-mma-16's blocks_min = halfSMs in Dispatch.cpp (a throwaway edit);
#   for s in decodetn1 decodetnB; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/gemv-pipelined-2026-12-06/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in decodetn1 decodetnB; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
ROWS=""
for m in 9 12 16; do for n in 1056 1536 2048; do for k in 4096 8192 16384; do
  ROWS="$ROWS;f16 tn ${m}x${n}x${k}"
done; done; done
for s in 16x1536x16384 12x2048x8192 16x1056x4096; do ROWS="$ROWS;bf16 tn $s;f16 tt $s"; done
ROWS="${ROWS#;}"
n=0
for i in 1 B B 1; do
  step 80 rows$i $H every artifacts/decodetn$i --rows "$ROWS" --out $O/r/rows$i-$((++n)).json > $O/r/rows$i-$n.txt 2>&1
  grep -E "rows, " $O/r/rows$i-$n.txt
done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
