#!/usr/bin/env bash
# GPU run 4 (2026-12-04, twentieth stop): compute-sanitizer memcheck on the
# five unaligned members (f16 nn, bf16 nt, batched bf16 nn; odd N, ragged
# M and K) through the runtime's dispatch, as the every command launches
# them (two timed repetitions each).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
./scripts/gpu_prepare.sh every $O/r
ROWS="f16 nn 5x3001x9000;f16 nn 8x8417x300;f16 nn 4x20001x256;f16 nn 12x3001x777;f16 nn 16x7001x513;bf16 nt 7x5001x300;bf16 nt 13x2001x333;bf16 nn 2x6x8889x296;bf16 nn 3x11x1041x257"
timeout 400 compute-sanitizer --tool memcheck python3 -m gemm_mlir.harness every artifacts/every --reps 2 --rows "$ROWS" --out $O/r/memcheck.json > $O/r/memcheck.txt 2>&1; echo "memcheck rc $?"
grep -E "ERROR SUMMARY|rows, " $O/r/memcheck.txt
grep -E "^custom" $O/r/memcheck.txt | cut -c1-160
tar czf $O/all.tgz -C $O r
