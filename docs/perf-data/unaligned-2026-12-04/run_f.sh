#!/usr/bin/env bash
# GPU run 6 (2026-12-04, twentieth stop): the families with the
# gemv-mma-n-unaligned-a members (artifacts/every) beside 6055f80's
# (artifacts/everyprev): check --shapes full (three new odd-K shapes), the
# rows of runs 2 and 5.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every everyprev; do ./scripts/gpu_prepare.sh $s $O/r; done
timeout 300 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check-every rc $?"; tail -1 $O/r/check-every.txt
grep -v "^ " $O/r/check-every.txt | grep -v "^ok" | cut -c1-300 | head
ROWS="f16 nn 5x5000x3001;f16 nn 8x6000x2047;f16 nn 7x10000x1023;f16 nn 12x5000x3001;f16 nn 16x7000x4095;f16 nn 4x4096x8191;f16 nn 3x3000x511;f16 nn 7x5000x3001;f16 nn 6x3000x1999;f16 nn 4x9648x3663;bf16 nt 6x3000x1999;f16 nt 5x7000x1001;bf16 nn 2x7x5000x1023"
ROWS="$ROWS;f16 nn 8x8417x4096;f16 nn 5x5001x3000;f16 nn 11x4097x4093;bf16 nt 7x5001x3000;f16 nn 8x8416x4095;f16 nn 8x11008x4096;f16 nn 3x4096x4096;f16 nn 4x2048x1024;f16 nn 8x4096x2047"
for s in every everyprev; do
  timeout 200 python3 -m gemm_mlir.harness every artifacts/$s --rows "$ROWS" --out $O/r/rows-$s.json > $O/r/rows-$s.txt 2>&1; echo "rows $s rc $?"
done
grep -E "rows, " $O/r/rows-*.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
