#!/usr/bin/env bash
# GPU run 2 (2026-12-04): the tile sweep (artifacts/medsweep) on the shapes
# of 65 to 128 rows with N = 4096 and on 64x4096x4096 again (same process
# as the family's member, see below), then the wide-decode rows on the
# family before the wide-decode members (artifacts/base) and after
# (artifacts/every). Everything is printed and bundled into $OUT/all.tgz
# (the device returns at most 8 files).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. "$here/rows.sh"
OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; tail -3 $O/r/runtime.log
for s in base medsweep; do ls artifacts/$s/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'; done
for s in 64x4096x4096 96x4096x4096 96x4096x11008 80x4096x4096 128x4096x11008 80x11008x4096; do
  timeout 100 python3 -m gemm_mlir.harness bench artifacts/medsweep --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
  echo "== sweep $s rc $?"; grep -E "ratio|md[0-9]" $O/r/sweep-$s.txt | cut -c1-150
done
timeout 170 python3 -m gemm_mlir.harness every artifacts/base --rows "$WIDE" --out $O/r/wide-base.json > $O/r/wide-base.txt 2>&1; echo "base rc $?"
timeout 170 python3 -m gemm_mlir.harness every artifacts/every --rows "$WIDE" --out $O/r/wide.json > $O/r/wide.txt 2>&1; echo "wide rc $?"
paste -d'|' <(grep -v "^device\|^ " $O/r/wide-base.txt | cut -c1-100) <(grep -v "^device\|^ " $O/r/wide.txt | cut -c40-250)
tail -14 $O/r/wide.txt
tar czf $O/all.tgz -C $O r
