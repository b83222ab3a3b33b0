"""gemm-mlir from Python: gemm_mlir.compile / gemm_mlir.load (api.py,
docs/python.md) compile GEMMs and run them on torch or CuPy arrays.

The tools: the case generator (runs where gemm-opt is) and the
GPU harness (runs where the GPU is, needing only the CUDA driver, PyTorch
and the runtime module, which it launches through).

Run them as modules with python/ on the path (PYTHONPATH=python from the
repository root):

  python3 -m gemm_mlir.cases OUT --set smoke|matrix|perf|wgmma
  python3 -m gemm_mlir.harness check|bench|breakdown|every ART ...
  python3 -m gemm_mlir.tune prepare|measure|report|calibrate|holdout|merge|picks ...
  python3 -m gemm_mlir.chipguard         (self-test)
  python3 -m gemm_mlir.hsaco_check NOTES MANIFEST
  python3 -m gemm_mlir.plot BENCH.json OUT.svg

The files also run by path (python3 python/gemm_mlir/tune.py ...). The tuner
is the subpackage tuner/; tune.py is its entry point."""

# The compiled modules (_gemm_compiler, _gemm_runtime) are built into
# <build>/python/gemm_mlir/: with <build>/python on sys.path after python/,
# that folder joins this package.
__path__ = __import__("pkgutil").extend_path(__path__, __name__)

# The user-facing API (docs/python.md); it imports no GPU library itself.
from .api import (CompileError, GemmFunction, Problem, compile,  # noqa: E402
                  device_chip, load)
