#!/usr/bin/env bash
# GPU run 2 (2026-12-05, twenty-second stop): the final families
# (artifacts/every: two loads a lane for 16 rows except on grids of 265-396
# blocks, gemv-mma-16-n-unaligned-many) beside run 1's (everyu2: two loads
# on every grid) and 8e59f9a's (everyprev: one load): 34 rows of 9-16 rows
# and odd N across the grids on each, then on the final families check
# --shapes full of nn and nt, the every list and the random probe. Each
# step gets what is left of a 560 s budget.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
# everyu2 only where packed: the families of run 1 (two loads on every
# grid) were never committed.
sets="every everyprev"; [ -f artifacts/pack/everyu2.tar.xz ] && sets="every everyu2 everyprev"
for s in $sets; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
ROWS=""
for mk in 16x4096 9x1024 12x2048; do
  m=${mk%x*}; k=${mk#*x}
  # 201, 241, 264, 273, 301, 341, 396, 401, 501, 705 blocks of 32 columns
  for n in 6401 7681 8447 8705 9601 10881 12671 12801 16001 22529; do
    ROWS="$ROWS;f16 nn ${m}x${n}x${k}"
  done
done
ROWS="${ROWS#;};bf16 nt 14x9601x3000;f16 nt 16x12001x4096;bf16 nn 2x12x7001x2048;bf16 nn 3x16x5001x1024"
for s in $sets; do
  step 100 rows-$s python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s.json > $O/r/rows-$s.txt 2>&1
done
grep -E "rows, " $O/r/rows-*.txt
for l in nn nt; do
  step 120 check-$l python3 -m gemm_mlir.harness check artifacts/every --shapes full --only ${l}_ --out $O/r/check-$l.json > $O/r/check-$l.txt 2>&1
  tail -1 $O/r/check-$l.txt; grep -v "^ " $O/r/check-$l.txt | grep -v "^ok" | cut -c1-300 | head -5
done
step 150 every python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
step 150 probe python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1
grep -E "rows, |min ratio" $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
