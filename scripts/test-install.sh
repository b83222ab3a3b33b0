#!/usr/bin/env bash
# Tests the installed package (docs/embedding.md): builds gemm-mlir into
# build/ (reusing it), installs it into a temporary prefix and moves that
# prefix elsewhere (the package must be relocatable), then
#   - checks the layout, and that no installed text file names the source or
#     build tree;
#   - configures the out-of-tree consumer (examples/consumer, copied out of
#     the source tree) with CMAKE_PREFIX_PATH=<prefix> only, checks that it
#     found the package in the prefix and that nothing of its build names the
#     tree, builds it, and runs it in its library mode (gemm-to-ptx sm_90a
#     and gemm-to-amdgcn gfx942, built-in module and the example file) and
#     its opt mode;
#   - runs the installed gemm-opt, gemm-tune-space and gemm-lds-model.
# Exits non-zero on any failure.
#
#   scripts/test-install.sh [WORKDIR]
#
# WORKDIR (kept) holds the prefix, the consumer's build and the outputs;
# without it a temporary directory is used and removed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [ $# -ge 1 ]; then
  work=$(mkdir -p "$1" && cd "$1" && pwd)
  rm -rf "$work/stage" "$work/prefix" "$work/consumer-src" \
    "$work/consumer-build" "$work/out"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/gemm-test-install.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
case "$work/" in
  "$root"/*) echo "test-install: WORKDIR must be outside $root" >&2; exit 1 ;;
esac

fail() {
  echo "test-install: FAIL: $*" >&2
  exit 1
}
step() {
  echo "== test-install: $*"
}

step "build (build/, all targets: cmake --install needs every installed one)"
"$root/scripts/build.sh" >"$work/build.log" ||
  { tail -n 60 "$work/build.log"; fail "the build failed"; }

step "install into $work/stage, moved to $work/prefix"
cmake --install "$root/build" --prefix "$work/stage" >/dev/null
mv "$work/stage" "$work/prefix"
prefix=$work/prefix
mkdir -p "$work/out"

step "layout"
for f in lib/cmake/GemmMLIR/GemmMLIRConfig.cmake \
         lib/cmake/GemmMLIR/GemmMLIRConfigVersion.cmake \
         lib/cmake/GemmMLIR/GemmMLIRTargets.cmake \
         include/gemm/InitAll.h \
         include/gemm/Pipelines/Pipelines.h \
         include/gemm/Dialect/Gemm/IR/GemmOps.h.inc \
         include/gemm/Conversion/Passes.h.inc \
         lib/libGemmInitAll.a lib/libMLIRGemmDialect.a \
         bin/gemm-opt bin/gemm-tune-space bin/gemm-lds-model \
         share/gemm-mlir/tuning/h200.json; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
# Whatever the build made of the runtime and the compiler C API is installed.
for lib in libGemmRuntime.so libGemmCompiler.so; do
  if [ -e "$root/build/lib/$lib" ]; then
    [ -e "$prefix/lib/$lib" ] || fail "lib/$lib was built but not installed"
  fi
done
if [ -e "$root/build/lib/libGemmRuntime.so" ]; then
  [ -e "$prefix/include/gemm-c/Runtime.h" ] || fail "gemm-c/Runtime.h is not installed"
fi
# Every gemm header an installed header includes is installed (the
# generated .inc files included).
missing=$(cd "$prefix/include" &&
  grep -rhoE '^#include "gemm(-c)?/[^"]+"' . | sed 's/^#include "\(.*\)"$/\1/' |
  sort -u | while read -r h; do [ -e "$h" ] || echo "$h"; done)
[ -z "$missing" ] || fail "installed headers include missing files: $missing"
leaks=$(grep -rlIF "$root" "$prefix" || true)
[ -z "$leaks" ] || fail "installed files name $root: $leaks"
for exe in "$prefix"/bin/* "$prefix"/lib/*.so; do
  [ -e "$exe" ] || continue
  if ldd "$exe" | grep -F "$root"; then
    fail "$exe loads a library from $root"
  fi
done

step "configure the consumer against $prefix only"
cp -r "$root/examples/consumer" "$work/consumer-src"
env -u CMAKE_PREFIX_PATH -u GemmMLIR_DIR -u GemmMLIR_ROOT \
  cmake -G Ninja -S "$work/consumer-src" -B "$work/consumer-build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/consumer-configure.log" ||
  { cat "$work/consumer-configure.log"; fail "the consumer does not configure"; }
found=$(sed -n 's/^GemmMLIR_DIR:PATH=//p' "$work/consumer-build/CMakeCache.txt")
[ "$found" = "$prefix/lib/cmake/GemmMLIR" ] ||
  fail "the consumer found GemmMLIR in '$found', not in $prefix"
if grep -rlF "$root" "$work/consumer-build/CMakeCache.txt" \
     "$work/consumer-build/build.ninja"; then
  fail "the consumer's build names $root"
fi

step "build the consumer"
ninja -C "$work/consumer-build" >"$work/consumer-build.log" ||
  { cat "$work/consumer-build.log"; fail "the consumer does not build"; }
consumer=$work/consumer-build/gemm-consumer

step "consumer, library mode: built-in module"
"$consumer" --output-dir="$work/out/consumer-default" |
  tee "$work/out/consumer-default.txt" ||
  fail "gemm-consumer (built-in module)"
# With the runtime in the package, the consumer links it and loads the PTX.
if [ -e "$prefix/lib/libGemmRuntime.so" ]; then
  grep -q "the runtime launches" "$work/out/consumer-default.txt" ||
    fail "gemm-consumer did not load its artifacts with the installed runtime"
fi
step "consumer, library mode: examples/gemm_f16_tn.mlir"
"$consumer" --output-dir="$work/out/consumer-example" \
  "$root/examples/gemm_f16_tn.mlir" ||
  fail "gemm-consumer examples/gemm_f16_tn.mlir"
if "$consumer" "$work/does-not-exist.mlir" >/dev/null 2>&1; then
  fail "gemm-consumer succeeds on a missing input"
fi

step "consumer, opt mode"
"$consumer" opt --help >"$work/out/consumer-opt-help.txt" ||
  fail "gemm-consumer opt --help"
for flag in --gemm-to-ptx --gemm-to-hsaco --convert-gemm-to-nvgpu \
            --gemm-select-config; do
  grep -q -- "$flag" "$work/out/consumer-opt-help.txt" ||
    fail "gemm-consumer opt does not register $flag"
done
"$consumer" opt "$root/examples/gemm_f16_tn.mlir" \
  --gemm-to-ptx="chip=sm_90a output-dir=$work/out/consumer-opt" \
  -o "$work/out/consumer-opt.mlir" || fail "gemm-consumer opt --gemm-to-ptx"
grep -q "wgmma.mma_async" "$work/out/consumer-opt"/*.ptx ||
  fail "gemm-consumer opt: no wgmma.mma_async in the PTX"
grep -q "gpu.binary" "$work/out/consumer-opt.mlir" ||
  fail "gemm-consumer opt: no gpu.binary in its output"
# A linalg input, through the pipelines' gemm-from-linalg front.
if [ -f "$root/examples/mlp_linalg.mlir" ]; then
  "$consumer" opt "$root/examples/mlp_linalg.mlir" \
    --gemm-to-ptx="chip=sm_90a output-dir=$work/out/consumer-linalg" \
    -o /dev/null || fail "gemm-consumer opt examples/mlp_linalg.mlir"
  grep -q "wgmma.mma_async" "$work/out/consumer-linalg"/*.ptx ||
    fail "gemm-consumer opt examples/mlp_linalg.mlir: no wgmma.mma_async"
fi

step "installed gemm-opt, gemm-tune-space, gemm-lds-model"
"$prefix/bin/gemm-opt" "$root/examples/gemm_f16_tn.mlir" \
  --gemm-to-ptx="chip=sm_90a output-dir=$work/out/gemm-opt-sm90a" \
  -o /dev/null || fail "installed gemm-opt --gemm-to-ptx chip=sm_90a"
[ -f "$work/out/gemm-opt-sm90a/manifest.json" ] ||
  fail "installed gemm-opt wrote no manifest.json"
grep -q "wgmma.mma_async" "$work/out/gemm-opt-sm90a"/*.ptx ||
  fail "installed gemm-opt: no wgmma.mma_async in the PTX"
"$prefix/bin/gemm-opt" "$root/examples/gemm_f16_tn.mlir" \
  --gemm-to-ptx="chip=sm_90 tuning-db=$prefix/share/gemm-mlir/tuning/h200.json output-dir=$work/out/gemm-opt-db" \
  -o /dev/null || fail "installed gemm-opt with the installed tuning database"
"$prefix/bin/gemm-tune-space" --chip=sm_90 --dtype=f16 --layout=tn \
  --shape=4096x4096x4096 --mode=frontier --top=1 >"$work/out/tune-space.json" ||
  fail "installed gemm-tune-space"
"$prefix/bin/gemm-lds-model" --help >/dev/null || fail "installed gemm-lds-model"

step "PASS"
