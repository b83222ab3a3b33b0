#!/usr/bin/env bash
# GPU run 4 (2026-12-04, seventeenth stop): the families with the
# half-n, mid-64x128 and split-k-64x64 rules (artifacts/every), MID_SWEEP with
# the cluster reductions through cp.async (mi12-mi16, mi19-mi22) and
# check --shapes full on it, where the time goes on the mid-size and
# batched rows (profile), the every-shape list and the random probe;
# check --shapes full on the families is run_d.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
ls artifacts/every/g_*/*.ptx artifacts/midsweep/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
timeout 100 python3 -m gemm_mlir.harness check artifacts/midsweep --shapes full --out $O/r/check-mid.json > $O/r/check-mid.txt 2>&1; echo "check-mid rc $?"; grep -v "^ " $O/r/check-mid.txt | grep -v "^ok" | cut -c1-300
SPLIT="bf16 nn 36x619x65x90;f16 tn 36x619x100x90;f16 tn 1000x1000x2000;f16 tn 600x1500x1024;f16 tn 524x1105x534;f16 tt 524x1105x534;f16 tn 231x250x2840;bf16 tt 447x219x3058;f16 tt 524x1105x534;f16 nn 250x512x3000;f16 tn 96x1024x1024;f16 tn 64x64x65536;f16 tn 77x13x20001;f16 nn 16x4096x11008;f16 tn 181x1048x2512;f16 tn 300x700x2000;f16 tn 512x128x128x4096;f16 tn 65536x96x4096"
timeout 150 python3 -m gemm_mlir.harness profile artifacts/every --rows "$SPLIT" --out $O/r/profile.json > $O/r/profile.txt 2>&1; echo "profile rc $?"
grep -v "^ " $O/r/profile.txt | grep -v Warn | cut -c1-140
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; grep -A10 "rows, " $O/r/every.txt | head -11
ROWS=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$ROWS" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"; grep "rows, " $O/r/probe.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
