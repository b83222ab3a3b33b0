#!/usr/bin/env bash
# GPU run 4 (2026-12-04): the families with the gemv-n members
# (artifacts/every at 5e20425, carried packed): check --shapes full on
# every family, SASS of the gemv-n-deep kernel, the every list again (the
# launch-bound rows of run 3 against this one).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
ls artifacts/every/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
k=$(ls artifacts/every/g_f16_nn_none/*.cubin | head -1)
for f in g_f16_nn_none_gemm_0 g_f16_nn_none_gemm_1; do
  cuobjdump -sass -fun $f $k > $O/r/sass-$f.txt 2>&1
  echo "$f: $(for ins in LDG.E.128 'LDG.E.U16' SHFL.BFLY FFMA HADD2.F32 BAR.SYNC STS LDS SHF.R; do printf '%s %s, ' "$ins" "$(grep -c "$ins" $O/r/sass-$f.txt)"; done)"
done
timeout 330 python3 -m gemm_mlir.harness check artifacts/every --shapes full --out $O/r/check-every.json > $O/r/check-every.txt 2>&1; echo "check rc $?"; tail -2 $O/r/check-every.txt
grep -E "FAIL|WRONG" $O/r/check-every.txt | head -20
grep -E "gemm_[0-3] |gemv-n" $O/r/check-every.txt | head -5
timeout 200 python3 -m gemm_mlir.harness every artifacts/every --out $O/r/every2.json > $O/r/every2.txt 2>&1; echo "every2 rc $?"
grep -E "rows,|min ratio|geomean" $O/r/every2.txt | head -14
tar czf $O/all.tgz -C $O r
