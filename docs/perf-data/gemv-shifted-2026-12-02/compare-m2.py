# M = 2 rows: the family with gemv-2 (artifacts/every) against the family
# before it (artifacts/old), same process, same inputs.
import json, sys, torch
from gemm_mlir import harness as H
out = sys.argv[1]
new = H.load_kernels("artifacts/every"); old = H.load_kernels("artifacts/old")
gen = torch.Generator(device="cuda").manual_seed(7)
big = H.copy_time(1 << 30, 10); bw = (1 << 30) / big / 1e6
print(f"1 GiB copy {bw:.0f} GB/s", flush=True)
rows = []
for dt in ("f16", "bf16"):
    for s in ["2x4096x4096", "2x4097x4093", "2x8192x8192", "2x2048x8192", "2x1280x8192", "2x8320x4096", "2x1056x4096", "2x6144x4096", "2x4096x11008", "2x14336x4096"]:
        m, n, k = (int(x) for x in s.split("x"))
        a, b, a_mk, b_kn = H.make_inputs("tn", m, n, k, dt, gen)
        ref = a_mk.double() @ b_kn.double()
        lib = H.time_fn(lambda: torch.matmul(a_mk, b_kn), 50)
        r = dict(dtype=dt, m=m, n=n, k=k, cublas_us=lib * 1e3)
        for tag, fams in (("new", new), ("old", old)):
            g = fams[f"g_{dt}_tn_none"]
            c = torch.full((m, n), float("nan"), dtype=a.dtype, device="cuda")
            t = H.time_fn(lambda: g.launch([a, b, c], m, n, k), 50)
            err = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
            r[tag] = dict(us=t * 1e3, ran=g.selected.name, err=err, of_copy=n * k * 2 / t / 1e6 / bw)
        rows.append(r)
        print(f"{dt} tn {s:14s} cuBLAS {lib*1e3:6.1f}  new {r['new']['us']:6.1f} ({lib*1e3/r['new']['us']:.2f}x, {r['new']['of_copy']:.0%} copy, {r['new']['ran']}, err {r['new']['err']:.1e})"
              f"  old {r['old']['us']:6.1f} ({lib*1e3/r['old']['us']:.2f}x, {r['old']['ran']})", flush=True)
json.dump(dict(copy_gbps=bw, rows=rows), open(out, "w"), indent=1)
