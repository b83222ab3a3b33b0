#!/usr/bin/env bash
# GPU run 1 (2026-12-05, twenty-fourth stop). Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every     # at cf0eb24
#   (artifacts/everyhead: the families at acc7f79)
#   the same with a throwaway Dispatch.cpp whose decode-wgmma-8/-16 rules
#   (tn) hold from K = 2048 and 33 blocks of 64 x 128 on, no upper bound,
#   renamed everywide
#   for s in every everyhead everywide; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/decode-tn-2026-12-05/run_a.sh
# 1. tn: decode-64x128's tile on cp.async (everywide) against the gemv-mma
#    tiles (every) on 3-16 rows, twice each, alternating: where the tn rules
#    decode-wgmma-8 and decode-wgmma-16 should hold;
# 2. decode-wgmma-n in the family (cf0eb24) against acc7f79's families on
#    the f16 nn decode rows of decode-large-2026-12-05/run_c.sh, twice each;
# 3. the every list on cf0eb24's families.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in every everyhead everywide; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
. "$here/rows.sh"
TN=$(tn_rows)
NN=$(nn_rows 4x14336x4096 8x11008x4096 16x11008x4096 3x7169x4096 16x7168x8192)
for i in 1 2; do
  for s in everywide every; do
    step 70 tn-$s-$i python3 -m gemm_mlir.harness every artifacts/$s --rows "$TN" --out $O/r/tn-$s-$i.json > $O/r/tn-$s-$i.txt 2>&1
    grep -E "rows, " $O/r/tn-$s-$i.txt
  done
  for s in every everyhead; do
    step 60 nn-$s-$i python3 -m gemm_mlir.harness every artifacts/$s --rows "$NN" --out $O/r/nn-$s-$i.json > $O/r/nn-$s-$i.txt 2>&1
    grep -E "rows, " $O/r/nn-$s-$i.txt
  done
done
step 100 every python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -A12 "rows, " $O/r/every.txt | head -13
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
