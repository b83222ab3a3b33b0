#!/usr/bin/env bash
# Builds our libraries, tools and unit tests with AddressSanitizer +
# UndefinedBehaviorSanitizer and assertions (-UNDEBUG) into ./build-asan and
# runs the whole lit suite there; exits non-zero on any failure, and any
# sanitizer report or failed assert aborts the tool and so fails its test.
# The MLIR/LLVM shared libraries are used as installed (not instrumented);
# see docs/design-notes.md, "Sanitizer build".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-asan"
"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  # -g1: line tables for the reports' stack traces, at a fraction of -g's
  # compile and link time.
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DGEMM_SANITIZERS="address;undefined" -DGEMM_ENABLE_ASSERTIONS=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi

# Every report aborts (SIGABRT): `not gemm-opt` counts a crash as a failure,
# where the sanitizers' default exit code 1 would pass as the expected error.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator (inlined from its headers
# into our instrumented code) poisons whole slabs that the uninstrumented
# libMLIR then carves without unpoisoning (StorageUniquer allocations), a
# false use-after-poison. detect_leaks=1: MLIR's global state stays
# reachable, and the whole suite runs without a leak report.
# See docs/design-notes.md, "Sanitizer build".
# Options already in the environment come last and so win.
export ASAN_OPTIONS="abort_on_error=1:halt_on_error=1:detect_leaks=1:allow_user_poisoning=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="abort_on_error=1:halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-22/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
fi

start=$SECONDS
ninja -C "$build" gemm-opt gemm-lds-model gemm-tune-space GemmUnitTests
echo "test-sanitized: build $((SECONDS - start)) s"
start=$SECONDS
ninja -C "$build" check-gemm
echo "test-sanitized: lit $((SECONDS - start)) s"
