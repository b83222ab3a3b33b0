#!/usr/bin/env bash
# GPU run 1 (2026-12-06, twenty-ninth stop): gemv on mma.sync with its
# 16-byte loads double-buffered in registers (stages = 2), issue 13's
# decode rows. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh decodetn   # before the dispatch change: decodetn1
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh decodetn   # gemv-mma members at stages = 2: decodetn2
#   decodetn3: decodetn2 with .minnctapersm 4 (8-row) / 2 (16-row) on those members
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh gemv
#   for s in decodetn1 decodetn2 decodetn3 gemv; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/gemv-pipelined-2026-12-06/run_a.sh
# 1. check --shapes full of the gemv set (stage-2 configs added);
# 2. the decode rows on the three families, in turns (1 2 3, then 3 2 1).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in decodetn1 decodetn2 decodetn3 gemv; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
ROWS=""
for s in 16x4096x11008 16x4096x4096 12x4096x4096 8x4096x4096 4x4096x4096 3x4096x4096 \
         16x8192x8192 8x8192x8192 16x6144x4096 4x6144x4096 16x2048x8192 8x2048x8192 \
         16x1536x16384 11x4097x4093 3x9000x1500 16x32000x4096 8x22528x4096 16x11008x2048 \
         9x5120x5120 13x3000x7000; do
  ROWS="$ROWS;f16 tn $s"
done
for s in 16x4096x11008 8x4096x4096 16x8192x8192 11x4097x4093; do ROWS="$ROWS;bf16 tn $s"; done
for s in 16x4096x11008 8x4096x4096 16x32000x4096 5x7000x3000; do ROWS="$ROWS;f16 tt $s"; done
ROWS="${ROWS#;}"
n=0
for i in 1 2 3 3 2 1; do
  step 70 rows$i $H every artifacts/decodetn$i --rows "$ROWS" --out $O/r/rows$i-$((++n)).json > $O/r/rows$i-$n.txt 2>&1
  grep -E "rows, " $O/r/rows$i-$n.txt
done
step 200 check-gemv $H check artifacts/gemv --shapes full --out $O/r/check-gemv.json > $O/r/check-gemv.txt 2>&1
tail -1 $O/r/check-gemv.txt; grep -v "^ " $O/r/check-gemv.txt | grep -v "^ok" | cut -c1-300 | head -5
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
