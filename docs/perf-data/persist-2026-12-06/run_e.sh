#!/usr/bin/env bash
# GPU run 5 (2026-12-06, thirty-first stop): the harness's poisoned outputs
# in one helper (check, bench, duel; duel now poisons integer outputs with
# -77 instead of failing on NaN): check of the every set on the small
# shapes, duels and bench of i8 and f8. Artifacts: every.tar.xz of
# run_c.sh alone in artifacts/pack; on the GPU:
#   OUT=$OUT bash docs/perf-data/persist-2026-12-06/run_e.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin every
H="python3 -m gemm_mlir.harness"
step 60 check-every $H check artifacts/every --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; tail -1 $O/r/check-every.txt
step 40 duel-i8 $H duel artifacts/every --kernels g_i8_tn_none --layout tn --shape 4096x4096x4096 --reps 20 --out $O/r/d-i8.json > $O/r/duel.txt 2>&1
step 40 duel-f8 $H duel artifacts/every --kernels g_f8_tn_none --layout tn --shape 4096x4096x4096 --reps 20 --out $O/r/d-f8.json >> $O/r/duel.txt 2>&1
step 30 bench-i8 $H bench artifacts/every --dtypes i8 --shape 4096x4096x4096 --out $O/r/bench-i8.json > $O/r/bench-i8.txt 2>&1
cat $O/r/duel.txt; grep ratio $O/r/bench-i8.txt | cut -c1-120
gpu_end
