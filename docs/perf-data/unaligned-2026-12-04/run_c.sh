#!/usr/bin/env bash
# GPU run 3 (2026-12-04, twentieth stop): 17 to 128 rows whose A or B rows
# rule out 16-byte loads, packed (as the manifests say) and in place (the
# same kernels, manifests with the packing threshold raised so that no
# operand is packed): the wgmma tiles of artifacts/inplacesweep
# (INPLACE_SWEEP, tn/nn/nt f16) on ten rows, and the f16 families
# (artifacts/every) on the same rows.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every inplacesweep; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
rm -rf /tmp/ip_np; cp -r artifacts/inplacesweep /tmp/ip_np
B=4611686018427387904
sed -i "s/\"min_work\": [0-9]*/\"min_work\": $B/; s/\"max_direct_k\": [0-9]*/\"max_direct_k\": $B/; s/\"max_direct_outputs\": [0-9]*/\"max_direct_outputs\": $B/; s/\"min_gemm_work\": [0-9]*/\"min_gemm_work\": $B/" /tmp/ip_np/g_*/manifest.json
ROWS=""
for s in 34x4476x6718 23x3694x1468 40x4097x4093 64x8193x4095 100x5001x3001 20x9221x1468 48x8417x4096 78x2085x10755 24x6001x4096 17x4097x2049; do
  for l in tn nn nt; do ROWS="$ROWS;f16 $l $s"; done
  timeout 90 python3 -m gemm_mlir.harness bench artifacts/inplacesweep --shape $s --out $O/r/packed-$s.json > $O/r/packed-$s.txt 2>&1; echo "packed $s rc $?"
  timeout 90 python3 -m gemm_mlir.harness bench /tmp/ip_np --shape $s --out $O/r/inplace-$s.json > $O/r/inplace-$s.txt 2>&1; echo "inplace $s rc $?"
done
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --rows "${ROWS#;}" --out $O/r/family.json > $O/r/family.txt 2>&1; echo "family rc $?"
grep -E "rows, " $O/r/family.txt
for f in $O/r/*.json; do gzip -9 $f; done
tar czf $O/all.tgz -C $O r
