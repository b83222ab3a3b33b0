#!/usr/bin/env bash
# GPU run: gemv on mma.sync. Correctness (gemv set, memcheck), then the
# sweep beside the family.
set -uo pipefail
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/out}
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
OUT=$O/gemv ./scripts/gpu_run.sh gemv check > $O/check-gemv.log 2>&1; echo "check rc $?"
tail -3 $O/gemv/check.txt
grep -E "gv(9|1[0-9])" $O/gemv/check.txt | head -20
for s in gemvsweep every; do
  ls artifacts/$s/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
done
for k in gv9 gv11 gv12; do
timeout 100 compute-sanitizer --tool memcheck python3 -m gemm_mlir.harness check artifacts/gemv --only $k > $O/memcheck-$k.txt 2>&1; echo "memcheck $k rc $?"; tail -2 $O/memcheck-$k.txt
done
python3 artifacts/go/mma_sweep.py $O/sweep.json > $O/sweep.txt 2>&1; echo "sweep rc $?"; cat $O/sweep.txt
cuobjdump -sass artifacts/gemvsweep/g_f16_tn_none_gm0/*.cubin > $O/sass-gm0.txt; for i in HMMA LDG.E.128 SHF SEL LDS BAR; do echo "$i $(grep -c "$i" $O/sass-gm0.txt)"; done
