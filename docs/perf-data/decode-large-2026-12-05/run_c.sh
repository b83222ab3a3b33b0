#!/usr/bin/env bash
# GPU run 3 (2026-12-05, twenty-third stop): decode-wgmma-n (decode-64x128's
# tile on cp.async; artifacts/every at the stop's final commit) against
# acc7f79's families (artifacts/everyhead), same process: the nn decode
# rows of run 2 twice each, alternating, then the every list and check of
# the nn and nt families on the final ones. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every   # at the final commit
#   for s in every everyhead; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/decode-large-2026-12-05/run_c.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in every everyhead; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
ROWS=""
for dt in f16 bf16; do
  for m in 4 8 12 16; do for nk in 6144x4096 8192x8192 10240x8192 32000x4096 28672x8192 8192x28672; do
    ROWS="$ROWS;$dt nn ${m}x$nk"
  done; done
  for s in 4x14336x4096 8x11008x4096 16x11008x4096 3x7169x4096 16x7168x8192; do ROWS="$ROWS;$dt nn $s"; done
  ROWS="$ROWS;$dt nt 8x11008x4096;$dt nt 12x28672x8192"
done
ROWS="${ROWS#;}"
for i in 1 2; do for s in every everyhead; do
  step 60 rows-$s-$i python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s-$i.json > $O/r/rows-$s-$i.txt 2>&1
  grep -E "rows, " $O/r/rows-$s-$i.txt
done; done
step 90 every python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
for l in nn nt; do
  step 100 check-$l python3 -m gemm_mlir.harness check artifacts/every --shapes full --only ${l}_ --out $O/r/check-$l.json > $O/r/check-$l.txt 2>&1
  tail -1 $O/r/check-$l.txt; grep -v "^ " $O/r/check-$l.txt | grep -v "^ok" | cut -c1-300 | head -5
done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
