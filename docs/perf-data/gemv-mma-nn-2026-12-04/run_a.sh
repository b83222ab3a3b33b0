#!/usr/bin/env bash
# GPU run 1 (2026-12-04, nineteenth stop): gemv on mma.sync on a B stored
# K x N (nn, nt) before any rule: the correctness of the gemv set (with the
# new configs gv23-gv29 and every float epilogue on gv23), memcheck on two
# of them, the tile sweep (artifacts/gemvmmacols, gq0-gq13) and the f16 nn
# family as committed (artifacts/every) on the same decode rows.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
for s in every gemv gemvmmacols; do ./scripts/gpu_prepare.sh $s $O/r; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 240 python3 -m gemm_mlir.harness check artifacts/gemv --shapes full --out $O/r/check-gemv.json > $O/r/check-gemv.txt 2>&1; echo "check rc $?"; tail -1 $O/r/check-gemv.txt
grep -v "^ " $O/r/check-gemv.txt | grep -v "^ok" | cut -c1-300 | head -20
for k in g_f16_nn_none_gv23 g_f16_nt_linear_gv27; do
  timeout 100 compute-sanitizer --tool memcheck python3 -m gemm_mlir.harness check artifacts/gemv --only $k > $O/r/memcheck-$k.txt 2>&1; echo "memcheck $k rc $?"; grep -E "ERROR SUMMARY" $O/r/memcheck-$k.txt | tail -1
done
ROWS=""
for s in 3x4096x4096 4x14336x4096 8x11008x4096 8x4096x4096 16x4096x11008 16x4096x4096 11x4097x4093 5x4097x4093 8x11008x4095 4x2048x1024 6x1280x8192 13x1056x4096 16x8192x512 12x2048x8192 3x9000x1500; do
  ROWS="$ROWS; f16 nn $s"
  timeout 60 python3 -m gemm_mlir.harness bench artifacts/gemvmmacols --shape $s --dtypes f16 --out $O/r/sweep-$s.json > $O/r/sweep-$s.txt 2>&1
  echo "== sweep $s rc $?"; grep -E "_gq" $O/r/sweep-$s.txt | awk '{print $1, $6, $8, $11}' | sort -k4 -n -r | head -5
done
timeout 150 python3 -m gemm_mlir.harness every artifacts/every --rows "${ROWS#; }" --out $O/r/family.json > $O/r/family.txt 2>&1; echo "family rc $?"
grep -E "ratio|rows, " $O/r/family.txt | cut -c1-200
tar czf $O/all.tgz -C $O r
