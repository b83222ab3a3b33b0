"""Does where B lies move a memory-bound row? f16/bf16 tn 16x4096x11008
(gemv-mma-16, B of 90 MB read once) with B placed at offsets of 0 to
1 MiB into a larger buffer (2-MiB pages: the offset changes which DRAM
channels and L2 slices consecutive rows fall on), each timed the
harness's way; 4x14336x4096 beside it. Usage (GPU machine):
python3 offsets.py artifacts/every"""
import sys

import torch

from gemm_mlir.harness import load_kernels, time_fn

kernels = load_kernels(sys.argv[1])
gen = torch.Generator(device="cuda").manual_seed(5)
for dtype, (m, n, k) in (("f16", (16, 4096, 11008)), ("bf16", (16, 4096, 11008)),
                         ("f16", (4, 14336, 4096))):
    t = torch.float16 if dtype == "f16" else torch.bfloat16
    g = kernels[f"g_{dtype}_tn_none"]
    a = torch.randn(m, k, device="cuda", generator=gen).to(t)
    big = torch.randn(n * k + (1 << 20), device="cuda", generator=gen).to(t)
    c = torch.empty(m, n, device="cuda", dtype=t)
    for off_kib in (0, 4, 16, 64, 128, 256, 512, 1024, 1536):
        off = off_kib * 1024 // 2
        b = big[off:off + n * k].view(n, k)
        ms = time_fn(lambda: g.launch([a, b, c], m, n, k, 1), 50)
        lib = time_fn(lambda: torch.matmul(a, b.t()), 50)
        err = ((c.double() - a.double() @ b.double().t()).norm() /
               (a.double() @ b.double().t()).norm()).item()
        gbs = 2 * (m * k + n * k + m * n) / ms / 1e6
        print(f"{dtype} tn {m}x{n}x{k} B at +{off_kib:5d} KiB: ours {ms * 1e3:6.1f} us "
              f"({gbs:5.0f} GB/s)  cuBLAS {lib * 1e3:6.1f} us  err {err:.1e}", flush=True)
