#!/usr/bin/env bash
# GPU run 1 (2026-12-07, thirty-sixth stop): f32 division in an epilogue
# as the f64 quotient rounded to f32 (cases.py f64_quotient) beside
# div.rn.f32: bit for bit against PyTorch (`divide`), and bias + SiLU +
# residual on randn and unit-size inputs. Here:
#   CHIP=sm_90a GEMM_OPTS="allow-tf32" ./scripts/gpu_artifacts.sh div64
#   tar cJf artifacts/pack/div64.tar.xz -C artifacts div64
# then on the GPU (carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/div64-2026-12-07/run_a.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
gpu_begin div64
H="python3 -m gemm_mlir.harness"
A=artifacts/div64
step 60 divide $H divide $A --out $O/r/divide.json > $O/r/divide.txt 2>&1; cat $O/r/divide.txt | cut -c1-200
step 60 check $H check $A --out $O/r/check.json > $O/r/check.txt 2>&1; tail -2 $O/r/check.txt
for i in 1 2; do
  step 60 "fused randn $i" $H fused $A --out $O/r/fused-randn$i.json > $O/r/fused-randn$i.txt 2>&1; cut -c1-230 $O/r/fused-randn$i.txt
  step 60 "fused unit $i" $H fused $A --inputs unit --out $O/r/fused-unit$i.json > $O/r/fused-unit$i.txt 2>&1; cut -c1-230 $O/r/fused-unit$i.txt
done
cuobjdump -sass $A/g_f16_tn_bias_silu_residual_f64/*.cubin 2>/dev/null | grep -o "DFMA\|MUFU.RCP64H\|CALL.REL" | sort | uniq -c > $O/r/sass.txt; cat $O/r/sass.txt
gpu_end
