#!/usr/bin/env bash
# GPU run 3 (2026-12-04): why the family's decode-64x64 member
# (artifacts/every, g_f16_tn_none_gemm_7) takes ~18 us on 64x4096x4096
# where the same config compiled alone (artifacts/medsweep md2) takes ~14:
# kernel-by-kernel profile, both benchmarked the same way, SASS compared.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"
ls artifacts/medsweep/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
R="f16 tn 64x4096x4096; f16 tn 96x4096x4096; f16 tn 128x4096x4096; f16 tn 48x14336x4096"
python3 -m gemm_mlir.harness profile artifacts/every --rows "$R" --out $O/r/profile.json 2>&1 | grep -v ptxas
python3 -m gemm_mlir.harness bench artifacts/every --shape 64x4096x4096 --dtypes f16 --only g_f16_tn_none --out $O/r/b-fam.json 2>&1 | grep ratio
python3 -m gemm_mlir.harness bench artifacts/medsweep --shape 64x4096x4096 --dtypes f16 --only g_f16_tn_none_md2 --out $O/r/b-md2.json 2>&1 | grep ratio
cuobjdump -sass -fun g_f16_tn_none_gemm_7 artifacts/every/g_f16_tn_none/gemm_kernels.sm_90a.cubin > $O/r/sass-fam.txt
cuobjdump -sass -fun g_f16_tn_none_md2_gemm artifacts/medsweep/g_f16_tn_none_md2/gemm_kernels.sm_90a.cubin > $O/r/sass-md2.txt
wc -l $O/r/sass-*.txt
for ins in HGMMA UTMALDG SYNCS BAR WARPSYNC DEPBAR STG; do echo "$ins $(grep -c $ins $O/r/sass-fam.txt) $(grep -c $ins $O/r/sass-md2.txt)"; done
cuobjdump -elf artifacts/every/g_f16_tn_none/gemm_kernels.sm_90a.cubin | grep -A12 "nv.info.g_f16_tn_none_gemm_7$" | head -30
tar czf $O/all.tgz -C $O r
