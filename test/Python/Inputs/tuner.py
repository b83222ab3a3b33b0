"""Driver of tuner.test: the tuner package (python/gemm_mlir/tuner/) without a
GPU, gemm-opt or gemm-tune-space. Prints one line per fact; the test checks
them with FileCheck. Usage: tuner.py SCRATCH_DIR (PYTHONPATH=python)."""
import importlib
import json
import os
import pkgutil
import sys

import gemm_mlir.tuner as tuner

# Every module of the package imports without torch, CuPy or NumPy (the GPU
# side imports them inside `measure` only).
names = ["gemm_mlir", "gemm_mlir.cases", "gemm_mlir.chipguard", "gemm_mlir.tune"] + [
    "gemm_mlir.tuner." + m.name for m in pkgutil.iter_modules(tuner.__path__)]
for name in names:
    importlib.import_module(name)
    print("import", name)
print("gpu modules loaded:", sorted(m for m in ("torch", "cupy", "numpy", "gemm_mlir.harness")
                                    if m in sys.modules))

from gemm_mlir.tuner import cli, measure, space, suites  # noqa: E402

print("commands:", ",".join(cli.COMMANDS))
print("validation shapes:", len(suites.VALIDATION_SHAPES), "db shapes:", len(suites.DB_SHAPES))
print("classes:", ",".join(suites.class_key(c) for c in suites.VALIDATION_CLASSES + suites.DB_CLASSES))
print("shape_str:", suites.shape_str((4099, 4097, 4095)))

# parse_config: a manifest's printed #gemm.config (defaults elided) to JSON,
# and back through config_mlir.
for text in ["#gemm.config<kind = mma_sync, block = [128, 128, 64], warps = [2, 2], "
             "instr = [16, 8, 16], stages = 3, group = 8>",
             "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], "
             "instr = [64, 256, 16], stages = 4, smem = padded, raster = column>",
             "#gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1]>",
             # The loads and the schedule survive (the TMA members of the
             # families were compiled as cp.async kernels before 2026-12-05).
             "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], "
             "instr = [64, 128, 16], stages = 8, load = tma_ws>",
             "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [1, 1], "
             "instr = [64, 128, 16], stages = 4, split_k = 2, reduction = cluster, "
             "load = tma_ws, schedule = pingpong>"]:
    c = space.parse_config(text)
    print("parse:", json.dumps(c, sort_keys=True))
    print("mlir:", space.config_mlir(c))


# The candidate grids on a few lattice points.
def cfg(kind, block, warps, stages, smem="swizzle"):
    return {"kind": kind, "block": block, "warps": warps, "instr": [16, 8, 16],
            "stages": stages, "smem": smem, "raster": "row", "group": 8}


points = [{"config": c} for c in [
    cfg("mma_sync", [128, 128, 64], [2, 2], 3),            # 0: compact, broad
    cfg("mma_sync", [32, 128, 128], [1, 2], 4),            # 1: skinny
    cfg("simt", [128, 128, 64], [2, 2], 3),                # 2: broad's odd points
    cfg("mma_sync", [64, 64, 32], [2, 2], 1),              # 3: broad's odd points
    cfg("mma_sync", [128, 256, 64], [2, 4], 3, "padded"),  # 4: none
    cfg("mma_sync", [16, 64, 64], [1, 2], 6),              # 5: skinny (default stages)
    cfg("mma_sync", [64, 64, 64], [1, 2], 2),              # 6: broad
    cfg("mma_sync", [128, 128, 64], [2, 2], 4),            # 7: broad (compact: 3 stages only)
    cfg("mma_sync", [32, 64, 64], [1, 1], 4),              # 8: skinny (not BK 128)
]]


def which(grid):
    return [next(i for i, p in enumerate(points) if p["config"] is c) for c in grid]


print("broad:", which(space.broad_grid(points)))
print("compact:", which(space.compact_grid(points)))
print("skinny:", which(space.skinny_grid(points)))
print("skinny db:", which(space.skinny_grid(points, stages=(4,), bks=(128,))))

# measure's ptxas: -arch from the plan's chip, registers/spills from -v.
for chip in ("sm_90", "sm_90a", "sm_80", "gfx942"):
    try:
        print("ptxas arch", chip, "->", measure.ptxas_arch(chip))
    except SystemExit as e:
        print("ptxas arch", chip, "-> refused:", e)
print("ptxas -v:", measure.parse_ptxas_v(
    "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
    "    16 bytes stack frame, 24 bytes spill stores, 24 bytes spill loads\n"
    "ptxas info    : Used 168 registers, used 1 barriers, 16 bytes cumulative stack size\n"))

# measure's assembly step with a stand-in ptxas that records its arguments:
# an sm_90a plan is assembled with -arch=sm_90a, candidates that failed to
# compile are skipped.
out = sys.argv[1]
art = os.path.join(out, "art")
fake = os.path.join(out, "bin")
for d in (fake, os.path.join(art, "t_c0")):
    os.makedirs(d, exist_ok=True)
open(os.path.join(art, "t_c0", "gemm_kernels.sm_90a.ptx"), "w").write("// ptx\n")
with open(os.path.join(fake, "ptxas"), "w") as f:
    f.write('#!/bin/sh\necho "$*" > "$0.args"\n'
            'echo "ptxas info    : Used 90 registers, used 1 barriers" >&2\n')
os.chmod(os.path.join(fake, "ptxas"), 0o755)
os.environ["PATH"] = fake + os.pathsep + os.environ.get("PATH", "")
plan = {"chip": "sm_90a", "classes": [{"candidates": [
    {"name": "t_c0", "compile_error": ""}, {"name": "t_c1", "compile_error": "failed"}]}]}
print("assembled:", measure.assemble_plan(art, plan))
print("ptxas", open(os.path.join(fake, "ptxas.args")).read().strip().replace(art, "ART"))

# merge, end to end: the faster entry per key and shape wins.
key = {"arch": "sm_90", "dtype": "f16", "acc": "f32", "layout": "tn", "epilogue": "none",
       "m": 64, "n": 64, "k": 64}
# (shape 64: db1's stages 3 at 20 TFLOP/s; shape 128: db0's stages 5 at 1.)
for i, (tflops, other) in enumerate([(10.0, 1.0), (20.0, 0.5)]):
    json.dump({"schema": "gemm-mlir-tuning-db", "version": 1, "device": "dev", "entries": [
        dict(key, config=cfg("mma_sync", [64, 64, 64], [2, 2], 2 + i), tflops=tflops),
        dict(key, m=128, config=cfg("mma_sync", [64, 64, 64], [2, 2], 5 + i), tflops=other)]},
        open(os.path.join(out, f"db{i}.json"), "w"))
cli.main(["merge", os.path.join(out, "db0.json"), os.path.join(out, "db1.json"),
          "--out", os.path.join(out, "merged.json")])
merged = json.load(open(os.path.join(out, "merged.json")))
print("merged generator:", merged["generator"])
for e in merged["entries"]:
    print("merged:", e["m"], e["config"]["stages"], e["tflops"])
