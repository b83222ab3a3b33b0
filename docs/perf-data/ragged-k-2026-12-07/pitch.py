"""Run 2: the f16 tn family on A (M x K) and B (N x K) whose rows are 16-byte
but not 32-byte aligned (K an odd multiple of 8) as given, and on the same
values in rows padded to a multiple of 64 elements (what a pack would hand
the GEMM), beside the cost of that copy (PyTorch, both operands) and cuBLAS;
each result checked against float64."""
import sys
import torch
from gemm_mlir import harness as h

art = sys.argv[1]
g = h.load_kernels(art)["g_f16_tn_none"]
gen = torch.Generator(device="cuda").manual_seed(3)
print(f"{'shape':18s} {'as given':>9s} {'padded':>9s} {'copy':>8s} {'cuBLAS':>8s}  (us)")
for shape in sys.argv[2:]:
    m, n, k = (int(x) for x in shape.split("x"))
    kp = (k + 63) // 64 * 64
    a = h.rand((m, k), "f16", gen)
    b = h.rand((n, k), "f16", gen)
    ap = torch.zeros((m, kp), dtype=torch.float16, device="cuda")[:, :k]
    bp = torch.zeros((n, kp), dtype=torch.float16, device="cuda")[:, :k]
    ap.copy_(a)
    bp.copy_(b)
    c = torch.full((m, n), float("nan"), dtype=torch.float16, device="cuda")
    ref = a.double() @ b.double().t()
    res = {}
    for label, (x, y) in {"given": (a, b), "padded": (ap, bp)}.items():
        c.fill_(float("nan"))
        g.launch([x, y, c], m, n, k)
        torch.cuda.synchronize()
        err = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
        assert err < 1e-3, (shape, label, err)
        res[label] = h.time_fn(lambda: g.launch([x, y, c], m, n, k), 20)
    res["copy"] = h.time_fn(lambda: (ap.copy_(a), bp.copy_(b)), 20)
    res["cublas"] = h.time_fn(lambda: torch.matmul(a, b.t()), 20)
    print(f"{shape:18s} " + " ".join(f"{res[x] * 1e3:9.1f}" for x in ("given", "padded", "copy", "cublas"))
          + f"   plan {g.plan([a, b, c])}", flush=True)
