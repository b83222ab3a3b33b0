"""Runs the check of one kernel family shape by shape, printing each shape
and the member it selects before it launches (CUDA_LAUNCH_BLOCKING=1 makes
a fault surface at its launch), so that a crashing member is named.
Usage: diag.py ARTIFACTS KERNEL [SHAPES]"""
import sys
import torch
from gemm_mlir import harness as h

art, name = sys.argv[1], sys.argv[2]
g = h.load_kernels(art)[name]
gen = torch.Generator(device="cuda").manual_seed(1234)
for (m, n, kk) in h.FULL_SHAPES:
    for pack in ([True, False] if (m, n, kk) in h.DIRECT_SHAPES else [True]):
        kern = g.select(m, n, kk, 1, h.inputs_aligned(g.meta["layout"], m, n, kk, g.meta["a_type"], 0))
        print(f"{name} {m}x{n}x{kk} pack={pack} -> {kern.name}", flush=True)
        err, bad, *_ = h.run_case(g, m, n, kk, gen, 0, pack)
        print(f"   err {err:.2e} bad {bad}", flush=True)
