#!/usr/bin/env bash
# GPU run 2: pitch.py (rows of K an odd multiple of 8 f16 as given, padded
# to 64 elements, the copy that pads them). Pack: everysc.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin everysc
step 150 pitch python3 $here/pitch.py artifacts/everysc 4096x4096x3000 5000x5000x3000 4096x4096x3008 2048x2048x3000 8192x8192x1000 4096x11008x1000 8192x8192x4104 4096x4096x6000 1024x1024x3000 > $O/r/pitch.txt 2>&1
cut -c1-250 $O/r/pitch.txt
gpu_end
