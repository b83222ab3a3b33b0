#!/usr/bin/env python3
"""The library's kernels (names, GPU time) for issue 15's f8 rows and
f16 tn 12288 x 4096 x 4096, through torch.profiler; with --once, one call
of the named row only (for Nsight Compute).
Usage: names.py [--once f8-4096|f8-8192|f16-12288]"""
import sys
import torch

ROWS = {"f8-4096": ("f8", 4096, 4096, 4096), "f8-8192": ("f8", 8192, 8192, 8192),
        "f16-12288": ("f16", 12288, 4096, 4096)}


def call(dtype, m, n, k):
    g = torch.Generator(device="cuda").manual_seed(1)
    a = torch.randn(m, k, device="cuda", generator=g)
    b = torch.randn(n, k, device="cuda", generator=g)
    if dtype == "f8":
        a8, b8 = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
        one = torch.ones((), device="cuda")
        return lambda: torch._scaled_mm(a8, b8.t(), scale_a=one, scale_b=one,
                                        out_dtype=torch.float16)
    a16, b16 = a.half(), b.half()
    return lambda: torch.matmul(a16, b16.t())


if len(sys.argv) > 2 and sys.argv[1] == "--once":
    f = call(*ROWS[sys.argv[2]])
    f(); f(); f()
    torch.cuda.synchronize()
    sys.exit(0)
from torch.profiler import profile, ProfilerActivity
for row, args in ROWS.items():
    f = call(*args)
    for _ in range(5):
        f()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(20):
            f()
        torch.cuda.synchronize()
    for e in p.key_averages():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            us = getattr(e, "device_time", None) or e.cuda_time
            print(f"{row:10s} {e.count:3d} x {us:9.1f} us  {e.key}")
