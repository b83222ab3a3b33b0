#!/usr/bin/env bash
# GPU run 1 (2026-12-04, sixteenth stop): the random probe (gen_rows.py's
# 96 rows) on the families as committed at e292e67 (artifacts/every), and
# the tile sweep (artifacts/medsweep) on 129 to 256 rows below one wave.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; tail -3 $O/r/runtime.log
ls artifacts/medsweep/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
for s in 200x4096x4096 224x4096x4096 256x4096x4096 256x2048x8192 200x2560x4096 240x4096x1024; do
  timeout 100 python3 -m gemm_mlir.harness bench artifacts/medsweep --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
  echo "== sweep $s rc $?"; grep -E "ratio|md[0-9]" $O/r/sweep-$s.txt | cut -c1-150
done
ROWS=$(python3 $here/gen_rows.py)
timeout 400 python3 -m gemm_mlir.harness every artifacts/every --rows "$ROWS" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"
grep -v "^device\|^ " $O/r/probe.txt | cut -c1-200
tar czf $O/all.tgz -C $O r
