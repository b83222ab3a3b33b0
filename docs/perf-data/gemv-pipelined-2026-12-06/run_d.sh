#!/usr/bin/env bash
# GPU run 4 (2026-12-06, twenty-ninth stop): run 3 had f16 tn and tt
# 16x4096x11008 3-8% slower in decodetnC1/C2 than in decodetn1 with the
# same kernel (identical PTX) and the same grid. Are the rows before them
# (split-K rows in C1/C2: workspace allocations) what moves them? The two
# rows first, then run 3's split rows, then the two rows again, in both
# families. Artifacts as run_c.sh (decodetn1, decodetnC1 packed).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in decodetn1 decodetnC1; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
H="python3 -m gemm_mlir.harness"
TWO="f16 tn 16x4096x11008;f16 tt 16x4096x11008;bf16 tt 16x4096x11008"
SPLIT="f16 tn 16x1536x8192;f16 tn 12x1056x7168;f16 tn 9x2048x16384;f16 tn 16x1536x16384"
ROWS="$TWO;$SPLIT;$TWO"
n=0
for i in 1 C1 C1 1; do
  step 60 rows$i $H every artifacts/decodetn$i --rows "$ROWS" --out $O/r/rows$i-$((++n)).json > $O/r/rows$i-$n.txt 2>&1
  grep -E "16x4096x11008 " $O/r/rows$i-$n.txt | cut -c1-100
done
tar czf $O/all.tgz -C $O r
