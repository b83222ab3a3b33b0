"""Adds gemv-mma tiles to the decode-large tuner set (artifacts/tunelarge,
after `tune prepare`): for f16 tn, the tiles 16x32x64, 16x16x64,
16x32x128, 8x16x64, 8x16x128 and 8x32x64 compiled by the gemm-opt at hand
under the prefix given (f: the change under test, per-stretch loops for
the paths other than 16-byte loads). The l variants of the first run were
compiled the same way by a throwaway build of acc7f79 whose GemvMma.cpp
kept only the 16-byte path (no shifted or element paths, no element tail:
correct only where K is a multiple of BK and the rows are 16-byte aligned,
as on every shape of this suite), to measure what the other paths'
registers cost: 80 registers for 16x32x64 instead of 142. Also adds the
decode rows of the every list to the suite's shapes.
Usage: python3 add_variants.py PREFIX (from the repository root)."""
import copy
import json
import os
import subprocess
import sys

P = "artifacts/tunelarge/plan.json"
plan = json.load(open(P))
extra_shapes = [[16, 4096, 11008], [4, 14336, 4096], [8, 11008, 4096], [16, 4096, 4096],
                [8, 4096, 4096], [12, 2048, 8192], [16, 11008, 4096], [4, 4096, 4096]]
prefix = sys.argv[1] if len(sys.argv) > 1 else "f"
for c in plan["classes"]:
    c["shapes"] += [s for s in extra_shapes if s not in c["shapes"]]
    if c["key"] != "f16_tn_none":
        continue
    base = next(e for e in c["candidates"] if e["config"].get("block") == [16, 32, 64])
    src0 = open(f"artifacts/tunelarge/src/{base['name']}.mlir").read()
    for blk in ([16, 32, 64], [16, 16, 64], [16, 32, 128], [8, 16, 64], [8, 16, 128], [8, 32, 64]):
        name = "t_f16_tn_none_%s%dx%dx%d" % (prefix, *blk)
        e = copy.deepcopy(base)
        e["name"] = e["meta"]["name"] = name
        e["config"]["block"] = blk
        e["config_str"] = base["config_str"].replace("[16, 32, 64]", "[%d, %d, %d]" % tuple(blk))
        e["why"] = [prefix]
        sp = f"artifacts/tunelarge/src/{name}.mlir"
        open(sp, "w").write(src0.replace("@" + base["name"], "@" + name)
                            .replace("block = [16, 32, 64]", "block = [%d, %d, %d]" % tuple(blk)))
        r = subprocess.run(["build/bin/gemm-opt", sp, "--gemm-to-ptx=chip=sm_90a output-dir="
                            f"artifacts/tunelarge/{name}", "-o", "/dev/null"],
                           capture_output=True, text=True, env=dict(os.environ))
        print(name, r.returncode, r.stderr[-300:])
        c["candidates"].append(e)
json.dump(plan, open(P, "w"), indent=1)
