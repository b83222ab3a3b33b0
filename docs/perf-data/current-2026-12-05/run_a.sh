#!/usr/bin/env bash
# GPU run (2026-12-05, twenty-sixth stop): the current every-shape figures
# of the sm_90a families as committed at e3df0a4 (the decode-wgmma rules
# of the twenty-fourth stop, the pack kernel's shifted copies, fixed entry
# registers of the warp-specialized members). Here first, at e3df0a4:
#   CHIP=sm_90a ./scripts/gpu_artifacts.sh every   # renamed everyfin
#   tar cJf artifacts/pack/everyfin.tar.xz -C artifacts everyfin
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/current-2026-12-05/run_a.sh
# 1. the every list (issue 13's benchmark, with the copy bandwidth);
# 2. the decode rows of the decode-tn runs (tn and nn/nt, 3-16 rows);
# 3. the every list again, as the device time allows (GPU_BUDGET_S=360:
#    what this stop's device time left).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh everyfin $O/r > /dev/null
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
. docs/perf-data/decode-tn-2026-12-05/rows.sh
final_rows
E=artifacts/everyfin
step 110 every1 python3 -m gemm_mlir.harness every $E --out $O/r/every1.json > $O/r/every1.txt 2>&1
grep -A14 "rows, " $O/r/every1.txt | head -15
step 80 tn python3 -m gemm_mlir.harness every $E --rows "$TN" --out $O/r/tn.json > $O/r/tn.txt 2>&1
grep -E "rows, " $O/r/tn.txt
step 60 nn python3 -m gemm_mlir.harness every $E --rows "$NN" --out $O/r/nn.json > $O/r/nn.txt 2>&1
grep -E "rows, " $O/r/nn.txt
step 110 every2 python3 -m gemm_mlir.harness every $E --out $O/r/every2.json > $O/r/every2.txt 2>&1
grep -A14 "rows, " $O/r/every2.txt | head -15
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
