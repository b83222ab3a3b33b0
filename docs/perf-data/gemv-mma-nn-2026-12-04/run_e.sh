#!/usr/bin/env bash
# GPU run 5 (2026-12-04, nineteenth stop): the final code (the rest of K on
# the warp whose turn is next; gemv-mma-n only on grids that spread evenly
# over the SMs): check --shapes full of the gemv set (tn/tt gemv-mma's rest
# changed too) and of the families, run 3's rows and run 4's random rows
# on every and everyold, the every list and the random probe.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every everyold gemv; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 240 python3 -m gemm_mlir.harness check artifacts/gemv --shapes full --out $O/r/check-gemv.json > $O/r/check-gemv.txt 2>&1; echo "check-gemv rc $?"; tail -1 $O/r/check-gemv.txt
grep -v "^ " $O/r/check-gemv.txt | grep -v "^ok" | cut -c1-300 | head
timeout 200 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check-every rc $?"; tail -1 $O/r/check-every.txt
grep -v "^ " $O/r/check-every.txt | grep -v "^ok" | cut -c1-300 | head
ROWS="f16 nn 3x4096x4096;f16 nn 8x4096x4096;f16 nn 16x4096x4096;f16 nn 8x11008x4096;f16 nn 4x14336x4096;f16 nn 16x4096x11008;f16 nn 11x4097x4093;f16 nn 5x4097x4093;f16 nn 4x2048x1024;f16 nn 13x1056x4096;f16 nn 16x8192x512;f16 nn 3x9000x1500;f16 nn 8x4096x6144;f16 nn 16x4096x6144;f16 nn 12x2048x6144;f16 nn 6x1280x6144;f16 nn 8x12672x4096;f16 nn 8x12800x4096;f16 nn 3x1041x4096;f16 nn 16x14336x4096;bf16 nt 8x4096x4096;bf16 nt 11x4097x4093;f16 nt 4x14336x4096;bf16 nn 7x5000x3000;f16 nn 4x8x4096x4096;bf16 nn 2x13x4097x4093"
ROWS="$ROWS;f16 nn 8x4224x4096;f16 nn 8x4225x4096;f16 nn 8x8417x4096;f16 nn 16x4224x4096;f16 nn 8x4096x4097;f16 nn 6x3000x2000;bf16 nt 12x4096x1024;f16 nn 5x10000x777;f16 nt 9x2500x3333;f16 nn 3x16384x2048;bf16 nn 14x3001x2999;f16 nn 4x4096x4096"
ROWS="$ROWS;f16 tn 11x4097x4093;f16 tn 8x4096x3432;f16 tn 5x12000x1000;bf16 tt 7x4096x2000"
RANDOM_ROWS=$(python3 docs/perf-data/gemv-mma-nn-2026-12-04/gen_rows.py)
for s in every everyold; do
  timeout 150 python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s.json > $O/r/rows-$s.txt 2>&1; echo "rows $s rc $?"
  timeout 200 python3 -m gemm_mlir.harness every artifacts/$s --rows "$RANDOM_ROWS" --out $O/r/random-$s.json > $O/r/random-$s.txt 2>&1; echo "random $s rc $?"
done
grep -E "rows, " $O/r/rows-*.txt $O/r/random-*.txt
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; grep -A12 "rows, " $O/r/every.txt | head -13
grep -E "^decode " $O/r/every.txt | grep " nn \| nt " | cut -c1-170
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"; grep -E "rows, |min ratio" $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
