import sys, torch
from gemm_mlir.harness import load_kernels, make_inputs, time_fn, copy_bandwidth
ks = load_kernels("artifacts/every")
bw = copy_bandwidth()
print(f"copy {bw/1e9:.0f} GB/s")
gen = torch.Generator(device="cuda").manual_seed(1)
for name in ["g_f16_tn_none", "g_f16_nn_none"]:
    g = ks[name]
    for (m, n, k) in [(11, 4097, 4093), (1, 4097, 4093), (16, 4099, 11007), (4, 14337, 4095), (8, 11008, 4095), (11, 4096, 4096)]:
        a, b, a_mk, b_kn = make_inputs(g.meta["layout"], m, n, k, "f16", gen)
        c = torch.empty((m, n), dtype=torch.float16, device="cuda")
        bytes_ = 2 * (m * k + n * k + m * n)
        ref = torch.matmul(a_mk, b_kn)
        res = {}
        for pack in (True, False):
            c.fill_(float("nan"))
            g.launch([a, b, c], m, n, k, pack=pack); torch.cuda.synchronize()
            err = ((c.double() - ref.double()).norm() / ref.double().norm()).item()
            t = time_fn(lambda: g.launch([a, b, c], m, n, k, pack=pack), 50)
            res[pack] = (t, err)
        tc = time_fn(lambda: torch.matmul(a_mk, b_kn), 50)
        kern = g.select(m, n, k)
        print(f"{name} {m}x{n}x{k} member {kern.entry.get('member', kern.entry['name'])}: pack {res[True][0]*1e3:.1f} us ({bytes_/(res[True][0]*1e-3)/bw:.0%}), no pack {res[False][0]*1e3:.1f} us ({bytes_/(res[False][0]*1e-3)/bw:.0%}, err {res[False][1]:.1e}), cublas {tc*1e3:.1f} us ({bytes_/(tc*1e-3)/bw:.0%})", flush=True)
