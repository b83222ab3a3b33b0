#!/usr/bin/env bash
# GPU run: rows outside the every list, on the family with gemv-mma, and the
# tiny rows again (launch-bound, noisy).
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/rt ./scripts/gpu_run.sh every runtime > $O/runtime.log 2>&1; echo "runtime rc $?"
ROWS='f16 tn 32x32x32; bf16 nn 32x32x32; bf16 nn 8x8x8; f16 tn 1x1x1; f16 tn 8x8x8; f16 tt 8x4096x4096; f16 tt 11x4097x4093; bf16 tt 4x14336x4096; f16 tn 8x11008x4095; bf16 tn 16x11008x4095; f16 tn 5x4097x4093; f16 tn 3x9000x1500; f16 tn 12x2048x8192; f16 tn 16x4096x4096; f16 tn 3x4096x4096; bf16 tn 6x1280x8192; f16 tn 4x8x4096x4096; bf16 tn 2x13x4097x4093; f16 tn 8x1056x256; f16 tn 16x2048x300'
python3 -m gemm_mlir.harness every artifacts/every --rows "$ROWS" --out $O/every-extra.json > $O/every-extra.txt 2>&1; echo "extra rc $?"; cat $O/every-extra.txt | cut -c1-230
