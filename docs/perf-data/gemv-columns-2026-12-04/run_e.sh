#!/usr/bin/env bash
# GPU run 5 (2026-12-04): the families with decode-128x64 (artifacts/every
# at 894d697, carried packed): the rows of 129-256 rows (before:
# ../wide-decode-2026-12-04/run8/wide.txt and ../probe-2026-12-04/run1/sweep-*),
# check --shapes full, the every list.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; tail -2 $O/r/rt/runtime.txt 2>/dev/null; }
ls artifacts/every/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
ROWS="f16 tn 193x4096x4096; f16 tn 200x4096x4096; f16 tn 224x4096x4096; f16 tn 240x4096x1024; f16 tn 256x4096x4096; bf16 tn 256x4096x4096; f16 nn 256x4096x4096; f16 tn 200x2560x4096; f16 tn 256x2048x8192; f16 tn 250x3001x2000; f16 tt 230x4000x4096; f16 tn 160x4096x4096; f16 tn 192x11008x4096"
timeout 150 python3 -m gemm_mlir.harness every artifacts/every --rows "$ROWS" --out $O/r/rows256.json > $O/r/rows256.txt 2>&1; echo "rows rc $?"
grep -v "^device\|^ " $O/r/rows256.txt | cut -c1-200
timeout 330 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check rc $?"; tail -1 $O/r/check-every.txt
grep -E "FAIL|WRONG" $O/r/check-every.txt | head
timeout 100 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"
grep -E "rows,|min ratio|geomean" $O/r/every.txt | head -14
gzip -9 $O/r/check-every.json
tar czf $O/all.tgz -C $O r
