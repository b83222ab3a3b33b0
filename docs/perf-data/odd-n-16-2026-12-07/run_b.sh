#!/usr/bin/env bash
# GPU run 2: run 1 timed the family 3.8 us slower than gq7 (the same tile
# and PTX) at K = 4093 but not at K = 2047: what each call launches
# (profile.py), same pack as run 1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin gemvmmacols
step 120 profile python3 $here/profile.py artifacts/gemvmmacols 11x4097x4093 16x4097x2047 16x4097x4093 > $O/r/profile.txt 2>&1
cut -c1-300 $O/r/profile.txt
gpu_end
