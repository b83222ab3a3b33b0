"""The kernels a call of the f16 nn family and of its gemv-mma-16-n-narrow
tile compiled alone (gq7, the same PTX) launch on odd-N rows, from PyTorch's
profiler, and each call's time (time_fn), twice in alternation."""
import sys
import torch
from gemm_mlir import harness as h

art = sys.argv[1]
kernels = h.load_kernels(art)
gen = torch.Generator(device="cuda").manual_seed(11)
for shape in sys.argv[2:]:
    m, n, kk = (int(x) for x in shape.split("x"))
    a, b, a_mk, b_kn = h.make_inputs("nn", m, n, kk, "f16", gen)
    c = torch.full((m, n), float("nan"), dtype=torch.float16, device="cuda")
    for turn in range(2):
        for name in ("g_f16_nn_none", "g_f16_nn_none_gq7"):
            g = kernels[name]
            fn = lambda: g.launch([a, b, c], m, n, kk)
            ms = h.time_fn(fn, 30)
            ks = h.kernel_times(fn, 20)
            print(f"{shape} {name:20s} {ms * 1e3:7.2f} us  " +
                  "; ".join(f"{k[:40]} {per:.1f} x {us:.2f} us" for k, (per, us) in ks.items()),
                  flush=True)
    if "g_f16_nn_none" in kernels:
        print("  plan:", kernels["g_f16_nn_none"].select_for(a, b, m, n, kk).report(m, n, kk, 1))
