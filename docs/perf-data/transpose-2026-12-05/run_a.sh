#!/usr/bin/env bash
# GPU run 1 (2026-12-05, twenty-fifth stop): the transposing copy with
# 16-byte loads against the one before it. Here first:
#   CHIP=sm_90a GEMM_OPTS="allow-tf32" ./scripts/gpu_artifacts.sh transpose   # renamed tnew
#   the same at b132064's Pack.cpp, renamed told
#   for s in tnew told; do tar cJf artifacts/pack/$s.tar.xz -C artifacts $s; done
# then on the GPU (run with carry ["artifacts/pack"]):
#   OUT=$OUT bash docs/perf-data/transpose-2026-12-05/run_a.sh
# 1. correctness of the new set (every layout of tf32, i8, f8, epilogues,
#    batched, ragged shapes: `check --shapes full`);
# 2. both builds in one process (merge_old.py: told's kernels as
#    <function>_old variants beside tnew's), the bench list of tf32, i8
#    and f8, twice;
# 3. a source whose rows rule out 16-byte loads (N = 4097: B of nn and nt
#    is read element by element in both builds);
# 4. SASS counts of the transposing kernels.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
. scripts/gpu_step.sh
for s in tnew told; do ./scripts/gpu_prepare.sh $s $O/r > /dev/null; done
rm -rf artifacts/tboth && cp -r artifacts/tnew artifacts/tboth
python3 "$here/merge_old.py" artifacts/told artifacts/tboth
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
step 150 bench1 python3 -m gemm_mlir.harness bench artifacts/tboth --dtypes tf32,i8,f8 --out $O/r/bench1.json > $O/r/bench1.txt 2>&1
step 60 odd python3 -m gemm_mlir.harness bench artifacts/tboth --dtypes tf32,i8 --shape 4096x4097x4096 --out $O/r/odd.json > $O/r/odd.txt 2>&1
step 200 check python3 -m gemm_mlir.harness check artifacts/tnew --shapes full --out $O/r/check.json > $O/r/check.txt 2>&1
tail -5 $O/r/check.txt
step 150 bench2 python3 -m gemm_mlir.harness bench artifacts/tboth --dtypes tf32,i8,f8 --out $O/r/bench2.json > $O/r/bench2.txt 2>&1
for s in tnew told; do
  cuobjdump -sass artifacts/$s/g_i8_nn_none/*.cubin | awk '/Function : gemm_transpose/{f=1} /Function : /&&!/gemm_transpose/{f=0} f' > $O/r/sass-$s.txt
  echo "$s: $(grep -c 'LDG.E.128' $O/r/sass-$s.txt) LDG.128, $(grep -c 'LDG.E.U8\|LDG.E.S8' $O/r/sass-$s.txt) LDG.8, $(grep -c 'STS' $O/r/sass-$s.txt) STS, $(grep -c 'LDS' $O/r/sass-$s.txt) LDS, $(grep -c 'STG.E.128' $O/r/sass-$s.txt) STG.128"
done
for f in bench1 odd bench2; do echo "== $f"; grep -v "^\s*$" $O/r/$f.txt | tail -45; done
for f in $O/r/*.json; do gzip -9 $f; done
rm -rf $O/r/rt $O/r/runtime.log
tar czf $O/all.tgz -C $O r
