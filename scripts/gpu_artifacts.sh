#!/usr/bin/env bash
# Compiles the harness's test kernels with gemm-opt (here, where LLVM 22 is)
# into artifacts/SET/: one folder per kernel with its PTX and manifest.json,
# plus cases.json and ptxas.txt (registers, spills, shared memory per kernel,
# and ptxas's C7514 "wgmma.mma_async instructions are serialized").
# The folder then travels to the GPU machine (scripts/gpu_run.sh). CHIP picks
# the chip (default sm_90); GEMM_OPTS adds pipeline options (dispatch=false).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
set_name=${1:-smoke}
chip=${CHIP:-sm_90}
out="$root/artifacts/$set_name"
rm -rf "$out" && mkdir -p "$out"
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" python3 -m gemm_mlir.cases "$out/src" --set "$set_name" >/dev/null
cp "$out/src/cases.json" "$out/"
ls "$out"/src/*.mlir | xargs -P "$(nproc)" -I{} sh -c '
  f={}; n=$(basename "$f" .mlir)
  "'"$root"'/build/bin/gemm-opt" "$f" --gemm-to-ptx="chip='"$chip"' ${GEMM_OPTS:-} output-dir='"$out"'/$n" -o /dev/null 2>"'"$out"'/$n.err" \
    && rm -f "'"$out"'/$n.err" || { echo "FAILED $n"; head -3 "'"$out"'/$n.err"; }'
if command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ]; then
  PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
  ls -d "$out"/g_* | xargs -P "$(nproc)" -I{} sh -c '
    n=$(basename {})
    info=$("'"$PTXAS"'" -arch='"$chip"' -v {}/*.ptx -o /dev/null 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores|[0-9]+ bytes stack|wgmma.mma_async instructions are serialized" | tr "\n" " ")
    echo "$n $info"' | sort > "$out/ptxas.txt"
fi
rm -rf "$out/src"
echo "$(ls -d "$out"/g_* | wc -l) kernels in $out"
