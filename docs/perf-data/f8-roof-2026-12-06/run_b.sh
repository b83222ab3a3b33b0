#!/usr/bin/env bash
# GPU run 2 (2026-12-06, thirtieth stop): the final build. Here first (at
# the commit that adds this file):
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh f8roof (renamed f8fin)
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#   for s in f8fin every f8old; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/f8-roof-2026-12-06/run_b.sh
# The correctness matrix of the dispatch families (their warp-specialized
# members now run one main loop per load path; every epilogue, ragged
# shapes, the copy version on unaligned operands) and of the f8 tiles, and
# the f8 rows, final build and d8e2e14's in turns.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in f8fin every f8old; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
step 60 check-f8 $H check artifacts/f8fin --shapes full --out $O/r/check-f8.json > $O/r/check-f8.txt 2>&1; tail -1 $O/r/check-f8.txt
step 200 check-every $H check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; tail -1 $O/r/check-every.txt
for s in f8old f8fin f8old f8fin; do
  step 40 bench-$s $H bench artifacts/$s --dtypes f8 --out $O/r/bench-$s.json >> $O/r/bench-$s.txt 2>&1
  echo "== $s"; grep "none " $O/r/bench-$s.txt | tail -16 | grep "none \|fr0 \|fr1 " | cut -c1-130
done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
