#!/usr/bin/env bash
# Runs on the GPU machine: assembles the carried PTX to cubin (parallel ptxas),
# checks every kernel against float64, benchmarks against cuBLAS, and dumps
# SASS instruction counts. Usage: gpu_run.sh SET MODE(check|bench|both|every) [harness args]
# (every: every class of shape against cuBLAS, harness.py's SHAPES_EVERY.)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
set_name=${1:-smoke}; mode=${2:-both}; shift 2 || true
art="$root/artifacts/$set_name"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw --format=csv | tee "$OUT/gpu.txt"
# The chip is the PTX file's suffix (gemm_kernels.sm_90a.ptx).
ls "$art"/g_*/*.ptx | xargs -P 16 -I{} sh -c 'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"'
one=$(ls "$art"/g_f16_tn_none/*.cubin 2>/dev/null | head -1)
if [ -n "$one" ]; then
  cuobjdump -sass "$one" > "$OUT/sass_f16_tn.txt"
  for ins in HMMA HGMMA LDSM LDGSTS BAR.SYNC LDG STG LDS; do
    printf '%s %s\n' "$ins" "$(grep -c "$ins" "$OUT/sass_f16_tn.txt")"
  done | tee "$OUT/sass_counts.txt"
fi
rc=0
if [ "$mode" = check ] || [ "$mode" = both ]; then
  PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" python3 -m gemm_mlir.harness check "$art" --out "$OUT/check.json" "$@" 2>&1 | tee "$OUT/check.txt" || rc=1
fi
if [ "$mode" = bench ] || [ "$mode" = both ]; then
  PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" python3 -m gemm_mlir.harness bench "$art" --out "$OUT/bench.json" 2>&1 | tee "$OUT/bench.txt" || rc=1
fi
if [ "$mode" = every ]; then
  PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" python3 -m gemm_mlir.harness every "$art" --out "$OUT/every.json" "$@" 2>&1 | tee "$OUT/every.txt" || rc=1
fi
exit $rc
