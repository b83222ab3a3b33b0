#!/usr/bin/env bash
# GPU run (2026-12-06, twenty-seventh stop; run 1 had the pairs without a
# producer warpgroup, `load = tma`, at c56b8bd): TMA multicast pairs
# (`multicast = 2`) beside the default tile loading on its own. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh multicast
#   mkdir -p artifacts/pack && tar cJf artifacts/pack/multicast.tar.xz -C artifacts multicast
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/multicast-2026-12-06/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh multicast $O/r > $O/r/prepare.txt 2>&1; tail -3 $O/r/prepare.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader | tee $O/r/gpu.txt
# SASS of the pairs: multicast TMA loads and the cluster barrier.
for k in g_f16_tn_none_t6 g_f16_tn_none_mc0 g_f16_nn_none_mc0; do
  cuobjdump -sass artifacts/multicast/$k/*.cubin 2>/dev/null > $O/r/sass-$k.txt ||
    { ptxas -arch=sm_90a artifacts/multicast/$k/*.ptx -o /tmp/$k.cubin && cuobjdump -sass /tmp/$k.cubin > $O/r/sass-$k.txt; }
  echo "$k: $(grep -c HGMMA $O/r/sass-$k.txt) HGMMA, $(grep -c UTMALDG $O/r/sass-$k.txt) UTMALDG, $(grep -c 'UTMALDG.*MULTICAST' $O/r/sass-$k.txt) multicast, $(grep -c 'UCGABAR\|CCTL.*CLUSTER\|MEMBAR.*GPU' $O/r/sass-$k.txt) cluster-barrier"
done | tee $O/r/sass.txt
step 60 check-small python3 -m gemm_mlir.harness check artifacts/multicast --out $O/r/check-small.json > $O/r/check-small.txt 2>&1
tail -3 $O/r/check-small.txt
step 110 bench1 python3 -m gemm_mlir.harness bench artifacts/multicast --dtypes f16,bf16 --out $O/r/b-1.json > $O/r/b-1.txt 2>&1
step 150 check-full python3 -m gemm_mlir.harness check artifacts/multicast --shapes full --out $O/r/check-full.json > $O/r/check-full.txt 2>&1
tail -3 $O/r/check-full.txt
for s in 4096x11008x4096 12288x4096x4096; do
  step 50 bench-$s python3 -m gemm_mlir.harness bench artifacts/multicast --dtypes f16 --shape $s --out $O/r/b-$s.json > $O/r/b-$s.txt 2>&1
done
step 140 bench2 python3 -m gemm_mlir.harness bench artifacts/multicast --dtypes f16,bf16 --out $O/r/b-2.json > $O/r/b-2.txt 2>&1
python3 docs/perf-data/wsregs-2026-12-05/table.py $O/r 2>&1 | grep -v " 1x4096\| 16x8192" | tail -80
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
