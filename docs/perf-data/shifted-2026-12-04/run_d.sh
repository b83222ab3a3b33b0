#!/usr/bin/env bash
# GPU run 4 (2026-12-04, eighteenth stop): rows at the edge of the wgmma
# families' packing threshold (batch * M * N <= 2^21, K <= 192), as built
# (in place) and with the threshold off (min_work 0: packed whenever
# misaligned), to see what the threshold chooses where it was not measured.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
./scripts/gpu_prepare.sh every $O/r
rm -rf /tmp/every_pk; cp -r artifacts/every /tmp/every_pk
sed -i 's/"min_work": [0-9]*/"min_work": 0/' /tmp/every_pk/g_*/manifest.json
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
ROWS="f16 tn 1400x1400x190;f16 tn 1024x2048x191;bf16 nn 1448x1448x127;f16 nt 2000x1000x63;f16 tn 700x700x191;f16 nn 300x6900x99;bf16 tn 16x256x512x191;f16 tn 64x181x181x127;f16 nn 2x1024x1024x95;bf16 tt 900x2300x33;f16 tn 1023x2049x17;f16 tn 4000x500x9"
for v in built:artifacts/every packed:/tmp/every_pk; do
  timeout 120 python3 -m gemm_mlir.harness every ${v#*:} --rows "$ROWS" --out $O/r/edge-${v%%:*}.json > $O/r/edge-${v%%:*}.txt 2>&1; echo "edge ${v%%:*} rc $?"
  grep -E "ratio|rows, " $O/r/edge-${v%%:*}.txt | cut -c1-190
done
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
