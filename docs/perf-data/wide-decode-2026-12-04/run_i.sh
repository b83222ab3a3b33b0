#!/usr/bin/env bash
# GPU run 8b (2026-12-04): run_h.sh's wide rows alone (its row list lacked
# a separator): the wide-decode rows and the rows past the first members'
# bounds on the family as committed (artifacts/every).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. "$here/rows.sh"
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1
ls artifacts/every/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$WIDE; $PAST" --out $O/r/wide.json > $O/r/wide.txt 2>&1; echo "wide rc $?"
grep -v "^device\|^ " $O/r/wide.txt | cut -c1-200
