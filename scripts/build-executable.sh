#!/usr/bin/env bash
# Builds an executable from a .mlir file and a C or C++ driver
# (docs/user-guide.md): gemm-opt compiles the .mlir file with a pipeline
# and host-object=true into OUT (kernels, manifest.json, host.o, host.ll),
# then the C/C++ compiler links the driver with host.o and
# libGemmRuntime.so, which is copied next to the executable; the
# executable finds it through the run path $ORIGIN, so OUT can be moved
# (to a GPU machine, say) as a whole.
#
#   scripts/build-executable.sh [options] INPUT.mlir DRIVER.{c,cpp}... -o NAME
#
#   --chip CHIP          target chip (default sm_90a)
#   --pipeline NAME      gemm-to-ptx (default; the driver JIT-compiles the
#                        PTX at start-up), gemm-to-cubin (needs ptxas),
#                        gemm-to-hsaco (AMD; needs a HIP runtime providing
#                        the mgpu* functions instead of libGemmRuntime.so)
#   --options "K=V ..."  more pipeline options (dispatch=false, tuning-db=...)
#   --out DIR            output folder (default: build/executables/NAME)
#   --gemm-opt PATH      default: build/bin/gemm-opt
#   --runtime PATH       libGemmRuntime.so (default: build/lib/)
#   --cxx COMPILER       default: $CXX, else c++ (C drivers: $CC, else cc)
#   --cflags "FLAGS"     extra compile flags (default -O2)
#
# gemm-opt and the runtime are built (scripts/build.sh gemm-opt GemmRuntime)
# when the defaults are missing. Prints the executable's path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

chip=sm_90a
pipeline=gemm-to-ptx
options=""
out=""
name=""
gemm_opt=""
runtime=""
cxx=""
cflags="-O2"
input=""
drivers=()

die() {
  echo "build-executable.sh: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --chip) chip=${2:?--chip needs a value}; shift 2 ;;
    --pipeline) pipeline=${2:?--pipeline needs a value}; shift 2 ;;
    --options) options=${2?--options needs a value}; shift 2 ;;
    --out) out=${2:?--out needs a value}; shift 2 ;;
    --gemm-opt) gemm_opt=${2:?--gemm-opt needs a value}; shift 2 ;;
    --runtime) runtime=${2:?--runtime needs a value}; shift 2 ;;
    --cxx) cxx=${2:?--cxx needs a value}; shift 2 ;;
    --cflags) cflags=${2?--cflags needs a value}; shift 2 ;;
    -o) name=${2:?-o needs a value}; shift 2 ;;
    -h|--help)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' \
        "$0"
      exit 0 ;;
    -*) die "unknown option '$1' (--help lists them)" ;;
    *.mlir)
      [ -z "$input" ] || die "more than one .mlir input ('$input', '$1')"
      input=$1; shift ;;
    *.c|*.cc|*.cpp|*.cxx) drivers+=("$1"); shift ;;
    *) die "'$1' is neither a .mlir input nor a C/C++ driver" ;;
  esac
done
[ -n "$input" ] || die "no .mlir input (--help for usage)"
[ ${#drivers[@]} -gt 0 ] || die "no C/C++ driver (--help for usage)"
[ -n "$name" ] || die "no executable name (-o NAME)"
case "$name" in */*) die "-o takes a file name; --out gives the folder" ;; esac
case "$pipeline" in
  gemm-to-ptx|gemm-to-cubin|gemm-to-hsaco) ;;
  *) die "pipeline '$pipeline' writes no loadable binary" \
       "(gemm-to-ptx, gemm-to-cubin or gemm-to-hsaco)" ;;
esac
for f in "$input" "${drivers[@]}"; do
  [ -f "$f" ] || die "no such file '$f'"
done

# Our tools: built when the defaults are missing.
missing=()
if [ -z "$gemm_opt" ]; then
  gemm_opt=$root/build/bin/gemm-opt
  [ -x "$gemm_opt" ] || missing+=(gemm-opt)
fi
if [ -z "$runtime" ]; then
  runtime=$root/build/lib/libGemmRuntime.so
  [ -f "$runtime" ] || missing+=(GemmRuntime)
fi
if [ ${#missing[@]} -gt 0 ]; then
  "$root/scripts/build.sh" "${missing[@]}" >&2
fi
[ -x "$gemm_opt" ] || die "gemm-opt '$gemm_opt' is not executable"
[ -f "$runtime" ] || die "runtime library '$runtime' does not exist"

[ -n "$out" ] || out=$root/build/executables/$name
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/host.o" "$out/manifest.json"

# 1. The kernels, manifest.json and the host object.
"$gemm_opt" "$input" \
  --$pipeline="chip=$chip output-dir=$out host-object=true $options" \
  -o "$out/host.mlir"
[ -f "$out/host.o" ] || die "gemm-opt wrote no $out/host.o"

# 2. The executable: driver + host.o + the runtime, found through $ORIGIN.
runtime_name=$(basename "$runtime")
cp -fL "$runtime" "$out/$runtime_name"
# The loader looks for the library's SONAME: copy it under that name too.
soname=""
if command -v readelf > /dev/null; then
  soname=$(readelf -d "$runtime" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
fi
if [ -n "$soname" ] && [ "$soname" != "$runtime_name" ]; then
  cp -fL "$runtime" "$out/$soname"
fi
# A runtime built with sanitizers (scripts/test-sanitized.sh) needs them in
# the executable too: their runtime library must be loaded first.
if command -v readelf > /dev/null; then
  needed=$(readelf -d "$runtime")
  case "$needed" in *libasan*) cflags="$cflags -fsanitize=address" ;; esac
  case "$needed" in *libubsan*) cflags="$cflags -fsanitize=undefined" ;; esac
fi
objects=()
for driver in "${drivers[@]}"; do
  object=$out/$(basename "${driver%.*}").driver.o
  case "$driver" in
    *.c) ${CC:-cc} $cflags -c "$driver" -o "$object" ;;
    *) ${cxx:-${CXX:-c++}} -std=c++17 $cflags -c "$driver" -o "$object" ;;
  esac
  objects+=("$object")
done
${cxx:-${CXX:-c++}} $cflags "${objects[@]}" "$out/host.o" -o "$out/$name" \
  -L"$out" -l:"$runtime_name" -Wl,-rpath,'$ORIGIN' -pthread -lm
echo "$out/$name"
