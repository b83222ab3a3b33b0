#!/usr/bin/env bash
# GPU run 1 (2026-12-05, twenty-third stop). Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every      # at the stop's first commit
#   PYTHONPATH=python python3 -m gemm_mlir.tune prepare artifacts/tunelarge \
#       --chip sm_90a --suite decode-large --top -1 --dispatch
#   (tunelarge: plus the tiles of add_variants.py)
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh gemv        # with the change under test
#   tar cJf artifacts/pack/gemvv1.tar.xz -C artifacts gemv --transform 's,^gemv,gemvv1,'
#   for s in every tunelarge; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the H200 (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/decode-large-2026-12-05/run_a.sh
# 1. the tuner on the decode-large suite (M 4-16 against B of 50-470 MB,
#    every member of the f16 tn and nn families): where gemv-mma and the
#    pipelined tiles cross over;
# 2. check --shapes full of the gemv set with the change under test;
# 3. the 34 rows of gemv16-unaligned-2026-12-05/run_b.sh (9-16 rows, odd N,
#    201-705 blocks) on the final families of the twenty-second stop;
# 4. the every list on them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in every tunelarge gemvv1; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
step 220 measure python3 -m gemm_mlir.tune measure artifacts/tunelarge --results $O/r/tune > $O/r/measure.txt 2>&1
grep -E "BEST|FAIL|WRONG" $O/r/measure.txt | head -60
step 150 check-gemv python3 -m gemm_mlir.harness check artifacts/gemvv1 --shapes full --out $O/r/check-gemv.json > $O/r/check-gemv.txt 2>&1
tail -1 $O/r/check-gemv.txt; grep -v "^ " $O/r/check-gemv.txt | grep -v "^ok" | cut -c1-300 | head -5
ROWS=""
for mk in 16x4096 9x1024 12x2048; do
  m=${mk%x*}; k=${mk#*x}
  for n in 6401 7681 8447 8705 9601 10881 12671 12801 16001 22529; do
    ROWS="$ROWS;f16 nn ${m}x${n}x${k}"
  done
done
ROWS="${ROWS#;};bf16 nt 14x9601x3000;f16 nt 16x12001x4096;bf16 nn 2x12x7001x2048;bf16 nn 3x16x5001x1024"
step 90 rows python3 -m gemm_mlir.harness every artifacts/every --rows "$ROWS" --out $O/r/rows.json > $O/r/rows.txt 2>&1
grep -E "rows, " $O/r/rows.txt
step 170 every python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
for f in $O/r/*.json $O/r/tune/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
