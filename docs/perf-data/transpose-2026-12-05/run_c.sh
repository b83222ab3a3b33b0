#!/usr/bin/env bash
# GPU run 3 (2026-12-05, twenty-fifth stop): the pack kernel's shifted
# 16-byte copies (misaligned rows read as the aligned blocks holding them)
# against its element copies. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every    # with the change, renamed everynew
#   the same at 4a6afcb (before it), renamed everyold
#   for s in everynew everyold; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/transpose-2026-12-05/run_c.sh
# 1. packed rows (misaligned K or N: 4099x4097x4095 in every layout, the
#    odd prefill, misaligned decode and 17-128 rows, odd mid-size), both
#    sets alternating, twice;
# 2. correctness of everynew (`check --shapes full`).
# (A first attempt lost the device mid-run; the every list was dropped to
# fit the device time left.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in everynew everyold; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
PK="f16 tn 4099x4097x4095; f16 nn 4099x4097x4095; bf16 tn 4099x4097x4095; bf16 nn 4099x4097x4095"
PK="$PK; f16 nt 4099x4097x4095; f16 tt 4099x4097x4095; f16 tn 4095x4097x4099; bf16 nn 4095x4097x4099"
PK="$PK; f16 nn 4096x4096x4095; f16 nn 2048x11008x4095; f16 tt 4097x4096x4095; bf16 tn 8192x8192x8191"
PK="$PK; f16 tn 64x4096x4095; f16 tn 100x11008x4093; f16 nn 48x14336x4095; bf16 tn 128x4097x4093"
PK="$PK; f16 tn 11x4097x4093; f16 nn 16x4096x11007; f16 tt 8x11008x4095"
PK="$PK; f16 nn 333x517x271; f16 nn 1023x999x777; bf16 tn 600x700x313; f16 nn 129x257x385"
rows() {
  for s in "$@"; do
    step 70 $s python3 -m gemm_mlir.harness every artifacts/${s%[12]} --rows "$PK" --out $O/r/$s.json > $O/r/$s.txt 2>&1
    grep -E "rows, " $O/r/$s.txt
  done
}
rows everynew1 everyold1
step 200 check python3 -m gemm_mlir.harness check artifacts/everynew --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1
tail -3 $O/r/check.txt
rows everyold2 everynew2
for f in $O/r/*.json; do gzip -9 $f; done
python3 docs/perf-data/decode-tn-2026-12-05/compare.py $O/r/everyold1.json.gz,$O/r/everyold2.json.gz $O/r/everynew1.json.gz,$O/r/everynew2.json.gz 2>&1 | tail -30
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
