#!/usr/bin/env bash
# GPU run: full checks of the gemv and every sets, then the every list and
# extra one-row rows with misaligned K.
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/gemv ./scripts/gpu_run.sh gemv check --shapes full > $O/check-gemv.log 2>&1; echo "check gemv rc $?"; tail -2 $O/gemv/check.txt; cp $O/gemv/check.txt $O/check-gemv.txt
OUT=$O/every ./scripts/gpu_run.sh every runtime > $O/runtime-every.log 2>&1; echo "runtime rc $?"; tail -2 $O/runtime-every.log
python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/check-every.json > $O/check-every.txt 2>&1; echo "check every rc $?"; tail -2 $O/check-every.txt
python3 -m gemm_mlir.harness every artifacts/every --out $O/every.json > $O/every.txt 2>&1; echo "every rc $?"; tail -25 $O/every.txt
python3 -m gemm_mlir.harness every artifacts/every --out $O/every-extra.json --rows 'f16 tn 1x4097x4093;f16 tn 1x4096x4095;f16 tn 1x11008x4095;bf16 tn 1x4097x4093;f16 tt 1x4097x4093;bf16 tt 1x4097x4093;f16 tn 1x4096x4096;bf16 tn 1x4096x4096;f16 tt 1x4096x4096;f16 tn 1x14336x4095' > $O/every-extra.txt 2>&1; echo "extra rc $?"; tail -16 $O/every-extra.txt
