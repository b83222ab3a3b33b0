#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-fourth stop): gemv-mma's shifted columns on
# a B stored K x N whose rows rule out 16-byte loads (odd N): each 16-byte
# load of the 64-column tiles (gemv-mma-n-unaligned-wide) becomes the two
# aligned blocks holding its columns, funnel-shifted, instead of 8 element
# loads. Here, at the commit this folder was added in:
#   git apply docs/perf-data/shifted-columns-2026-12-07/shifted-columns.patch
#   ninja -C build gemm-opt
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every && mv artifacts/every artifacts/everysc
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh gemv && mv artifacts/gemv artifacts/gemvsc
#   tar cJf artifacts/pack/everysc.tar.xz -C artifacts everysc
#   tar cJf artifacts/pack/gemvsc.tar.xz -C artifacts gemvsc
#   git checkout -- lib test && ninja -C build gemm-opt
#   (artifacts/pack/every.tar.xz: the families without the patch)
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/shifted-columns-2026-12-07/run_a.sh
# If both checks pass and the odd-N rows of everysc are not slower than
# every's (the aligned-N and tn rows are the same kernels), apply the patch.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every everysc gemvsc
H="python3 -m gemm_mlir.harness"
# Correctness: every gemv config (nn and nt with 4-, 8- and 16-byte column
# loads, odd N among the ragged shapes) and the families.
step 120 check-gemv $H check artifacts/gemvsc --shapes full --out $O/r/check-gemv.json > $O/r/check-gemv.txt 2>&1
step 120 check-every $H check artifacts/everysc --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1
for f in check-gemv check-every; do echo "$f: $(grep -c '^ok' $O/r/$f.txt) ok"; grep -v "^ok" $O/r/$f.txt | cut -c1-200 | head -8; done
# Odd N on the 64-column members (199 or more blocks of 64 columns, 3-8
# rows) and beside them, in turns: every, everysc, everysc, every. Each row
# is checked against float64.
ROWS="f16 nn 8x16001x4096; f16 nn 8x12801x4096; bf16 nn 4x32001x4096; f16 nn 6x50257x4096; bf16 nn 8x20001x2048; f16 nt 8x16001x4096; f16 nn 8x12801x11008; bf16 nt 5x28673x4096; f16 nn 8x16000x4096; f16 nn 16x16001x4096"
n=0
for s in every everysc everysc every; do
  n=$((n + 1))
  step 70 "rows $s" $H every artifacts/$s --rows "$ROWS" --out $O/r/rows$n-$s.json > $O/r/rows$n-$s.txt 2>&1
  echo "== $s"; grep -E " nn | nt " $O/r/rows$n-$s.txt | cut -c1-190
done
gpu_end
