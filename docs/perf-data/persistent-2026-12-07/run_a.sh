#!/usr/bin/env bash
# GPU run 1 (2026-12-07, fortieth stop): the f16/bf16 families with the
# `persistent` member (the default tile walked persistently on whole tiles
# of a plain GEMM past one wave) against the families before it, each
# against cuBLAS in its own duel; the every set checked on the full shape
# list; the wavefit set (nt's 128 x 192 tile and the families) checked, so
# that nt can join wave-fit; issue 13's every list. Here:
#   at ce58114 (the families before the member; git worktree, build):
#     CHIP=sm_90a ./scripts/gpu_artifacts.sh every; mv artifacts/every artifacts/every0
#   at the commit that added the member:
#     CHIP=sm_90a ./scripts/gpu_artifacts.sh every
#     CHIP=sm_90a ./scripts/gpu_artifacts.sh wavefit
#   tar cJf artifacts/pack/SET.tar.xz -C artifacts SET  (every0, every, wavefit)
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/persistent-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every0 every wavefit
H="python3 -m gemm_mlir.harness"
step 120 check $H check artifacts/every --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1; tail -1 $O/r/check.txt; grep -v "^ok" $O/r/check.txt | head -5
# The family before (every0) and with the member (every), in turns.
d() { local dt=$1 l=$2 s=$3 a
  for a in every0 every; do
    step 30 "duel $a $dt $l $s" $H duel artifacts/$a --kernels g_${dt}_${l}_none --layout $l --shape $s --reps 20 --warm-s 1 --out $O/r/d-$a-$dt-$l-$s.json >> $O/r/duel-$a.txt 2>&1
  done; }
for s in 12288x4096x4096 4096x11008x4096 4096x4096x11008 4096x4096x4096 8192x8192x8192 6144x6144x4096; do d f16 tn $s; done
d f16 nn 4096x4096x4096; d f16 nn 12288x4096x4096; d f16 tt 4096x4096x4096; d f16 nt 4096x4096x4096
d bf16 tn 12288x4096x4096; d bf16 tn 8192x8192x8192
for a in every0 every; do echo "== $a"; grep -v "^cublas" $O/r/duel-$a.txt | cut -c1-110; done
step 90 check-wf $H check artifacts/wavefit --shapes full --out $O/r/check-wf.json > $O/r/check-wf.txt 2>&1; tail -1 $O/r/check-wf.txt; grep -v "^ok" $O/r/check-wf.txt | head -5
step 30 "duel nt wf" $H duel artifacts/wavefit --kernels g_f16_nt_none,g_f16_nt_none_wf8 --layout nt --shape 3072x3072x4096 --reps 20 --warm-s 1 --out $O/r/d-wf-nt-3072.json > $O/r/duel-wf.txt 2>&1
step 30 "duel nt wf 2304" $H duel artifacts/wavefit --kernels g_f16_nt_none,g_f16_nt_none_wf8 --layout nt --shape 2304x2304x4096 --reps 20 --warm-s 1 --out $O/r/d-wf-nt-2304.json >> $O/r/duel-wf.txt 2>&1
cut -c1-110 $O/r/duel-wf.txt
step 120 every $H every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1
grep -E "rows,|min ratio|geomean|WRONG|copy" $O/r/every.txt | grep -v "^decode\|^decode_wide" | cut -c1-200 | head -8
grep -E "^decode " $O/r/every.txt | cut -c1-200
gpu_end
