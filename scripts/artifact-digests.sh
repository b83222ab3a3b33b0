#!/usr/bin/env bash
# Compiles every kernel the project ships or tests on the GPU (the example,
# each harness case set for sm_90 and sm_90a, the matrix set for gfx942) and
# prints one "sha256  path" line per artifact (PTX, cubin, HSACO, manifest,
# and the diagnostics of inputs a pipeline rejects). A refactoring that must
# not change the generated code is checked by diffing this list before and
# after:
#
#   scripts/artifact-digests.sh /tmp/before > before.txt   # old commit
#   scripts/artifact-digests.sh /tmp/after > after.txt     # new commit
#   diff before.txt after.txt
#
# OUT (the first argument) receives the artifacts; SRC (optional second
# argument) is a folder of case sources from an earlier run, so that both
# sides compile the same inputs even if the case generator changed. GEMM_OPT
# names the gemm-opt to use (default: build/bin/gemm-opt), e.g. a copy of the
# old commit's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: artifact-digests.sh OUT [SRC]}
src=${2:-$out/src}
opt=${GEMM_OPT:-$root/build/bin/gemm-opt}
rm -rf "$out/art" && mkdir -p "$out/art"
if [ ! -d "$src/smoke" ]; then
  for set in smoke matrix perf wgmma; do
    PYTHONPATH="$root/python" python3 -m gemm_mlir.cases "$src/$set" --set "$set" >/dev/null
  done
  cp "$root"/examples/*.mlir "$src/"
fi

# compile SRC.mlir PIPELINE CHIP DIR: writes DIR's artifacts, or DIR.err.
compile() {
  "$opt" "$1" --"$2"="chip=$3 output-dir=$4" -o /dev/null 2>"$4.err" &&
    rm -f "$4.err" || true
}
export -f compile
export opt

jobs=()
for f in "$src"/*.mlir; do
  n=$(basename "$f" .mlir)
  for p in "gemm-to-ptx sm_90" "gemm-to-ptx sm_90a" "gemm-to-cubin sm_90a" \
           "gemm-to-cubin sm_80" "gemm-to-hsaco gfx90a" "gemm-to-hsaco gfx942" \
           "gemm-to-hsaco gfx950" "gemm-to-amdgcn gfx942"; do
    set -- $p
    jobs+=("$f $1 $2 $out/art/example/$n-$1-$2")
  done
done
for set in smoke matrix perf wgmma; do
  for f in "$src/$set"/*.mlir; do
    n=$(basename "$f" .mlir)
    jobs+=("$f gemm-to-ptx sm_90 $out/art/$set-sm_90/$n")
    jobs+=("$f gemm-to-ptx sm_90a $out/art/$set-sm_90a/$n")
  done
done
for f in "$src/matrix"/*.mlir; do
  n=$(basename "$f" .mlir)
  jobs+=("$f gemm-to-hsaco gfx942 $out/art/matrix-gfx942/$n")
done
printf '%s\n' "${jobs[@]}" | while read -r f p c d; do mkdir -p "$(dirname "$d")"; echo "$f $p $c $d"; done |
  xargs -P "$(nproc)" -L 1 bash -c 'compile "$@"' _
cd "$out/art"
find . -type f | LC_ALL=C sort | xargs sha256sum
