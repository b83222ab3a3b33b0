#!/usr/bin/env bash
# GPU run 1 (written 2026-12-05, twenty-first stop, when no device was lent;
# not run yet): the tuner on the decode suite (python/gemm_mlir/tuner/
# suites.py DECODE_SHAPES: ten shapes of M <= 16, three of them with rows
# that rule out 16-byte copies) for f16 tn and nn, with every member of
# the dispatch family and the model's top 2 per shape. Its tuning-db.json
# gives tuning/h200.json its first gemv and unaligned entries (kept apart
# from aligned shapes by lookupTuningDB).
#
# Here first (README.md beside this script):
#   PYTHONPATH=python python3 -m gemm_mlir.tune prepare artifacts/tunedec \
#       --chip sm_90a --suite decode --top 2 --dispatch
#   mkdir -p artifacts/pack && tar cJf artifacts/pack/tunedec.tar.xz -C artifacts tunedec
# then on the H200 (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/tune-decode-2026-12-05/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
./scripts/gpu_prepare.sh tunedec $O/r
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 480 python3 -m gemm_mlir.tune measure artifacts/tunedec --results $O/r/tune > $O/r/measure.txt 2>&1
echo "measure rc $?"; grep -E "BEST|FAIL|WRONG" $O/r/measure.txt | head -60
gzip -9 $O/r/tune/measurements.json
tar czf $O/all.tgz -C $O r
