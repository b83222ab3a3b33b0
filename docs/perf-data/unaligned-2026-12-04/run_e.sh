#!/usr/bin/env bash
# GPU run 5 (2026-12-04, twentieth stop): 3 to 16 rows whose A rows rule
# out 16-byte loads (odd K) and whose B (K x N) is aligned, on grids the
# gemv-mma-n rules leave to the decode tile (which packs A): the gemv-mma
# tile sweep (artifacts/gemvmmacols, f16 nn) beside the f16 nn family.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every gemvmmacols; do ./scripts/gpu_prepare.sh $s $O/r; done
ROWS=""
for s in 5x5000x3001 8x6000x2047 7x10000x1023 12x5000x3001 16x7000x4095 4x4096x8191 3x3000x511 8x16000x4095 7x5000x3001 6x3000x1999 16x14336x4095 4x9648x3663; do
  ROWS="$ROWS; f16 nn $s"
  timeout 60 python3 -m gemm_mlir.harness bench artifacts/gemvmmacols --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1; echo "sweep $s rc $?"
done
timeout 150 python3 -m gemm_mlir.harness every artifacts/every --rows "${ROWS#; }" --out $O/r/family.json > $O/r/family.txt 2>&1; echo "family rc $?"
grep -E "rows, " $O/r/family.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
