#!/usr/bin/env bash
# GPU run 2 (2026-12-05, twenty-third stop): the families with the
# per-stretch slow paths of gemv-mma and decode-tma-n (artifacts/every, at
# 2e4a6be) beside
# acc7f79's (artifacts/everyhead), same process: the every list, decode
# rows (the decode-large suite and the every list's decode shapes, f16 and
# bf16, tn and nn), the random probe, then check --shapes full of the tn
# and tt families. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every     # at each commit; acc7f79's renamed everyhead
#   for s in every everyhead; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/decode-large-2026-12-05/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in every everyhead; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
ROWS=""
for dt in f16 bf16; do for l in tn nn; do
  for m in 4 8 12 16; do for nk in 6144x4096 8192x8192 10240x8192 32000x4096 28672x8192 8192x28672; do
    ROWS="$ROWS;$dt $l ${m}x$nk"
  done; done
  for s in 16x4096x11008 4x14336x4096 8x11008x4096 16x4096x4096 8x4096x4096 12x2048x8192 16x11008x4096 11x4097x4093 13x8191x4096; do
    ROWS="$ROWS;$dt $l $s"
  done
done; done
ROWS="${ROWS#;}"
for s in every everyhead; do
  step 75 rows-$s python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s.json > $O/r/rows-$s.txt 2>&1
  grep -E "rows, " $O/r/rows-$s.txt
done
for s in every everyhead; do
  step 100 every-$s python3 -m gemm_mlir.harness every artifacts/$s --out $O/r/every-$s.json > $O/r/every-$s.txt 2>&1
  grep -A12 "rows, " $O/r/every-$s.txt | head -13
done
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
for s in every everyhead; do
  step 90 probe-$s python3 -m gemm_mlir.harness every artifacts/$s --rows "$PROBE" --out $O/r/probe-$s.json > $O/r/probe-$s.txt 2>&1
  grep -E "rows, |min ratio" $O/r/probe-$s.txt
done
for l in tn tt; do
  step 100 check-$l python3 -m gemm_mlir.harness check artifacts/every --shapes full --only ${l}_ --out $O/r/check-$l.json > $O/r/check-$l.txt 2>&1
  tail -1 $O/r/check-$l.txt; grep -v "^ " $O/r/check-$l.txt | grep -v "^ok" | cut -c1-300 | head -5
done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt
tar czf $O/all.tgz -C $O r
