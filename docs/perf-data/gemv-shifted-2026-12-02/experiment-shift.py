# Experiment (not shipped): one-row and few-row GEMMs with misaligned K,
# every f16 family of a layout in the given sets, through the runtime as
# gemm-opt's host code would run them (pack=True: the manifest's packing),
# and with pack=False (the kernels' in-place paths).
# usage: mis_exp.py OUT LAYOUT SHAPES(MxNxK,...) ART...
import json, sys, torch
from gemm_mlir import harness as H
out, layout, shapes = sys.argv[1], sys.argv[2], sys.argv[3]
fams = {}
for art in sys.argv[4:]:
    fams.update(H.load_kernels(art))
gen = torch.Generator(device="cuda").manual_seed(7)
big = H.copy_time(1 << 30, 10)
print(f"1 GiB copy: {(1 << 30) / big / 1e6:.0f} GB/s (bytes read + written per second)", flush=True)
rows = []
for s in shapes.split(","):
    m, n, k = (int(x) for x in s.split("x"))
    a, b, a_mk, b_kn = H.make_inputs(layout, m, n, k, "f16", gen)
    ref = a_mk.double() @ b_kn.double()
    lib = H.time_fn(lambda: torch.matmul(a_mk, b_kn), 50)
    cp = H.copy_time(2 * n * k * 2, 30)  # a copy that reads B's bytes once
    for name, g in sorted(fams.items()):
        if not name.startswith(f"g_f16_{layout}_none") or "batched" in name:
            continue
        for pack in (True, False):
            c = torch.full((m, n), float("nan"), dtype=torch.float16, device="cuda")
            try:
                t = H.time_fn(lambda: g.launch([a, b, c], m, n, k, pack=pack), 50)
            except Exception as ex:
                print(name, s, pack, "failed", ex); continue
            err = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
            plan = g.plan([a, b, c], pack)
            r = dict(gbps=n * k * 2 / t / 1e6, fam=name, ran=g.selected.name, m=m, n=n, k=k, layout=layout, pack=pack,
                     us=t * 1e3, cublas_us=lib * 1e3, copy_us=cp * 1e3, ratio=lib / t,
                     of_copy=cp / t, err=err, config=g.selected.config, plan=str(plan))
            rows.append(r)
            print(f"{layout} {s:14s} {name:24s} pack={pack!s:5} {t*1e3:8.1f} us  cuBLAS {lib*1e3:7.1f}"
                  f"  ratio {lib/t:5.2f} B {n*k*2/t/1e6:6.0f} GB/s  of same-bytes copy {cp/t:5.2f} err {err:.1e}  {g.selected.name}"
                  f"  packA={plan.get('pack_a')} packB={plan.get('pack_b')}", flush=True)
json.dump(rows, open(out, "w"), indent=1)
