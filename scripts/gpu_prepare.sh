#!/usr/bin/env bash
# Runs on the GPU machine, at the start of a docs/perf-data run script:
# unpacks the carried artifacts/pack/SET.tar.xz (when there is one) into
# artifacts/SET, builds the runtime into /tmp/gemm-runtime unless a build
# is there (scripts/gpu_run.sh SET runtime, which also runs its GPU checks;
# log in LOGDIR/runtime.log), and assembles SET's PTX into cubins.
# Usage: gpu_prepare.sh SET [LOGDIR]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
set_name=${1:?usage: gpu_prepare.sh SET [LOGDIR]}
log=${2:-/tmp/out}
mkdir -p "$log"
cd "$root"
if [ -f "artifacts/pack/$set_name.tar.xz" ]; then
  rm -rf "artifacts/$set_name"
  tar xJf "artifacts/pack/$set_name.tar.xz" -C artifacts
fi
if ! ls /tmp/gemm-runtime/python/gemm_mlir/_gemm_runtime*.so >/dev/null 2>&1; then
  OUT="$log/rt" ./scripts/gpu_run.sh "$set_name" runtime > "$log/runtime.log" 2>&1
  echo "runtime rc $?"; tail -3 "$log/runtime.log"
fi
ls "artifacts/$set_name"/g_*/*.ptx | xargs -P 16 -I{} sh -c \
  'f="{}"; b=$(basename "$f" .ptx); ptxas -arch="${b##*.}" "$f" -o "$(dirname "$f")/$b.cubin"' 2>/dev/null
