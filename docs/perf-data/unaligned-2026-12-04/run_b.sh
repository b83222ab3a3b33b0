#!/usr/bin/env bash
# GPU run 2 (2026-12-04, twentieth stop): the families with the
# gemv-mma-n-unaligned members (artifacts/every) beside the families before
# them (artifacts/everyprev, built at 6055f80): check --shapes full, the
# misaligned rows of run 1 and more (nt, bf16, batched, controls), the
# every list and the random probe.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every everyprev; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 300 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check-every rc $?"; tail -1 $O/r/check-every.txt
grep -v "^ " $O/r/check-every.txt | grep -v "^ok" | cut -c1-300 | head
ROWS="f16 nn 8x8417x4096;f16 nn 5x5001x3000;f16 nn 8x6001x2048;f16 nn 7x10001x1024;f16 nn 12x5001x3000;f16 nn 16x7001x4096;f16 nn 4x4097x8192;f16 nn 8x4097x11008;f16 nn 16x8193x8192;f16 nn 8x8416x4095;f16 nn 12x6000x3001;f16 nn 3x3001x512;f16 nn 6x2001x1000;f16 nn 8x16001x4096"
ROWS="$ROWS;f16 nn 11x4097x4093;f16 nn 5x4097x4093;f16 nn 3x1041x4096;bf16 nt 11x4097x4093;bf16 nt 7x5001x3000;f16 nt 8x13306x3406;bf16 nn 13x1709x3931;bf16 nn 2x6x8889x2896;f16 nt 9x2500x3333;bf16 nn 14x3001x2999;f16 nn 4x32001x4096;bf16 nt 16x4097x11008"
ROWS="$ROWS;f16 nn 4x2048x1024;f16 nn 8x11008x4096;f16 nn 5x10000x777;f16 nn 3x801x4096;f16 nn 3x4096x4096;bf16 nt 8x4096x4096"
for s in every everyprev; do
  timeout 200 python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s.json > $O/r/rows-$s.txt 2>&1; echo "rows $s rc $?"
done
grep -E "rows, " $O/r/rows-*.txt
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; grep -A12 "rows, " $O/r/every.txt | head -13
grep -E "^decode " $O/r/every.txt | grep " nn \| nt " | cut -c1-170
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"; grep -E "rows, |min ratio" $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
