#!/usr/bin/env python3
"""GPU time of each kernel a family launches (the transposing copy apart
from the GEMM), through harness.kernel_times, and the bandwidth of the
copy (one read and one write of the transposed operand).
Usage: kernel_times.py ART FUNCTION[,FUNCTION..] MxNxK[,MxNxK..]"""
import sys
import torch
from gemm_mlir import harness as h

art, names, shapes = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
kernels = h.load_kernels(art)
gen = torch.Generator(device="cuda").manual_seed(7)
for shape in shapes:
    m, n, kk = (int(x) for x in shape.split("x"))
    for name in names:
        if name not in kernels:
            continue
        g = kernels[name]
        meta = g.meta
        a, b, _, _ = h.make_inputs(meta["layout"], m, n, kk, meta["a_type"], gen)
        c = torch.empty((m, n), dtype=h.TORCH_DTYPES[meta["c_type"]], device="cuda")
        times = h.kernel_times(lambda: g.launch([a, b, c], m, n, kk), 20)
        for kname, (per, us) in sorted(times.items()):
            note = ""
            if kname.startswith("gemm_transpose"):
                # The MN-major operands: A stored K x M, B stored K x N.
                layout = meta["layout"]
                elems = (kk * m if h.a_is_km(layout) else 0) + \
                        (kk * n if not h.b_is_nk(layout) else 0)
                nbytes = 2 * elems * a.element_size() / max(per, 1)
                note = f"  {nbytes / (us * 1e-6) / 1e12:5.2f} TB/s (read + write per launch)"
            print(f"{name:24s} {shape:16s} {per:3.1f} x {us:8.2f} us  {kname[:60]}{note}", flush=True)
        del a, b, c
