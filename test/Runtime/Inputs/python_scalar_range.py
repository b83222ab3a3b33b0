"""Integer scalars in gemm_mlir._gemm_runtime (test/Runtime/scalar-range.test):
each artifact folder given is Inputs/base with linear's scalar extra1 of an
integer type; the extremes of the type plan, one past them raise ValueError
naming the parameter and the value (no silent wrap)."""
import pkgutil
import sys

import gemm_mlir

gemm_mlir.__path__ = pkgutil.extend_path(gemm_mlir.__path__, gemm_mlir.__name__)
from gemm_mlir import _gemm_runtime as rt  # noqa: E402

A = (0x1000, (128, 4096), (4096, 1))
B = (0x100000, (256, 4096), (4096, 1))
C = (0x2000, (128, 256), (256, 1))
bias = (0x3000, (256,), (1,))

for folder in sys.argv[1:]:
    f = rt.Module(folder, device=False).function("linear")
    dtype = f.params[4]["element_type"]
    bits = int(dtype[1:])
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    for v in (lo, hi, lo - 1, hi + 1):
        try:
            f.plan([A, B, C, bias, v])
            print(dtype, v, "ok")
        except ValueError as e:
            print(dtype, v, "ValueError:", e)
