#!/usr/bin/env bash
# GPU run 3 (2026-12-04): the families with the gemv-n members
# (artifacts/every at 5e20425): the runtime's checks and the every list, the
# nn/nt decode rows of run_b.sh (before: family.txt there), the random
# probe (../probe-2026-12-04/gen_rows.py), SASS of the gemv-n-deep kernel.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
O=${OUT:-/tmp/out}; mkdir -p $O/r
export PYTHONPATH=$PWD/python:/tmp/gemm-runtime/python
rm -rf artifacts/every; tar xJf artifacts/pack/every.tar.xz -C artifacts  # carried packed (the 64 MiB limit)
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
OUT=$O/r/ev ./scripts/gpu_run.sh every every > $O/r/every.log 2>&1; echo "every rc $?"
grep -E "runtime|rows,|min ratio|geomean|WRONG" $O/r/every.log | head; grep -E "rows,|min ratio|geomean|WRONG|^decode " $O/r/ev/every.txt | cut -c1-200
ROWS="f16 nn 1x4096x4096; f16 nn 1x14336x4096; f16 nn 1x4096x14336; f16 nn 1x11008x4096; f16 nn 1x14039x1158; f16 nn 1x2048x8192; f16 nn 2x4096x4096; f16 nn 2x11008x4096; bf16 nn 1x4096x4096; bf16 nt 2x14336x4096; f16 nn 1x11143x1242; f16 nt 1x11143x1242; f16 nt 1x4096x4096; f16 nn 1x4097x4093; f16 nn 2x8191x1000"
timeout 150 python3 -m gemm_mlir.harness every artifacts/every --rows "$ROWS" --out $O/r/rows.json > $O/r/rows.txt 2>&1; echo "rows rc $?"
grep -v "^device\|^ " $O/r/rows.txt | cut -c1-220
PROBE=$(python3 docs/perf-data/probe-2026-12-04/gen_rows.py)
timeout 300 python3 -m gemm_mlir.harness every artifacts/every --rows "$PROBE" --out $O/r/probe.json > $O/r/probe.txt 2>&1; echo "probe rc $?"
tail -2 $O/r/probe.txt
k=$(ls artifacts/every/g_f16_nn_none/*.cubin | head -1)
cuobjdump -sass -fun g_f16_nn_none_gemm $k > $O/r/sass-gemv-n-deep.txt 2>&1
for ins in LDG.E.128 LDG.E.U16 SHFL FFMA HADD2.F32 BAR STS LDS; do printf '%s %s\n' $ins "$(grep -c "$ins" $O/r/sass-gemv-n-deep.txt)"; done
tar czf $O/all.tgz -C $O r
