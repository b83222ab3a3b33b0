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
