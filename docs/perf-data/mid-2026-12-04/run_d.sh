#!/usr/bin/env bash
# GPU run 5 (2026-12-04, seventeenth stop): check --shapes full on the
# families of run 4 (artifacts/every), with the shapes of the new members
# (mid-64x64, mid-64x128, split-k-64x64, half-n) in FULL_SHAPES.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
ls artifacts/every/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
timeout 500 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check-every rc $?"; tail -1 $O/r/check-every.txt
grep -v "^ " $O/r/check-every.txt | grep -v "^ok" | cut -c1-300 | head
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
