#!/usr/bin/env bash
# GPU run 1 (2026-12-04, twentieth stop): 3 to 16 rows against a B stored
# K x N whose rows rule out 16-byte loads (odd N) or whose A rows do (odd K),
# on grids the gemv-mma-n rules leave to the decode tile (which packs):
# the gemv-mma tile sweep (artifacts/gemvmmacols, gq0-gq13, f16 nn) beside
# the f16 nn family as committed (artifacts/every) on the same rows.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every gemvmmacols; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
ROWS=""
for s in 8x8417x4096 5x5001x3000 8x6001x2048 7x10001x1024 12x5001x3000 16x7001x4096 4x4097x8192 8x4097x11008 16x8193x8192 8x8416x4095 12x6000x3001 3x3001x512 6x2001x1000 8x16001x4096; do
  ROWS="$ROWS; f16 nn $s"
  timeout 60 python3 -m gemm_mlir.harness bench artifacts/gemvmmacols --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
  echo "== sweep $s rc $?"; grep -E "_gq" $O/r/sweep-$s.txt | awk '{print $1, $6, $8, $11}' | sort -k4 -n -r | head -4
done
timeout 150 python3 -m gemm_mlir.harness every artifacts/every --rows "${ROWS#; }" --out $O/r/family.json > $O/r/family.txt 2>&1; echo "family rc $?"
grep -E "ratio|rows, | nn " $O/r/family.txt | cut -c1-220
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
