#!/usr/bin/env bash
# GPU run 8 (2026-12-04): the family with decode-192x128, K >= 512 and
# up to 256 rows (artifacts/every): the runtime's checks, the every list, the
# wide-decode rows, and the full correctness matrix.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. "$here/rows.sh"
OUT=$O/r/ev ./scripts/gpu_run.sh every every > $O/r/every.log 2>&1; echo "every rc $?"
grep -E "rows,|min ratio|geomean|WRONG|^decode_wide" $O/r/ev/every.txt | cut -c1-220
timeout 170 python3 -m gemm_mlir.harness every artifacts/every --rows "$WIDE; $PAST" --out $O/r/wide.json > $O/r/wide.txt 2>&1; echo "wide rc $?"
grep -v "^device\|^ " $O/r/wide.txt | cut -c1-200
timeout 300 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check rc $?"; tail -2 $O/r/check-every.txt
grep -E "FAIL|WRONG" $O/r/check-every.txt | head -20
tar czf $O/all.tgz -C $O r
