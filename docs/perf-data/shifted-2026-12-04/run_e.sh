#!/usr/bin/env bash
# GPU run 5 (2026-12-04, eighteenth stop): the final families (shifted
# copies in the wgmma tiles; the wgmma families' packing threshold:
# batch * M * N <= 2^21, K <= 192 and M * N * K < 2^26): check --shapes
# full, the rows of runs 2 and 4 as built, the every list and the random
# probe.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
./scripts/gpu_prepare.sh every $O/r
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 200 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check-every rc $?"; tail -1 $O/r/check-every.txt
grep -v "^ " $O/r/check-every.txt | grep -v "^ok" | cut -c1-300 | head
ROWS="bf16 nn 36x619x65x90;f16 nn 15x189x335x55;bf16 tn 8x110x155x119;f16 nn 4x100x167x365;f16 tn 4x111x469x230;f16 tn 3x128x549x169;f16 tn 17x3x5;f16 nn 129x257x385;f16 nn 1301x256x250;f16 tn 333x517x271;f16 tn 1000x1001x1;bf16 nt 1101x3715x15;f16 tn 4096x4096x1;bf16 tn 23x3694x1468;bf16 tn 34x4476x6718;f16 nn 8x1027x1258;f16 tt 1023x999x777;f16 nn 2000x2000x2001;f16 tn 4099x4097x4095;bf16 nn 4099x4097x4095;f16 nt 30x187x34191;f16 tt 40645x61x377;f16 tn 64x64x65;f16 tn 128x128x255;f16 tn 256x256x511;f16 tn 512x512x1023;f16 tn 1024x1024x1023;f16 nn 200x300x999;f16 tn 8x128x128x127;f16 nn 32x64x64x63;bf16 nt 700x500x301;f16 tn 2048x2048x129"
timeout 100 python3 -m gemm_mlir.harness every artifacts/every --rows "$ROWS" --out $O/r/rows.json > $O/r/rows.txt 2>&1; echo "rows rc $?"; grep -E "ratio|rows, " $O/r/rows.txt | cut -c1-190
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every.json > $O/r/every.txt 2>&1; echo "every rc $?"; grep -A10 "rows, " $O/r/every.txt | head -11
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"; grep -E "rows, |min ratio" $O/r/probe.txt
EDGE="f16 tn 1400x1400x190;f16 tn 1024x2048x191;bf16 nn 1448x1448x127;f16 nt 2000x1000x63;f16 tn 700x700x191;f16 nn 300x6900x99;bf16 tn 16x256x512x191;f16 tn 64x181x181x127;f16 nn 2x1024x1024x95;bf16 tt 900x2300x33;f16 tn 1023x2049x17;f16 tn 4000x500x9"
timeout 100 python3 -m gemm_mlir.harness every artifacts/every --rows "$EDGE" --out $O/r/edge.json > $O/r/edge.txt 2>&1; echo "edge rc $?"; grep -E "ratio|rows, " $O/r/edge.txt | cut -c1-190
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
