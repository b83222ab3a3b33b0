#!/usr/bin/env bash
# GPU run 7 (2026-12-06, twenty-ninth stop): 3-8 rows in tt, where
# gemv-mma reads A (K x M) element by element (run 1: f16 tt 8x4096x4096
# 16.8 us against cuBLAS's 12.0). decodetnF: the families with the final
# rules of this stop; decodetnD: the same without gemv-mma in tt (the
# decode members take 3-8 rows there), built through a throwaway edit.
#   for s in decodetnF decodetnD; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/gemv-pipelined-2026-12-06/run_g.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in decodetnF decodetnD; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
H="python3 -m gemm_mlir.harness"
ROWS=""
for m in 3 5 8; do for nk in 4096x4096 4096x11008 11008x4096 8192x8192 14336x4096 32000x4096 2304x2048 5120x1024 1056x4096 7000x3000; do
  ROWS="$ROWS;f16 tt ${m}x${nk}"
done; done
ROWS="${ROWS#;};bf16 tt 8x4096x4096;bf16 tt 4x14336x4096;f16 tt 7x4097x4093"
n=0
for i in F D D F; do
  step 80 rows$i $H every artifacts/decodetn$i --rows "$ROWS" --out $O/r/rows$i-$((++n)).json > $O/r/rows$i-$n.txt 2>&1
  grep -E "rows, " $O/r/rows$i-$n.txt
done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
