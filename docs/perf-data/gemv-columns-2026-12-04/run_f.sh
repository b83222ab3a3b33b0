#!/usr/bin/env bash
# GPU run 6 (2026-12-04): the gemv set at 9bef186 (gemv-mma and
# gemv-columns sharing emitWarpSumsEpilogue): check --shapes full.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh gemv runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
ls artifacts/gemv/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
timeout 200 python3 -m gemm_mlir.harness check artifacts/gemv --shapes full --out $O/r/check-gemv.json > $O/r/check-gemv.txt 2>&1; echo "check rc $?"; tail -1 $O/r/check-gemv.txt
grep -E "FAIL|WRONG" $O/r/check-gemv.txt | head
gzip -9 $O/r/check-gemv.json
