#!/usr/bin/env bash
# GPU run: gemv shifted path. Correctness (gemv set, memcheck), then timings.
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/gemv ./scripts/gpu_run.sh gemv check > $O/check-gemv.log 2>&1; echo "check rc $?"
tail -3 $O/gemv/check.txt
for s in gemvsweep every; do
  ls artifacts/$s/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
done
timeout 200 compute-sanitizer --tool memcheck python3 -m gemm_mlir.harness check artifacts/gemv > $O/memcheck-gemv.txt 2>&1; echo "memcheck rc $?"; tail -3 $O/memcheck-gemv.txt
python3 artifacts/go/shift_exp.py $O/exp-tn.json tn 1x4097x4093,1x4096x4095,1x11008x4095,2x4097x4093,4x4097x4093,1x4096x4096,2x4096x4096 artifacts/every artifacts/gemvsweep > $O/exp-tn.txt 2>&1; echo "exp rc $?"
python3 artifacts/go/shift_exp.py $O/exp-tt.json tt 1x4097x4093,1x4096x4096 artifacts/every artifacts/gemv > $O/exp-tt.txt 2>&1; echo "exp tt rc $?"
cuobjdump -sass artifacts/gemv/g_f16_tn_none_gv0/*.cubin > $O/sass-gv0.txt; for i in LDG.E.128 LDG.E.U16 SHF PRMT SEL FFMA LDS; do echo "$i $(grep -c "$i" $O/sass-gv0.txt)"; done
