"""gemm_mlir.compile on the CPU (test/Python/api-compile.test): problems and
texts to PTX for sm_90a and HSACO for gfx942 through the compiler C API,
loaded parse-only by the runtime; prints what the manifests hold."""
import json
import os
import shutil
import sys

import gemm_mlir
from gemm_mlir import Problem

cache, copies = sys.argv[1], sys.argv[2]
os.makedirs(copies, exist_ok=True)


def show(label, f):
    manifest = json.load(open(os.path.join(f.path, "manifest.json")))
    objects = sorted(o["file"] for o in manifest["objects"])
    kernels = [k for k in manifest["kernels"] if k["function"] == f.name]
    print(f"{label}: {f.name} layout={f.layout} chip={f.chip} "
          f"kernels={len(f.kernels)} objects={objects}")
    print(f"  params: " + ", ".join(
        f"{p['name']}:{p['kind']}:{p['element_type']}:{p['rank']}"
        for p in f.params))
    print(f"  extras: {f.extras}")
    print(f"  rules: {[k['rule'] for k in kernels]}")
    print(f"  types: a={kernels[0]['a_type']} acc={kernels[0]['acc_type']} "
          f"c={kernels[0]['c_type']} reads_c={kernels[0]['reads_c']}")
    return manifest


def compile_(*args, **kwargs):
    """compile, parse-only (no GPU here)."""
    problem = args[0] if args else None
    chip = kwargs.pop("chip")
    text = kwargs.pop("mlir", None)
    function = kwargs.pop("function", None)
    if problem is not None:
        text, function = problem.mlir, function or problem.name
    folder = gemm_mlir.api.compile_to_folder(text, chip, cache_dir=cache,
                                             **kwargs)
    return gemm_mlir.load(folder, function, device=False, problem=problem)


# The fused GEMM of docs/python.md: bias + GELU, f16 tn, the sm_90a family.
f = compile_(Problem(layout="tn", a="f16", epilogue="bias_gelu"),
             chip="sm_90a", fmt="isa")
m = show("bias_gelu sm_90a", f)
print("  ptx has wgmma:",
      "wgmma.mma_async" in open(os.path.join(f.path, m["objects"][0]["file"])).read())
# For the comparison with gemm-opt in the RUN lines.
shutil.copy(os.path.join(f.path, "source.mlir"),
            os.path.join(copies, "bias_gelu.mlir"))
shutil.copy(os.path.join(f.path, m["objects"][0]["file"]),
            os.path.join(copies, "bias_gelu.ptx"))
print("  choose 1x4096x4096:", f.choose(1, 4096, 4096))
print("  choose 4096x4096x4096:", f.choose(4096, 4096, 4096))

# Cached: the same problem, chip and options give the same folder, untouched.
stamp = os.stat(os.path.join(f.path, "manifest.json")).st_mtime_ns
g = compile_(Problem(layout="tn", a="f16", epilogue="bias_gelu"),
             chip="sm_90a", fmt="isa")
print("cached:", g.path == f.path,
      os.stat(os.path.join(g.path, "manifest.json")).st_mtime_ns == stamp)
h = compile_(Problem(layout="tn", a="f16", epilogue="bias_gelu"),
             chip="sm_90a", fmt="isa", options={"dispatch": False})
print("other options, other folder:", h.path != f.path, len(h.kernels))

# Every epilogue step, one kernel each (dispatch=false keeps it quick).
for steps, kwargs in [
        (["bias", "relu"], {"bias": "row"}),
        (["gelu_tanh"], {}), (["silu"], {}), (["sigmoid"], {}), (["tanh"], {}),
        (["scale", "beta"], {}), (["clamp"], {}), (["residual"], {}),
        (["bias", "silu", "residual"], {"bias_type": "f16"}),
        (["residual"], {"batched": True, "layout": "nn"}),
        (["bias", "relu"], {"a": "i8"}),
        (["scale"], {"a": "i8", "c": "f16"}),
        (["relu"], {"a": "i8", "c": "i8"}),
        ("bias_gelu", {"a": "bf16", "layout": "nt"})]:
    p = Problem(epilogue=steps, **kwargs)
    f = compile_(p, chip="sm_90a", fmt="isa", options="dispatch=false")
    print(f"step {p.epilogue} {kwargs}: params "
          + ", ".join(f"{q['name']}:{q['element_type']}:{q['rank']}"
                      for q in f.params)
          + f" extras {p.extras} kernels {len(f.kernels)}")

# MLIR text, to HSACO for gfx942, choosing one of two functions.
text = """
func.func @first(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  gemm.matmul nn ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
func.func @second(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %s: f32) {
  gemm.matmul tt ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) extras(%s : f32) acc(f32) attributes {broadcast = [#gemm.bcast<scalar>]} {
  ^bb0(%acc: f32, %cin: f16, %x: f32):
    %0 = arith.mulf %acc, %x : f32
    %1 = arith.truncf %0 : f32 to f16
    gemm.yield %1 : f16
  }
  return
}
"""
f = compile_(mlir=text, function="second", chip="gfx942")
m = show("text gfx942", f)
hsaco = open(os.path.join(f.path, m["objects"][0]["file"]), "rb").read(4)
print("  hsaco is ELF:", hsaco == b"\x7fELF")
shutil.copy(os.path.join(f.path, "source.mlir"),
            os.path.join(copies, "two.mlir"))
shutil.copy(os.path.join(f.path, m["objects"][0]["file"]),
            os.path.join(copies, "two.hsaco"))
f = compile_(mlir=text, function="first", chip="gfx942")
print("same folder, other function:", f.name, f.layout, len(f.kernels))
print("source kept:", open(os.path.join(f.path, "source.mlir")).read() == text)
print("version:", gemm_mlir.api._compiler()[0].version())
