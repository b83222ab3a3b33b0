#!/usr/bin/env bash
# The Python API on a GPU machine that has Python, torch, CuPy, pybind11,
# CMake, Ninja and the CUDA toolkit but no LLVM/MLIR (docs/python.md).
#
#   scripts/gpu_python.sh prepare     here, where LLVM 22 is installed:
#       builds libGemmCompilerStandalone.so (the compiler C API with the
#       MLIR/LLVM static libraries inside), checks that it needs no LLVM,
#       MLIR or Z3 library, and puts it xz-compressed into artifacts/pylib/
#       (ignored by git; carry it to the GPU machine).
#   scripts/gpu_python.sh [OUT]       on the GPU machine: unpacks it, builds
#       the runtime's module and the compiler's module against it (into
#       /tmp), then runs scripts/gpu_python.py: compiles fused GEMMs from
#       Python there, checks them on torch tensors against float64, and
#       measures the per-call overhead, writing OUT/python-overhead.json
#       (OUT defaults to $OUT, else ./out).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pylib="$root/artifacts/pylib"
lib=libGemmCompilerStandalone.so

if [ "${1:-}" = prepare ]; then
  "$root/scripts/setup.sh"
  if [ ! -f "$root/build/build.ninja" ]; then
    "$root/scripts/build.sh" gemm-opt
  fi
  # On for this build only: with it on, `cmake --install build` would
  # install the 135 MB library too.
  cmake -DGEMM_BUILD_STANDALONE_COMPILER=ON "$root/build" >/dev/null
  status=0
  ninja -C "$root/build" GemmCompilerStandalone || status=$?
  cmake -DGEMM_BUILD_STANDALONE_COMPILER=OFF "$root/build" >/dev/null
  [ "$status" -eq 0 ] || exit "$status"
  so="$root/build/lib/$lib"
  if ldd "$so" | grep -Ei 'libMLIR|libLLVM|libz3|not found'; then
    echo "gpu_python: $so needs the libraries above" >&2
    exit 1
  fi
  mkdir -p "$pylib"
  xz -6 -T2 -c "$so" > "$pylib/$lib.xz"
  echo "gpu_python: $(du -h "$so" | cut -f1) -> $(du -h "$pylib/$lib.xz" | cut -f1) $pylib/$lib.xz"
  ldd "$so"
  exit 0
fi

out=${1:-${OUT:-$root/out}}
mkdir -p "$out"
[ -f "$pylib/$lib.xz" ] || {
  echo "gpu_python: $pylib/$lib.xz is missing: run 'scripts/gpu_python.sh prepare' where LLVM 22 is installed" >&2
  exit 1
}
# The CUDA toolkit on PATH: ptxas for cubins, libdevice for epilogue math.
for cuda in "${CUDA_HOME:-}" /usr/local/cuda; do
  if [ -n "$cuda" ] && [ -x "$cuda/bin/ptxas" ]; then
    export PATH="$cuda/bin:$PATH"
    break
  fi
done
work=${GEMM_PYTHON_WORK:-/tmp/gemm-python}
mkdir -p "$work/lib"
python3 -c "import lzma, sys; open(sys.argv[2], 'wb').write(lzma.open(sys.argv[1]).read())" \
  "$pylib/$lib.xz" "$work/lib/$lib"
pybind11_dir=$(python3 -m pybind11 --cmakedir)
start=$SECONDS
# The build logs go to OUT too: what failed comes back with them.
{ cmake -S "$root/runtime" -B "$work/rt" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -Dpybind11_DIR="$pybind11_dir" && ninja -C "$work/rt"; } \
  >"$out/build-runtime.log" 2>&1 || { tail -30 "$out/build-runtime.log"; exit 1; }
{ cmake -S "$root/python/src" -B "$work/pc" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DGEMM_COMPILER_LIBRARY="$work/lib/$lib" \
    -Dpybind11_DIR="$pybind11_dir" && ninja -C "$work/pc"; } \
  >"$out/build-compiler.log" 2>&1 || { tail -30 "$out/build-compiler.log"; exit 1; }
echo "gpu_python: modules built in $((SECONDS - start)) s"
ls "$work/rt/python/gemm_mlir" "$work/pc/python/gemm_mlir"

export PYTHONPATH="$root/python:$work/rt/python:$work/pc/python${PYTHONPATH:+:$PYTHONPATH}"
export GEMM_MLIR_CACHE_DIR="$work/cache"
export PYTHONUNBUFFERED=1
set -o pipefail
python3 "$root/scripts/gpu_python.py" "$out/python-overhead.json" 2>&1 |
  tee "$out/gpu_python.log"
