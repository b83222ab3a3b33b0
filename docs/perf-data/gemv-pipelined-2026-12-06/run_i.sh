#!/usr/bin/env bash
# GPU run 9 (2026-12-06, twenty-ninth stop): bf16 tn 16x4096x11008 runs at
# 74% of the copy against f16's 79% with the same tile in every every-list
# run, and run 3 moved f16 16x4096x11008 by 3-8% with identical PTX. Is it
# where B lies? offsets.py on run 8's every set (artifacts/pack/every.tar.xz).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
./scripts/gpu_prepare.sh every $O/r > $O/r/prepare-every.txt 2>&1; tail -1 $O/r/prepare-every.txt
step 200 offsets python3 $here/offsets.py artifacts/every > $O/r/offsets.txt 2>&1
cat $O/r/offsets.txt
