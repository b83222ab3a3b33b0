#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/rt ./scripts/gpu_run.sh every runtime > $O/runtime-every.log 2>&1; echo "runtime rc $?"; tail -1 $O/runtime-every.log
ls artifacts/old/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
python3 artifacts/go/cmp2.py $O/cmp-m2.json > $O/cmp-m2.txt 2>&1; echo "cmp rc $?"; cat $O/cmp-m2.txt
python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/check-every.json > $O/check-every.txt 2>&1; echo "check every rc $?"; tail -1 $O/check-every.txt
python3 -m gemm_mlir.harness every artifacts/every --out $O/every.json > $O/every.txt 2>&1; echo "every rc $?"; grep -E "rows,|min ratio|geomean|decode .*copy" $O/every.txt
