"""gemm_mlir._gemm_runtime on the CPU (test/Runtime/python.test): a module
loaded parse-only, its description, choices, plans, and every error the
binding raises (ValueError for bad arguments, RuntimeError otherwise)."""
import os
import pkgutil
import sys

import gemm_mlir

# The extension lives in the build tree's python/gemm_mlir (docs/runtime.md).
gemm_mlir.__path__ = pkgutil.extend_path(gemm_mlir.__path__, gemm_mlir.__name__)
from gemm_mlir import _gemm_runtime as rt  # noqa: E402

base = sys.argv[1]
m = rt.Module(base, device=False)
print("functions", m.functions(), "on_device", m.on_device)
f = m.function("linear")
print("function", f.name, f.layout, f.chip, f.kernels)
for p in f.params:
    print("param", p["name"], p["kind"], p["rank"], p["element_type"], p["shape"])
print("choose", f.choose(64, 64, 4096), f.choose(128, 256, 4096),
      m.function("bmm").choose(256, 256, 4096, batch=3))

A = (0x1000, (128, 4096), (4096, 1))
B = (0x100000, (256, 4096), (4096, 1))
C = (0x2000, (128, 256), (256, 1))
bias = (0x3000, (256,), (1,))
plan = f.plan([A, B, C, bias, 0.5])
print("plan", sorted(plan.items()))
odd = [(0x1000, (4099, 4095), (4095, 1)), (0x100000, (4097, 4095), (4095, 1)),
       (0x2000, (4099, 4097), (4097, 1), "f16"), [0x3000, [4097], [1]], 2]
print("plan unaligned", f.plan(odd)["pack_a"], f.plan(odd, pack=False)["pack_a"])


def expect(exc, fn):
    try:
        fn()
    except exc as e:
        print(exc.__name__ + ":", e)
    else:
        print("no error")


expect(ValueError, lambda: f.plan([A, B, C, bias]))
expect(ValueError, lambda: f.plan([A, B, C, bias, "half"]))
expect(ValueError, lambda: f.plan([A, B, C, 1.5, 0.5]))
expect(ValueError, lambda: f.plan([A, B, (0x2000, (128, 256)), bias, 0.5]))
expect(ValueError, lambda: f.plan([A, B, (0x2000, (128, 256), (1,)), bias, 0.5]))
expect(ValueError, lambda: f.plan([A, B, (-5, (128, 256), (256, 1)), bias, 0.5]))
expect(ValueError, lambda: f.plan([A, B, (0x2000, (128, "x"), (256, 1)), bias, 0.5]))
expect(ValueError, lambda: f.plan([A, B, (0x2000, (128, 256), (256, 1), "f7"), bias, 0.5]))
expect(ValueError, lambda: f.plan([A, B, (0x2000, (128, 256), (256, 1), "f32"), bias, 0.5]))
expect(ValueError, lambda: f.plan([A, B, (0x2000, (1, 1, 1, 1, 1), (1,) * 5), bias, 0.5]))
expect(ValueError, lambda: f.plan([A, (0x100000, (255, 4096), (4096, 1)), C, bias, 0.5]))
expect(RuntimeError, lambda: f.launch([A, B, C, bias, 0.5]))
expect(ValueError, lambda: m.function("nope"))
expect(RuntimeError, lambda: rt.Module(os.path.join(base, "missing")))
expect(RuntimeError, lambda: rt.Module(base))
