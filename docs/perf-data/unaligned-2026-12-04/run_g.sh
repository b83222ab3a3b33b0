#!/usr/bin/env bash
# GPU run 7 (2026-12-04, twentieth stop): the final families
# (artifacts/every at 08c9c25): the every list, the random probe and the
# rows of runs 2 and 6.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
./scripts/gpu_prepare.sh every $O/r
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; grep -A12 "rows, " $O/r/every.txt | head -13
grep -E "^decode " $O/r/every.txt | grep " nn \| nt " | cut -c1-170
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"; grep -E "rows, |min ratio" $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
