#!/usr/bin/env bash
# GPU run 2 (2026-12-05, twenty-fifth stop): where the transposing copy's
# time goes. Run 1 found i8 and f8 3x faster and tf32 unchanged. Here first
# (beside run_a.sh's tnew and told):
#   the transpose set with kTransposeRows = 256 (8 loads a thread), renamed tB
#   the transpose set with the tiles numbered along K first, renamed tC
#   for s in tB tC; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/transpose-2026-12-05/run_b.sh
# 1. each kernel's GPU time (kernel_times.py) of tf32 tt, i8 nn and f8 nt
#    at 4096^3 and 8192^3, each set;
# 2. Nsight Compute on tnew's f32 and i8 transposing kernels.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in tnew told tB tC; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
F=g_tf32_tt_none,g_tf32_tn_none,g_i8_nn_none,g_f8_nt_none
S=4096x4096x4096,8192x8192x8192
for i in 1 2; do
  for s in tnew told tB tC; do
    echo "== $s $i"
    step 60 kt-$s-$i python3 "$here/kernel_times.py" artifacts/$s $F $S > $O/r/kt-$s-$i.txt 2>&1
    grep 'gemm_transpose\|_gemm' $O/r/kt-$s-$i.txt | grep -v '^\s*$' | awk '{$1=$1};1' | cut -c1-150
  done
done
for f in g_tf32_tt_none g_i8_nn_none; do
  step 120 ncu-$f ncu --kernel-name regex:gemm_transpose --launch-count 1 --section SpeedOfLight \
    --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats \
    --section SchedulerStats python3 "$here/kernel_times.py" artifacts/tnew $f 4096x4096x4096 > $O/r/ncu-$f.txt 2>&1
  grep -E 'Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Stall|Warp Cycles Per Issued|L2 Cache Throughput|Eligible|Issued Warp' $O/r/ncu-$f.txt | head -30
done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
