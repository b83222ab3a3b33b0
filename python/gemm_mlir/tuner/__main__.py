"""`python3 -m gemm_mlir.tuner ...`, the same as `python3 -m gemm_mlir.tune ...`."""
from .cli import main

if __name__ == "__main__":
    main(prog="python3 -m gemm_mlir.tuner")
