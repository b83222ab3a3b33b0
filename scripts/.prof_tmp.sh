#!/bin/bash
# One device call: sm_90a (wgmma) check + bench, sm_90 (mma.sync) bench, ragged and breakdown.
OUT=${OUT:-/tmp/out}
mkdir -p $OUT/wg $OUT/perf
OUT=$OUT/wg ./scripts/gpu_run.sh wgmma both --shapes full > $OUT/wg/log.txt 2>&1; echo "wgmma rc=$?"
OUT=$OUT/perf ./scripts/gpu_run.sh perf bench > $OUT/perf/log.txt 2>&1; echo "perf rc=$?"
python3 python/gemm_mlir/harness.py bench artifacts/wgmma --shape 4099x4097x4095 --reps 100 --out $OUT/wg/bench-ragged.json > $OUT/wg/ragged.txt 2>&1
python3 python/gemm_mlir/harness.py breakdown artifacts/wgmma --kernel g_f16_tn_none,g_f16_nn_none,g_bf16_tn_none --shape 4099x4097x4095 --out $OUT/wg/breakdown.json > $OUT/wg/breakdown.txt 2>&1
cuobjdump -sass artifacts/wgmma/g_f16_nn_none/*.cubin | grep -cE "HGMMA|LDGSTS" > $OUT/wg/nn_counts.txt
grep checks $OUT/wg/log.txt
