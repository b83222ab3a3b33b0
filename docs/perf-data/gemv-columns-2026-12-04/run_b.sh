#!/usr/bin/env bash
# GPU run 2 (2026-12-04): gemv on an N-contiguous B before any rule: the
# correctness of the gemv set (artifacts/gemv, with the new nn/nt configs
# gv16-gv22), memcheck on two of them, the tile sweep (artifacts/gemvcols)
# and the family as committed (artifacts/everynn: the nn and nt f16 families of artifacts/every) on the same decode rows.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1 || { OUT=$O/r/rt ./scripts/gpu_run.sh every runtime > $O/r/runtime.log 2>&1; echo "runtime rc $?"; }
for s in gemv gemvcols everynn; do ls artifacts/$s/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 200 python3 -m gemm_mlir.harness check artifacts/gemv --shapes full --out $O/r/check-gemv.json > $O/r/check-gemv.txt 2>&1; echo "check rc $?"; tail -2 $O/r/check-gemv.txt
grep -E "FAIL|WRONG|rror" $O/r/check-gemv.txt | head -20
for k in g_f16_nn_none_gv16 g_f16_nt_residual_gv18; do
  timeout 120 compute-sanitizer --tool memcheck python3 -m gemm_mlir.harness check artifacts/gemv --only $k > $O/r/memcheck-$k.txt 2>&1; echo "memcheck $k rc $?"; grep -E "ERROR SUMMARY|checks" $O/r/memcheck-$k.txt | tail -2
done
ROWS=""
for s in 1x4096x4096 1x14336x4096 1x4096x14336 1x11008x4096 1x14039x1158 1x2048x8192 2x4096x4096 4x4096x4096 4x11008x4096 3x4097x4093 8x4096x4096 16x4096x11008 1x11143x1242; do
  ROWS="$ROWS; f16 nn $s"
  timeout 100 python3 -m gemm_mlir.harness bench artifacts/gemvcols --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
  echo "== sweep $s rc $?"; grep -E "_gc" $O/r/sweep-$s.txt | awk '{print $1, $6, $8, $11}' | sort -k4 -n -r | head -8
done
timeout 200 python3 -m gemm_mlir.harness every artifacts/everynn --rows "${ROWS#; }; f16 nt 1x11143x1242; f16 nt 4x4096x4096" --out $O/r/family.json > $O/r/family.txt 2>&1; echo "family rc $?"
grep -v "^device\|^ " $O/r/family.txt | cut -c1-200
tar czf $O/all.tgz -C $O r
