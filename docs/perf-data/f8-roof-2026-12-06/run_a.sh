#!/usr/bin/env bash
# GPU run 1 (2026-12-06, thirtieth stop): where f8's time goes. Here first:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh f8roof, renamed f8old (at d8e2e14)
#   and f8new (at a664963: versioned loops, three f8 warpgroups promoting
#   every 256 of K in the TMA version); experiment builds of d8e2e14
#   (experiment.patch here): GEMM_TMA_ONLY=1 -> f8tma, GEMM_F8_NOPROMO=1 -> f8nopromo
#   for s in f8old f8new f8tma f8nopromo; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/f8-roof-2026-12-06/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in f8old f8new f8tma f8nopromo; do ./scripts/gpu_prepare.sh $s $O/r > $O/r/prepare-$s.txt 2>&1; tail -1 $O/r/prepare-$s.txt; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm --format=csv,noheader | tee $O/r/gpu.txt
H="python3 -m gemm_mlir.harness"
step 60 names python3 $here/names.py > $O/r/names.txt 2>&1; cat $O/r/names.txt | cut -c1-220
step 90 check-new $H check artifacts/f8new --shapes full --out $O/r/check-new.json > $O/r/check-new.txt 2>&1; tail -2 $O/r/check-new.txt
for s in f8old f8new f8tma f8nopromo f8old f8new; do
  step 60 bench-$s $H bench artifacts/$s --dtypes f8 --out $O/r/bench-$s.json >> $O/r/bench-$s.txt 2>&1
  echo "== $s"; grep "none\|linear" $O/r/bench-$s.txt | tail -18 | cut -c1-150
done
KT="python3 docs/perf-data/transpose-2026-12-05/kernel_times.py"
M=$(ncu --query-metrics --chip gh100 2>/dev/null | awk '{print $1}' | grep -i "gmma" | tee $O/r/gmma-metrics.txt | grep "cycles_active$" | head -3 | sed 's/$/.avg.pct_of_peak_sustained_active/' | paste -sd, -)
echo "metrics: $M"
NCU="ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy ${M:+--metrics $M}"
step 90 ncu-ours $NCU --kernel-name regex:g_f8 --launch-count 1 $KT artifacts/f8old g_f8_tn_none_fr0 4096x4096x4096 > $O/r/ncu-ours-fr0.txt 2>&1
step 90 ncu-nop $NCU --kernel-name regex:g_f8 --launch-count 1 $KT artifacts/f8nopromo g_f8_tn_none_fr0 4096x4096x4096 > $O/r/ncu-nop-fr0.txt 2>&1
step 90 ncu-lt $NCU --kernel-name regex:"sm90|gemm|xmma|cutlass" --launch-skip 2 --launch-count 1 python3 $here/names.py --once f8-4096 > $O/r/ncu-lt.txt 2>&1
for f in ncu-ours-fr0 ncu-nop-fr0 ncu-lt; do
  echo "== $f"; grep -E '^  [a-z_0-9]+.*\(|Duration|Compute \(SM\)|L2 Cache Throughput|DRAM Throughput|Registers Per|Shared Memory Config|Stall|Warp Cycles Per Issued|Eligible|Issued Warp|gmma|Executed Ipc|Grid Size|Cluster' $O/r/$f.txt | head -40 | cut -c1-160
done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
