# gemv on mma.sync: the sweep's tiles (artifacts/gemvsweep, _gm<i>) beside
# the dispatch family (artifacts/every) on decode shapes, same process,
# same inputs; aligned and odd K, f16 and bf16, tn.
import json, sys, torch
from gemm_mlir import harness as H
from gemm_mlir import cases as C
out = sys.argv[1]
fam = H.load_kernels("artifacts/every"); sw = H.load_kernels("artifacts/gemvsweep")
gen = torch.Generator(device="cuda").manual_seed(7)
big = H.copy_time(1 << 30, 10); bw = (1 << 30) / big / 1e6
print(f"1 GiB copy {bw:.0f} GB/s", flush=True)
shapes = ["3x4096x4096", "4x4096x4096", "8x4096x4096", "16x4096x4096",
          "11x4097x4093", "5x4097x4093", "16x4097x4093", "8x11008x4096",
          "16x4096x11008", "4x14336x4096", "8x4096x11008", "12x2048x8192",
          "6x1280x8192", "16x11008x4095", "8x16384x256", "16x8192x512",
          "4x2048x1024", "3x9000x1500", "13x1056x4096"]
rows = []
for dt in ("f16", "bf16"):
    for s in shapes:
        m, n, k = (int(x) for x in s.split("x"))
        a, b, a_mk, b_kn = H.make_inputs("tn", m, n, k, dt, gen)
        ref = a_mk.double() @ b_kn.double()
        lib = H.time_fn(lambda: torch.matmul(a_mk, b_kn), 50)
        r = dict(dtype=dt, m=m, n=n, k=k, cublas_us=lib * 1e3, tiles={})
        def run(g):
            c = torch.full((m, n), float("nan"), dtype=a.dtype, device="cuda")
            t = H.time_fn(lambda: g.launch([a, b, c], m, n, k), 50)
            err = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
            return dict(us=t * 1e3, err=err, of_copy=n * k * 2 / t / 1e6 / bw)
        g = fam[f"g_{dt}_tn_none"]
        r["family"] = run(g); r["family"]["ran"] = g.selected.name
        best = None
        for i, cfg in enumerate(C.GEMV_MMA_SWEEP):
            if cfg[0] < m:
                continue
            x = run(sw[f"g_{dt}_tn_none_gm{i}"])
            r["tiles"][str(cfg)] = x
            if best is None or x["us"] < best[1]["us"]:
                best = (cfg, x)
        rows.append(r)
        f = r["family"]
        print(f"{dt} {s:14s} cuBLAS {lib*1e3:6.1f}  family {f['us']:6.1f} ({f['of_copy']:.0%} copy, {f['ran']}, err {f['err']:.1e})"
              f"  best mma {best[0]} {best[1]['us']:6.1f} ({best[1]['of_copy']:.0%}, err {best[1]['err']:.1e})", flush=True)
        print("    " + "  ".join(f"{k}:{v['us']:.1f}" for k, v in r["tiles"].items()), flush=True)
json.dump(dict(copy_gbps=bw, rows=rows), open(out, "w"), indent=1)
