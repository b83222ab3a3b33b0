#!/bin/bash
OUT=${OUT:-/tmp/out}
ls artifacts/wgmma/g_f8*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
python3 python/gemm_mlir/harness.py check artifacts/wgmma --shapes full --only g_f8 --out $OUT/check-f8.json > $OUT/check-f8.txt 2>&1; echo "rc=$?"
tail -12 $OUT/check-f8.txt
