#!/usr/bin/env bash
# GPU run 4 (2026-12-04, nineteenth stop): 40 random rows of 3 to 16 rows
# against a B stored K x N (gen_rows.py, fixed seed: shapes in no list) on
# the final families (artifacts/every at 6ede1f5, the PTX of run 3) and
# on the families before this stop (everyold), same process.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every everyold; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
ROWS=$(python3 docs/perf-data/gemv-mma-nn-2026-12-04/gen_rows.py)
for s in every everyold; do
  timeout 200 python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/random-$s.json > $O/r/random-$s.txt 2>&1; echo "random $s rc $?"
done
grep -E "rows, |min ratio" $O/r/random-*.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
