#!/usr/bin/env bash
# GPU run 2 (2026-12-06, thirty-first stop): where the f8 persistent blocks
# lose at 8192^3 (Nsight Compute: the 192 x 128 default tile and the
# 128 x 128 tile with 4 stages, each non-persistent and persistent), and
# sustained duels of the f8 tiles at 4096^3, 6144^3 and 8192^3. Same
# artifacts as run_a.sh (persist.tar.xz in artifacts/pack); on the GPU:
#   OUT=$OUT bash docs/perf-data/persist-2026-12-06/run_b.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh persist $O/r > $O/r/prepare-persist.txt 2>&1; tail -1 $O/r/prepare-persist.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
K=g_f8_tn_none,g_f8_tn_none_fr7,g_f8_tn_none_fr6,g_f8_tn_none_pp32,g_f8_tn_none_fr2
for s in 4096x4096x4096 6144x6144x6144 8192x8192x8192 4096x14336x4096; do
  step 45 "duel $s" $H duel artifacts/persist --kernels $K --layout tn --shape $s \
    --reps 30 --warm-s 4 --out $O/r/d-f8-$s.json >> $O/r/duel.txt 2>&1
done
cut -c1-150 $O/r/duel.txt
KT="python3 docs/perf-data/transpose-2026-12-05/kernel_times.py"
M=$(ncu --query-metrics --chip gh100 2>/dev/null | awk '{print $1}' | grep -i "gmma" | grep "cycles_active$" | head -3 | sed 's/$/.avg.pct_of_peak_sustained_active/' | paste -sd, -)
NCU="ncu --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats ${M:+--metrics $M,lts__t_sector_hit_rate.pct,dram__bytes_read.sum}"
for k in fr0 pp32 fr2 fr7; do
  step 70 ncu-$k $NCU --kernel-name regex:g_f8 --launch-count 1 $KT artifacts/persist g_f8_tn_none_$k 8192x8192x8192 > $O/r/ncu-$k.txt 2>&1
  echo "== $k"; grep -E 'Duration|Compute \(SM\)|L2 Cache Throughput|DRAM Throughput|L2 Hit|gmma|lts__t_sector_hit|dram__bytes|Warp Cycles Per Issued|Grid Size' $O/r/ncu-$k.txt | head -14 | cut -c1-150
done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
