"""gemm-mlir Python tools: the case generator (runs where gemm-opt is) and the
GPU harness (runs where the GPU is, needing only the CUDA driver, CuPy and
PyTorch)."""
