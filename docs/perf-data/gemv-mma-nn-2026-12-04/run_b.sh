#!/usr/bin/env bash
# GPU run 2 (2026-12-04, nineteenth stop): the families with the
# gemv-mma-n rules (artifacts/every at 4fdc198) beside the families before
# them (artifacts/everyold: every at f574c62): check --shapes full, the nn/nt
# decode rows on both (including K = 6144, the rules' bound, and the edges
# of the tiles' grid bounds), the every list and the random probe.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every everyold; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 200 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check-every rc $?"; tail -1 $O/r/check-every.txt
grep -v "^ " $O/r/check-every.txt | grep -v "^ok" | cut -c1-300 | head
ROWS="f16 nn 3x4096x4096;f16 nn 8x4096x4096;f16 nn 16x4096x4096;f16 nn 8x11008x4096;f16 nn 4x14336x4096;f16 nn 16x4096x11008;f16 nn 11x4097x4093;f16 nn 5x4097x4093;f16 nn 4x2048x1024;f16 nn 13x1056x4096;f16 nn 16x8192x512;f16 nn 3x9000x1500;f16 nn 8x4096x6144;f16 nn 16x4096x6144;f16 nn 12x2048x6144;f16 nn 6x1280x6144;f16 nn 8x12672x4096;f16 nn 8x12800x4096;f16 nn 3x1041x4096;f16 nn 16x14336x4096;bf16 nt 8x4096x4096;bf16 nt 11x4097x4093;f16 nt 4x14336x4096;bf16 nn 7x5000x3000;f16 nn 4x8x4096x4096;bf16 nn 2x13x4097x4093"
for s in every everyold; do
  timeout 100 python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s.json > $O/r/rows-$s.txt 2>&1; echo "rows $s rc $?"
done
grep -E "rows, " $O/r/rows-*.txt
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; grep -A12 "rows, " $O/r/every.txt | head -13
grep -E "^decode " $O/r/every.txt | cut -c1-170
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"; grep -E "rows, |min ratio" $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
