#!/usr/bin/env bash
# The main job: builds gemm-opt if needed, compiles the example GEMM
# (examples/gemm_f16_tn.mlir: C = relu(A B^T + bias), f16, dynamic shapes) to
# PTX for sm_90 (the mma.sync path) and sm_90a (the Hopper wgmma path), with
# cubins when the CUDA toolkit is present, and to HSACO for gfx942; writes the
# artifacts and manifests to out/example/, out/example-sm90a/ and
# out/example-amd/, and prints what it made.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" gemm-opt >/dev/null
example=${1:-$root/examples/gemm_f16_tn.mlir}
chip=${CHIP:-sm_90}
out="$root/out/example"
opt="$root/build/bin/gemm-opt"

# compile PIPELINE CHIP WHAT DIR: runs gemm-opt's PIPELINE into DIR (fresh),
# then prints the time taken and the files written.
compile() {
  local pipeline=$1 target=$2 what=$3 dir=$4
  rm -rf "$dir" && mkdir -p "$dir"
  local start end
  start=$(date +%s%N)
  "$opt" "$example" --$pipeline="chip=$target output-dir=$dir" -o "$dir/lowered.mlir"
  end=$(date +%s%N)
  echo "== gemm-mlir: $(basename "$example") -> $what for $target in $(( (end - start) / 1000000 )) ms"
  echo "   output folder: $dir"
  for f in "$dir"/*; do printf '   %-32s %8d bytes\n' "$(basename "$f")" "$(stat -c %s "$f")"; done
}

# nvidia CHIP DIR: PTX (and a cubin) for CHIP into DIR, with a summary.
nvidia() {
  local chip=$1 out=$2
  compile gemm-to-ptx "$chip" PTX "$out"
  local ptx
  ptx=$(ls "$out"/*.ptx)
  echo "== kernels (from manifest.json)"
  python3 - "$out/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for k in m["kernels"]:
    params = ", ".join(p["name"] + (":" + p["element_type"]) for p in k["params"])
    print(f"   {k['name']}: layout {k['layout']}, {k['a_type']} -> {k['c_type']} (acc {k['acc_type']})")
    print(f"     block {k['block']}, dynamic smem {k['dynamic_shared_memory']} B, tile {k['grid']['tile_m']}x{k['grid']['tile_n']}")
    print(f"     config {k['config']}")
    print(f"     params ({m['param_convention'].split(';')[0]}): {params}")
    if "pack" in k:
        pk = k["pack"]
        whens = {"always": "always", "unaligned": "when not 16-byte aligned at run time"}
        ops = "; ".join(f"{o['name']} {whens[o.get('when', pk['when'])]}" for o in pk["operands"])
        how = ("each on its own" if pk.get("each_operand")
               else "both whenever either is (K contiguous in both)")
        names = ", ".join(dict.fromkeys(o["kernel"] for o in pk["operands"]))
        print(f"     packed into aligned workspaces by {names}: {ops}; {how}")
PY
  echo "== PTX instruction summary"
  for ins in "mma.sync.aligned" "ldmatrix.sync.aligned" "wgmma.mma_async" "fence.proxy.async" "cp.async.cg.shared.global" "cp.async.wait_group" "bar.sync"; do
    printf '   %-28s %5d\n' "$ins" "$(grep -c "$ins" "$ptx" || true)"
  done
  if command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ]; then
    PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
    echo "== ptxas -arch=$chip -v"
    "$PTXAS" -arch="$chip" -v "$ptx" -o "$out/$(basename "$ptx" .ptx).cubin" 2>&1 |
      sed -nE "s/.*Compiling entry function '([^']*)'.*/   \1:/p; s/.*(Used .*)/     \1/p; s/^ *([0-9]+ bytes stack.*)/     \1/p"
    echo "   cubin: $out/$(basename "$ptx" .ptx).cubin"
  fi
}

nvidia "$chip" "$out"
nvidia "${HOPPER_CHIP:-sm_90a}" "$root/out/example-sm90a"

amd_chip=${AMD_CHIP:-gfx942}
amd_out="$root/out/example-amd"
compile gemm-to-hsaco "$amd_chip" HSACO "$amd_out"
hsaco=$(ls "$amd_out"/*.hsaco)
tools=/usr/lib/llvm-22/bin
echo "== AMDGCN instruction summary (llvm-objdump -d --mcpu=$amd_chip)"
"$tools/llvm-objdump" -d --mcpu="$amd_chip" "$hsaco" > "$amd_out/disassembly.s"
for ins in v_mfma ds_read ds_write global_load_dwordx4 s_barrier scratch_; do
  printf '   %-28s %5d\n' "$ins" "$(grep -c "$ins" "$amd_out/disassembly.s" || true)"
done
echo "== kernel metadata (llvm-readelf --notes): registers, scratch, spills, LDS"
"$tools/llvm-readelf" --notes "$hsaco" > "$amd_out/notes.txt"
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" python3 -m gemm_mlir.hsaco_check "$amd_out/notes.txt" "$amd_out/manifest.json" | sed 's/^/   /'
