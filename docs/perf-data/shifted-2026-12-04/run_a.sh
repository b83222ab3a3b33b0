#!/usr/bin/env bash
# GPU run 1 (2026-12-04, eighteenth stop): shifted copies in the tile
# kernels' main loop (artifacts/every, packed as artifacts/pack/every.tar.xz).
# A copy of the families with packing off (the manifests' min_work and
# max_direct_k raised: every unaligned operand read in place, on the
# shifted path) is checked with --shapes full; then rows of unaligned
# operands, small to large, timed both ways (packed as the manifests say,
# and in place).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
./scripts/gpu_prepare.sh every $O/r
rm -rf /tmp/every_np; cp -r artifacts/every /tmp/every_np
sed -i 's/"min_work": [0-9]*/"min_work": 4611686018427387904/; s/"max_direct_k": [0-9]*/"max_direct_k": 4611686018427387904/' /tmp/every_np/g_*/manifest.json
grep -o '"min_work": [0-9]*' /tmp/every_np/g_f16_tn_none/manifest.json | head -1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 280 python3 -m gemm_mlir.harness check /tmp/every_np --shapes full --out $O/r/check-np.json > $O/r/check-np.txt 2>&1; echo "check-np rc $?"; tail -1 $O/r/check-np.txt
grep -v "^ " $O/r/check-np.txt | grep -v "^ok" | cut -c1-300 | head
ROWS="bf16 nn 36x619x65x90;f16 nn 15x189x335x55;bf16 tn 8x110x155x119;f16 nn 4x100x167x365;f16 tn 4x111x469x230;f16 tn 3x128x549x169;f16 tn 17x3x5;f16 nn 129x257x385;f16 nn 1301x256x250;f16 tn 333x517x271;f16 tn 1000x1001x1;bf16 nt 1101x3715x15;f16 tn 4096x4096x1;bf16 tn 23x3694x1468;bf16 tn 34x4476x6718;f16 nn 8x1027x1258;f16 tt 1023x999x777;f16 nn 2000x2000x2001;f16 tn 4099x4097x4095;bf16 nn 4099x4097x4095;f16 nt 30x187x34191;f16 tt 40645x61x377"
for v in packed:artifacts/every np:/tmp/every_np; do
  timeout 120 python3 -m gemm_mlir.harness every ${v#*:} --rows "$ROWS" --out $O/r/rows-${v%%:*}.json > $O/r/rows-${v%%:*}.txt 2>&1; echo "rows ${v%%:*} rc $?"
  grep -E "ratio|rows, " $O/r/rows-${v%%:*}.txt | cut -c1-190
done
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
