#!/usr/bin/env bash
# Builds gemm-mlir and runs the whole lit suite (unit tests included);
# exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" gemm-opt GemmUnitTests
ninja -C "$root/build" check-gemm
