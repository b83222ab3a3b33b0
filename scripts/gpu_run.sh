#!/usr/bin/env bash
# Runs on the GPU machine: builds the runtime (libGemmRuntime and its Python
# module, standalone: no LLVM there) into /tmp, assembles the carried PTX to
# cubin (parallel ptxas), checks every kernel against float64 and benchmarks
# against cuBLAS through the runtime, and dumps SASS instruction counts.
# Usage: gpu_run.sh SET MODE(check|bench|both|every|profile|runtime) [harness args]
# (every: every class of shape against cuBLAS, harness.py's SHAPES_EVERY;
# profile: the same rows kernel by kernel, torch.profiler;
# runtime: the runtime's own GPU checks, runtime/python/gpu_check.py, which
# the other modes run first too.)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
set_name=${1:-smoke}; mode=${2:-both}; shift 2 || true
art="$root/artifacts/$set_name"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

# The runtime, built where it runs (docs/runtime.md, "Building").
rt_build=${GEMM_RUNTIME_BUILD:-/tmp/gemm-runtime}
python=$(command -v python3)
pybind11_dir=$("$python" -m pybind11 --cmakedir 2>/dev/null || true)
if ! { cmake -S "$root/runtime" -B "$rt_build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DPython3_EXECUTABLE="$python" ${pybind11_dir:+-Dpybind11_DIR="$pybind11_dir"} \
       && ninja -C "$rt_build"; } > "$OUT/runtime-build.txt" 2>&1 \
   || ! ls "$rt_build"/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1; then
  echo "gpu_run: building the runtime failed (python $python, pybind11 '${pybind11_dir}'):"
  tail -40 "$OUT/runtime-build.txt"
  exit 1
fi
export PYTHONPATH="$root/python:$rt_build/python${PYTHONPATH:+:$PYTHONPATH}"
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
if [ -d "$art/g_f16_tn_none" ]; then
  "$python" "$root/runtime/python/gpu_check.py" "$art" "$rt_build/lib/libGemmRuntime.so" \
    --out "$OUT/runtime.json" 2>&1 | tee "$OUT/runtime.txt" || rc=1
fi
[ "$mode" = runtime ] && exit $rc
if [ "$mode" = check ] || [ "$mode" = both ]; then
  "$python" -m gemm_mlir.harness check "$art" --out "$OUT/check.json" "$@" 2>&1 | tee "$OUT/check.txt" || rc=1
fi
if [ "$mode" = bench ] || [ "$mode" = both ]; then
  "$python" -m gemm_mlir.harness bench "$art" --out "$OUT/bench.json" 2>&1 | tee "$OUT/bench.txt" || rc=1
fi
if [ "$mode" = profile ]; then
  "$python" -m gemm_mlir.harness profile "$art" --out "$OUT/profile.json" "$@" 2>&1 | tee "$OUT/profile.txt" || rc=1
fi
if [ "$mode" = every ]; then
  "$python" -m gemm_mlir.harness every "$art" --out "$OUT/every.json" "$@" 2>&1 | tee "$OUT/every.txt" || rc=1
fi
exit $rc
