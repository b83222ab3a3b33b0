#!/usr/bin/env python3
"""Static checks of HSACO kernels without an AMD GPU.

Reads `llvm-readelf --notes` of a code object (the AMDHSA kernel metadata)
and the manifest.json written next to it, and checks for every kernel:
no scratch (private segment 0, which is where spills go), no VGPR/SGPR
spills, VGPRs + AGPRs within the chip's register file, and static plus
dynamic LDS within the chip's LDS. Prints one line per kernel and exits
non-zero on a violation.

usage: hsaco_check.py NOTES.txt MANIFEST.json
"""
import json
import re
import sys

# Per chip: unified VGPR+AGPR file per lane (wave64) and LDS per workgroup.
LIMITS = {"gfx90a": (512, 65536), "gfx942": (512, 65536),
          "gfx950": (512, 163840)}


def parse_notes(text):
    kernels, cur = [], None
    for line in text.splitlines():
        m = re.match(r"\s*(-\s+)?\.([a-z_]+):\s+(.*)$", line)
        if not m:
            continue
        key, value = m.group(2), m.group(3).strip()
        if m.group(1) and key in ("agpr_count", "args", "group_segment_fixed_size",
                                  "kernarg_segment_align", "name"):
            # A new kernel map starts with its first (alphabetical) key.
            if cur is None or key in cur:
                cur = {}
                kernels.append(cur)
        if cur is not None and key not in cur:
            cur[key] = value
    return [k for k in kernels if ".kd" in k.get("symbol", "")]


def main():
    notes = parse_notes(open(sys.argv[1]).read())
    manifest = json.load(open(sys.argv[2]))
    entries = {k["name"]: k for k in manifest["kernels"]}
    # The pack kernels of a GEMM (lib/Conversion/KernelCommon/Pack.cpp) are
    # recorded under its entry; they use no shared memory.
    # So are the reduction kernels of split-K GEMMs (SplitK.cpp).
    for k in manifest["kernels"]:
        for op in k.get("pack", {}).get("operands", []):
            entries[op["kernel"]] = {"chip": k["chip"], "dynamic_shared_memory": 0}
        if "reduce" in k.get("split_k", {}):
            entries[k["split_k"]["reduce"]["name"]] = {
                "chip": k["chip"], "dynamic_shared_memory": 0}
    bad = 0
    for k in notes:
        name = k["name"]
        e = entries.get(name)
        if e is None:
            print(f"FAIL {name}: not in the manifest")
            bad += 1
            continue
        regs, lds_max = LIMITS[e["chip"]]
        vgpr, agpr = int(k["vgpr_count"]), int(k["agpr_count"])
        scratch = int(k["private_segment_fixed_size"])
        spills = int(k["vgpr_spill_count"]) + int(k["sgpr_spill_count"])
        lds = int(k["group_segment_fixed_size"]) + int(e["dynamic_shared_memory"])
        problems = []
        if scratch:
            problems.append(f"{scratch} bytes of scratch")
        if spills:
            problems.append(f"{spills} spills")
        if vgpr + agpr > regs:
            problems.append(f"{vgpr}+{agpr} registers over {regs}")
        if lds > lds_max:
            problems.append(f"{lds} bytes of LDS over {lds_max}")
        status = "FAIL" if problems else "ok"
        bad += bool(problems)
        print(f"{status} {name} {e['chip']}: vgpr {vgpr} agpr {agpr} "
              f"scratch {scratch} spills {spills} lds {lds}"
              + (" -- " + ", ".join(problems) if problems else ""))
    if not notes:
        print("FAIL no kernels in the notes")
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
