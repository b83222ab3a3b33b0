#!/usr/bin/env bash
# GPU run 8 (2026-12-04, seventeenth stop): the five `load = tma` +
# `reduction = cluster` tiles that failed in run2/run3 (MID_SWEEP's mi12-mi16
# then), rebuilt with the mbarrier initialization fenced for the async
# proxy and the cluster (artifacts/tmacl, compiled with
# GEMM_EXPERIMENT_TMA_CLUSTER=1 past the legality refusal): check
# --shapes full.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh midsweep runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
ls artifacts/tmacl/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
for i in 1 2; do
timeout 200 python3 -m gemm_mlir.harness check artifacts/tmacl --shapes full --out $O/r/check-tmacl-$i.json > $O/r/check-tmacl-$i.txt 2>&1; echo "check $i rc $?"; grep -v "^ " $O/r/check-tmacl-$i.txt | cut -c1-250
done
tar czf $O/all.tgz -C $O r
