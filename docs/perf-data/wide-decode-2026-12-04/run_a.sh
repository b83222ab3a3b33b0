#!/usr/bin/env bash
# GPU run 1: the every list on the family with the wide-decode members (and
# the runtime's own checks), the wide-decode rows on the family before them
# (artifacts/base) and after, the tile sweep (artifacts/medsweep).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. "$here/rows.sh"
OUT=$O/ev ./scripts/gpu_run.sh every every > $O/every.log 2>&1; echo "every rc $?"
grep -E "rows,|min ratio|geomean|WRONG|decode_wide" $O/ev/every.txt | cut -c1-200 | head -60
for s in base medsweep; do ls artifacts/$s/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'; done
python3 -m gemm_mlir.harness every artifacts/base --rows "$WIDE" --out $O/wide-base.json > $O/wide-base.txt 2>&1; echo "base rc $?"
python3 -m gemm_mlir.harness every artifacts/every --rows "$WIDE" --out $O/wide.json > $O/wide.txt 2>&1; echo "wide rc $?"
paste -d'|' <(cut -c1-120 $O/wide-base.txt) <(cut -c40-250 $O/wide.txt) | grep -v "^device"
for s in 64x4096x4096 128x4096x4096 48x14336x4096 64x11008x4096 128x11008x4096 64x4096x11008 96x4096x4096 32x4096x4096; do
  python3 -m gemm_mlir.harness bench artifacts/medsweep --shape $s --dtypes f16 --out $O/sweep-$s.json
done > $O/sweep.txt 2>&1; echo "sweep rc $?"
grep -vE "^(device|gpu)" $O/sweep.txt | cut -c1-160 | head -120
