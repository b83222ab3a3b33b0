#!/usr/bin/env bash
# GPU run 7 (2026-12-04, seventeenth stop): compute-sanitizer memcheck on
# the reduction (artifacts/midsweep): mi7 (3 slices: the tail alone), mi4
# (9 slices: two rounds of four and a tail of one), mi11 (64 x 64, 4
# slices, a producer warpgroup), check --shapes small.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh midsweep runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
ls artifacts/midsweep/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
for k in g_f16_tn_none_mi7 g_f16_tn_none_mi4 g_f16_tn_none_mi11; do
  timeout 150 compute-sanitizer --tool memcheck python3 -m gemm_mlir.harness check artifacts/midsweep --only $k > $O/r/memcheck-$k.txt 2>&1; echo "memcheck $k rc $?"; grep -E "ERROR SUMMARY|checks" $O/r/memcheck-$k.txt | tail -2
done
tar czf $O/all.tgz -C $O r
