#!/usr/bin/env bash
# GPU run 6 (2026-12-04, seventeenth stop): the families with the
# mid-64x64-few and short-k-narrow rules (artifacts/every): check
# --shapes full, where the time goes on the mid-size and batched rows
# (profile), the every-shape list and the random probe.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
ls artifacts/every/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
timeout 200 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check-every rc $?"; tail -1 $O/r/check-every.txt
grep -v "^ " $O/r/check-every.txt | grep -v "^ok" | cut -c1-300 | head
ROWS="bf16 nn 36x619x65x90;f16 tn 36x619x100x90;f16 tn 20000x100x128;f16 tn 96x1024x1024;f16 tn 231x250x1024;f16 nn 150x600x1500;f16 tn 181x1048x2512;f16 tn 524x1105x534;f16 tn 447x219x3058;f16 tn 65536x128x128"
timeout 100 python3 -m gemm_mlir.harness profile artifacts/every --rows "$ROWS" --out $O/r/profile.json > $O/r/profile.txt 2>&1; echo "profile rc $?"
grep -v "^ " $O/r/profile.txt | grep -v Warn | cut -c1-140
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; grep -A10 "rows, " $O/r/every.txt | head -11
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"; grep "rows, " $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
