"""gemm-mlir Python tools: the case generator (runs where gemm-opt is) and the
GPU harness (runs where the GPU is, needing only the CUDA driver, CuPy and
PyTorch).

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
