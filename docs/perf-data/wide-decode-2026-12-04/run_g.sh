#!/usr/bin/env bash
# GPU run 7 (2026-12-04): past the wide decode members' bounds: 129 to 256
# rows and K below 1024. The family as committed (artifacts/every) on those
# rows, and the tile sweep (artifacts/medsweep, md0-md13) on them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"
ls artifacts/medsweep/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
S="129x11008x4096 192x11008x4096 256x4096x4096 160x4096x4096 64x4096x1000 96x4096x768 48x8192x768"
R=""; for s in $S; do R="$R f16 tn $s;"; done
python3 -m gemm_mlir.harness every artifacts/every --rows "$R" --out $O/r/past.json 2>&1 | grep -E "^custom|geomean"
for s in $S; do
  timeout 80 python3 -m gemm_mlir.harness bench artifacts/medsweep --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
  echo "== $s"; grep -E "_tn_.*ratio" $O/r/sweep-$s.txt | sed -E 's/ +/ /g' | cut -d' ' -f1,7,9 | tr '\n' ' '; echo
done
tar czf $O/all.tgz -C $O r
