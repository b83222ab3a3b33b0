#!/bin/bash
OUT=${OUT:-/tmp/out}
R=/tmp/res; mkdir -p $R/wg $R/perf
OUT=$R/wg ./scripts/gpu_run.sh wgmma check --shapes full > $R/wg/log.txt 2>&1; echo "wg check rc=$?"; grep checks $R/wg/log.txt
ls artifacts/perf/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
python3 python/gemm_mlir/harness.py bench artifacts/wgmma --shape 4099x4097x4095 --reps 100 --out $R/wg/bench-ragged.json > $R/wg/ragged.txt 2>&1
python3 python/gemm_mlir/harness.py bench artifacts/perf --shape 4099x4097x4095 --reps 100 --out $R/perf/bench-ragged.json > $R/perf/ragged.txt 2>&1
python3 python/gemm_mlir/harness.py breakdown artifacts/wgmma --kernel g_f16_tn_none,g_f16_nn_none,g_f16_nt_none,g_f16_tt_none,g_bf16_tn_none --shape 4099x4097x4095 --reps 50 --out $R/wg/breakdown.json > $R/wg/breakdown.txt 2>&1
grep -v "_wg\|_v[0-9]" $R/wg/ragged.txt $R/perf/ragged.txt | grep "x "
cat $R/wg/breakdown.txt
tar czf $OUT/results.tgz -C $R .
