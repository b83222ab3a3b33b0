#!/usr/bin/env bash
# Configures (once) and builds gemm-mlir into ./build with Ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
if [ ! -f "$root/build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
ninja -C "$root/build" "$@"
