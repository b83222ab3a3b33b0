#!/usr/bin/env bash
# GPU run 2 (2026-12-04, seventeenth stop): the families with the
# reduction's new grouping bound and four loads in flight, and the
# mid-64x64 rule (artifacts/every), and the MID_SWEEP tiles with the new
# reduction (artifacts/midsweep): correctness (check --shapes full on both),
# where the time goes on run 1's rows (profile), the every-shape list and
# the random probe (run_c.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts
OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; tail -2 $O/r/runtime.log
ls artifacts/every/g_*/*.ptx artifacts/midsweep/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
MID="f16 tn 181x1048x2512;bf16 tt 109x1409x2094;f16 tn 231x250x2840;bf16 tt 447x219x3058;f16 tt 524x1105x534;f16 tn 150x768x4096;f16 tn 100x2048x1536;f16 nn 250x512x3000;f16 tn 96x1024x1024;f16 tn 300x700x2000;f16 tn 64x64x65536;f16 tn 77x13x20001;f16 nn 16x4096x11008"
timeout 150 python3 -m gemm_mlir.harness profile artifacts/every --rows "$MID" --out $O/r/profile.json > $O/r/profile.txt 2>&1; echo "profile rc $?"
timeout 120 python3 -m gemm_mlir.harness check artifacts/midsweep --shapes full --out $O/r/check-mid.json > $O/r/check-mid.txt 2>&1; echo "check-mid rc $?"; tail -1 $O/r/check-mid.txt
for s in 150x768x4096 200x1024x8192 231x250x2840 447x219x3058; do
  timeout 60 python3 -m gemm_mlir.harness bench artifacts/midsweep --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
done
timeout 300 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; tail -3 $O/r/every.txt
grep -E "FAIL|WRONG" $O/r/check-*.txt | head
grep -v "^ " $O/r/profile.txt | cut -c1-160
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
