#!/bin/bash
OUT=${OUT:-/tmp/out}
ls artifacts/wgmma/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
python3 python/gemm_mlir/harness.py breakdown artifacts/wgmma --kernel g_f16_tn_none,g_f16_nn_none,g_f16_nn_none_wg4,g_f16_nn_none_wg6,g_f16_tn_none_wg6,g_f16_nt_none,g_f16_tt_none --shape 4099x4097x4095 --reps 50 --out $OUT/breakdown.json 2>&1 | tail -8
