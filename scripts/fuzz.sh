#!/usr/bin/env bash
# Fuzzes gemm-opt with a fixed seed (python/gemm_mlir/fuzz.py,
# docs/robustness.md): mutated lit inputs, generated gemm.matmul ops and
# mutated pass options through parse+verify, the lowerings and the PTX /
# cubin / AMDGCN / HSACO pipelines, every artifact re-parsed or assembled.
# Exits non-zero when any run crashed, hung, failed without an `error:`
# diagnostic or exited 0 with broken output; diagnostics are fine.
#
#   scripts/fuzz.sh [--seed S] [--count N] [--out DIR] [more gemm_mlir.fuzz flags]
#
# Defaults: seed 1, 1000 inputs, DIR = build/fuzz (summary.json, and
# findings/<class>/<input>-<pipeline>/ with input.mlir and command.sh per
# finding). GEMM_OPT names the gemm-opt to test (default build/bin/gemm-opt,
# built by scripts/build.sh gemm-opt or scripts/test.sh).
#
#   scripts/fuzz.sh --runtime [--seed S] [--count N] [--out DIR] [...]
#
# fuzzes the C runtime instead (python/gemm_mlir/fuzz_runtime.py): mutated
# manifests and object files, sizes and launch arguments through
# gemm-runtime-probe, its dispatch compared with dispatch.py's. DIR defaults
# to build/fuzz-runtime; PROBE names the probe (default
# build/bin/gemm-runtime-probe; GEMM_OPT makes the seed folders).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seed=1
count=1000
out=
module=gemm_mlir.fuzz
rest=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed=$2; shift 2 ;;
    --seed=*) seed=${1#--seed=}; shift ;;
    --count) count=$2; shift 2 ;;
    --count=*) count=${1#--count=}; shift ;;
    --out) out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --runtime) module=gemm_mlir.fuzz_runtime; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) rest+=("$1"); shift ;;
  esac
done
gemm_opt=${GEMM_OPT:-$root/build/bin/gemm-opt}
if [ ! -x "$gemm_opt" ]; then
  echo "fuzz.sh: no gemm-opt at $gemm_opt (build it: scripts/build.sh gemm-opt)" >&2
  exit 2
fi
# For a sanitizer build (GEMM_OPT=build-asan/bin/gemm-opt): every report
# aborts, and manual poisoning is off as in scripts/test-sanitized.sh
# (docs/design-notes.md, "Sanitizer build"); no effect on other binaries.
export ASAN_OPTIONS="abort_on_error=1:halt_on_error=1:detect_leaks=1:allow_user_poisoning=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="abort_on_error=1:halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
if [ "$module" = gemm_mlir.fuzz_runtime ]; then
  probe=${PROBE:-$root/build/bin/gemm-runtime-probe}
  if [ ! -x "$probe" ]; then
    echo "fuzz.sh: no gemm-runtime-probe at $probe (build it: scripts/build.sh)" >&2
    exit 2
  fi
  rest=(--probe "$probe" ${rest[@]+"${rest[@]}"})
  out=${out:-$root/build/fuzz-runtime}
fi
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m "$module" \
  --gemm-opt "$gemm_opt" --seed "$seed" --count "$count" --out "${out:-$root/build/fuzz}" \
  --progress 250 ${rest[@]+"${rest[@]}"}
