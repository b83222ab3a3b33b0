#!/usr/bin/env bash
# GPU run 1 (2026-12-04, seventeenth stop): where the time of the
# mid-size few-tile rows (split-k member) and of small batched rows goes,
# kernel by kernel (`profile`), on the families at 53bf7e2
# (artifacts/every), the batched rows again with run-time packing off (a
# copy whose manifests say min_work = 2^62), and the MID_SWEEP tiles
# (artifacts/midsweep) on mid-size tn shapes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; tail -3 $O/r/runtime.log; }
ls artifacts/every/g_*/*.ptx artifacts/midsweep/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
rm -rf /tmp/every_np; cp -r artifacts/every /tmp/every_np
sed -i 's/"min_work": 16777216/"min_work": 4611686018427387904/; s/"max_direct_k": 128/"max_direct_k": 1000000/' /tmp/every_np/g_*/manifest.json
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
MID="f16 tn 181x1048x2512;bf16 tt 109x1409x2094;f16 tn 231x250x2840;bf16 tt 447x219x3058;f16 tt 524x1105x534;f16 tn 150x768x4096;f16 tn 100x2048x1536;f16 nn 250x512x3000;f16 tn 96x1024x1024;f16 tn 300x700x2000"
BAT="bf16 nn 36x619x65x90;bf16 nn 36x616x64x96;f16 nn 15x189x335x55;bf16 tn 8x110x155x119;f16 nn 4x100x167x365;f16 tn 4x111x469x230;f16 tn 3x128x549x169;f16 tn 48x384x384x128"
timeout 200 python3 -m gemm_mlir.harness profile artifacts/every --rows "$MID;$BAT" --out $O/r/profile.json > $O/r/profile.txt 2>&1; echo "profile rc $?"
timeout 100 python3 -m gemm_mlir.harness profile /tmp/every_np --rows "$BAT" --out $O/r/profile-np.json > $O/r/profile-np.txt 2>&1; echo "profile-np rc $?"
for s in 181x1048x2512 109x1409x2094 231x250x2840 150x768x4096 100x2048x1536 300x700x2000 447x219x3058 96x1024x1024 128x1536x2048 200x1024x8192; do
  timeout 100 python3 -m gemm_mlir.harness bench artifacts/midsweep --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
  echo "== sweep $s rc $?"; grep -E "mi[0-9]" $O/r/sweep-$s.txt | cut -c1-150
done
cat $O/r/profile.txt | cut -c1-200; cat $O/r/profile-np.txt | cut -c1-200
tar czf $O/all.tgz -C $O r
