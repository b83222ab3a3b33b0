# Sourced by the docs/perf-data run scripts on the GPU machine, whose one
# call may run 600 s: `step SECONDS NAME COMMAND...` runs COMMAND for at
# most SECONDS or what is left of GPU_BUDGET_S (default 560) seconds since
# this file was sourced, prints NAME's exit status and the time, and skips
# COMMAND when less than 20 s are left, so that the outputs written so far
# still come back.
gpu_step_start=$SECONDS
step() {
  local want=$1 name=$2; shift 2
  local left=$((${GPU_BUDGET_S:-560} - (SECONDS - gpu_step_start)))
  [ $left -lt 20 ] && { echo "$name skipped (${left}s left)"; return; }
  [ $want -gt $left ] && want=$left
  timeout $want "$@"; echo "$name rc $? at $((SECONDS - gpu_step_start))s"
}

# The start and end of a docs/perf-data run script, after it has cd'd to
# the repository root and set O. `gpu_begin SET...` prepares each artifact
# set (scripts/gpu_prepare.sh; its log in $O/r/prepare-SET.txt, last line
# printed) and records the GPU's name, clocks and power limit in
# $O/r/gpu.txt. `gpu_end` compresses the JSON results and packs $O/r into
# $O/all.tgz (a device run returns at most 8 files).
gpu_begin() {
  mkdir -p "$O/r"
  local s
  for s in "$@"; do
    ./scripts/gpu_prepare.sh "$s" "$O/r" > "$O/r/prepare-$s.txt" 2>&1
    tail -1 "$O/r/prepare-$s.txt"
  done
  nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,clocks.max.sm \
    --format=csv,noheader | tee "$O/r/gpu.txt"
}
gpu_end() {
  local f
  for f in "$O"/r/*.json; do [ -e "$f" ] && gzip -9 "$f"; done
  rm -rf "$O/r/rt" "$O/r/runtime.log"
  tar czf "$O/all.tgz" -C "$O" r
}
