#!/usr/bin/env bash
# GPU run (2026-12-06, twenty-eighth stop): `schedule = persistent` 128 x
# 256 with four stages, its epilogue staged in column slices beside the
# ring (sl0; sl1: three stages, the whole tile staged), against the default
# family, the default tile alone (t0) and in multicast pairs (mc0), and
# cuBLAS, timed in turns (`harness duel`). Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh slices
#   mkdir -p artifacts/pack && tar cJf artifacts/pack/slices.tar.xz -C artifacts slices
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/slices-2026-12-06/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh slices $O/r > $O/r/prepare.txt 2>&1; tail -3 $O/r/prepare.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader | tee $O/r/gpu.txt
for k in g_f16_tn_none_sl0 g_f16_tn_bias_silu_residual_sl0; do
  cuobjdump -sass artifacts/slices/$k/*.cubin > $O/r/sass-$k.txt 2>/dev/null
  echo "$k: $(grep -c HGMMA $O/r/sass-$k.txt) HGMMA, $(grep -c UTMALDG $O/r/sass-$k.txt) UTMALDG, $(grep -c 'STS.128' $O/r/sass-$k.txt) STS.128, $(grep -c 'STG.E.128' $O/r/sass-$k.txt) STG.E.128, $(grep -c 'LDL\|STL' $O/r/sass-$k.txt) local"
done | tee $O/r/sass.txt
step 70 check-small python3 -m gemm_mlir.harness check artifacts/slices --out $O/r/check-small.json > $O/r/check-small.txt 2>&1
tail -2 $O/r/check-small.txt
step 120 check-full python3 -m gemm_mlir.harness check artifacts/slices --shapes full --out $O/r/check-full.json > $O/r/check-full.txt 2>&1
tail -2 $O/r/check-full.txt
duel() {  # dtype layout shape round
  local k="g_$1_$2_none,g_$1_$2_none_t0,g_$1_$2_none_mc0,g_$1_$2_none_sl0,g_$1_$2_none_sl1"
  step 45 "duel $*" python3 -m gemm_mlir.harness duel artifacts/slices --kernels $k \
    --layout $2 --shape $3 --reps ${REPS:-30} --out $O/r/d-$1-$2-$3-$4.json >> $O/r/duel.txt 2>&1
}
for round in $(seq 1 ${ROUNDS:-1}); do
  duel f16 tn 8192x8192x8192 $round
  duel f16 nn 8192x8192x8192 $round
  duel bf16 tn 8192x8192x8192 $round
  duel f16 tn 4096x4096x4096 $round
  duel f16 tn 12288x4096x4096 $round
  duel f16 nn 4096x11008x4096 $round
  duel f16 tn 4096x4096x11008 $round
  duel f16 tn 4099x4097x4095 $round
done
cat $O/r/duel.txt
step 90 fused python3 -m gemm_mlir.harness fused artifacts/slices --out $O/r/fused.json > $O/r/fused.txt 2>&1
tail -30 $O/r/fused.txt
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
