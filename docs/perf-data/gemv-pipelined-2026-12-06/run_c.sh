#!/usr/bin/env bash
# GPU run 3 (2026-12-06, twenty-ninth stop): the rules drawn from run 2.
# decodetn1: the families as shipped before; decodetnC1: gemv-mma-16 from
# half the SMs, gemv-mma-16-few (33-65 blocks) in tn with K <= 6144 only;
# decodetnC2: the same without gemv-mma-16 in tt (its A, strided, is read
# element by element; the decode members take 9-16 rows there). Here
# first: decodetnC1 and decodetnC2 are the decodetn set built with those
# rules (C2 through a throwaway switch in Dispatch.cpp);
#   for s in decodetn1 decodetnC1 decodetnC2; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/gemv-pipelined-2026-12-06/run_c.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in decodetn1 decodetnC1 decodetnC2; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
ROWS=""
for s in 16x1536x4096 16x1536x6144 16x1536x8192 12x1056x5120 12x1056x6144 12x1056x7168 \
         9x2048x16384 16x1536x16384 16x4096x11008 16x8192x8192; do ROWS="$ROWS;f16 tn $s"; done
for m in 9 12 16; do for nk in 4096x4096 4096x11008 11008x4096 8192x8192 32000x4096 2304x2048 5120x1024; do
  ROWS="$ROWS;f16 tt ${m}x${nk}"
done; done
for s in 16x1536x4096 12x1056x8192; do ROWS="$ROWS;f16 tt $s"; done
ROWS="$ROWS;bf16 tt 16x4096x11008;bf16 tt 12x8192x8192"
ROWS="${ROWS#;}"
n=0
for i in 1 C1 C2 C2 C1 1; do
  step 80 rows$i $H every artifacts/decodetn$i --rows "$ROWS" --out $O/r/rows$i-$((++n)).json > $O/r/rows$i-$n.txt 2>&1
  grep -E "rows, " $O/r/rows$i-$n.txt
done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
