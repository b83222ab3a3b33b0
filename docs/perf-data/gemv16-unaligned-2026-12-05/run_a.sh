#!/usr/bin/env bash
# GPU run 1 (2026-12-05, twenty-second stop): the families with the 16 x
# 32 gemv-mma tile of two loads a lane for misaligned B rows
# (gemv-mma-16-n-unaligned, artifacts/every) beside those of 8e59f9a
# (artifacts/everyprev, renamed): correctness of the nn and nt families
# (check --shapes full), 9-16-row odd-N rows on both, then on the new
# families the every list and the random probe (run 7 of
# docs/perf-data/unaligned-2026-12-04, which never ran). Each step gets
# what is left of a 560 s budget.
# Here first: CHIP=sm_90a ./scripts/gpu_artifacts.sh every (at both
# commits; the first renamed everyprev), packed as artifacts/pack/SET.tar.xz.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in every everyprev; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
for l in nn nt; do
  step 120 check-$l python3 -m gemm_mlir.harness check artifacts/every --shapes full --only ${l}_ --out $O/r/check-$l.json > $O/r/check-$l.txt 2>&1
  tail -1 $O/r/check-$l.txt; grep -v "^ " $O/r/check-$l.txt | grep -v "^ok" | cut -c1-300 | head -5
done
ROWS="f16 nn 16x8193x8192;f16 nn 16x7001x4096;f16 nn 12x6337x4096;f16 nn 9x9999x1000;f16 nn 13x12001x2048;f16 nn 16x16001x4096;f16 nn 16x30001x1024;f16 nn 11x8417x11008;bf16 nt 14x7001x3000;f16 nt 16x10001x4096;bf16 nn 2x12x7001x2048;f16 nn 10x6401x300;f16 nn 16x8192x4096;f16 nn 12x5001x3000"
for s in every everyprev; do
  step 90 rows-$s python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s.json > $O/r/rows-$s.txt 2>&1
done
grep -E "rows, " $O/r/rows-*.txt
step 150 every python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
step 150 probe python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1
grep -E "rows, |min ratio" $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
