#!/usr/bin/env python3
"""The tuner's entry point: `python3 -m gemm_mlir.tune SUBCOMMAND ...` (with
PYTHONPATH=python), or this file by path. The tuner itself is the package
gemm_mlir/tuner/ (see its __init__.py)."""
import os
import sys

if __name__ == "__main__" and not __package__:
    # Run by path (python3 python/gemm_mlir/tune.py): import the package from
    # the directory above it.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from gemm_mlir.tuner.cli import main
else:
    from .tuner.cli import main

if __name__ == "__main__":
    main()
