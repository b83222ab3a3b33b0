#!/usr/bin/env bash
# GPU run 5: 1-byte operands under the sector rule (sector_multiple = 32
# elements): i8 tn with K = 4112 (rows of an odd number of 16 bytes) in the
# every set with the rule (run 4's) and in everysc without it, and K =
# 4096 beside them; duels with cuBLASLt's i8 where it takes the shape.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every everysc
H="python3 -m gemm_mlir.harness"
for s in 4096x4096x4112 8192x8192x2064 4096x4096x4096; do
  for a in every everysc; do
    step 25 "i8 $a $s" $H duel artifacts/$a --kernels g_i8_tn_none --layout tn --shape $s --reps 20 --out $O/r/d-i8-$a-$s.json >> $O/r/duel.txt 2>&1
  done
done
grep -v "^duel" $O/r/duel.txt | cut -c1-110
gpu_end
