#!/usr/bin/env bash
# GPU run 2: the full correctness matrix on every family (ragged shapes,
# M = 1, K = 1, every epilogue), the new rows included (harness.py
# FULL_SHAPES), and on the sweep's explicit configs.
set -uo pipefail
cd "$(dirname "$0")/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || OUT=$O/rt ./scripts/gpu_run.sh every runtime > $O/runtime.log 2>&1
ls artifacts/every/g_*/*.cubin >/dev/null 2>&1 || ls artifacts/every/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
timeout 420 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/check-every.json > $O/check-every.txt 2>&1; echo "check rc $?"; tail -4 $O/check-every.txt
grep -E "FAIL|WRONG" $O/check-every.txt | head -20
