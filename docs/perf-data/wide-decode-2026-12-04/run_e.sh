#!/usr/bin/env bash
# GPU run 4 (2026-12-04): md2 (64 x 64, 8 stages, group 1) against md11
# (the same with group = 8, as the family's decode-64x64 member), N = K = 4096.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/r/rt ./scripts/gpu_run.sh medsweep runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"
for s in 64x4096x4096 96x4096x4096 128x4096x4096 48x4096x4096; do
  python3 -m gemm_mlir.harness bench artifacts/medsweep --shape $s --dtypes f16 --out $O/r/sweep-$s.json 2>&1 | grep -E "md(2|11|0|6) "
done
tar czf $O/all.tgz -C $O r
