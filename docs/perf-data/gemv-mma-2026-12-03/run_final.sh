#!/usr/bin/env bash
# GPU run: the family with gemv-mma. The every list (and the runtime's own
# checks), then the full correctness matrix on the family.
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/ev ./scripts/gpu_run.sh every every > $O/every.log 2>&1; echo "every rc $?"
grep -E "rows,|min ratio|geomean|decode .*copy|gemv" $O/ev/every.txt | head -40
timeout 330 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/check-every.json > $O/check-every.txt 2>&1; echo "check rc $?"; tail -3 $O/check-every.txt
