"""Draws wide-tn.svg: f16 tn ratio to cuBLAS against the rows of A, before
(wide-base.json, dashed) and after (run8/wide.json, solid) the wide decode
members, one colour per N x K. No plotting library needed:
python3 docs/perf-data/wide-decode-2026-12-04/plot.py"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
MS = [33, 48, 64, 80, 96, 128]
NK = [((4096, 4096), "#1f77b4"), ((11008, 4096), "#d62728"),
      ((4096, 11008), "#2ca02c"), ((14336, 4096), "#9467bd")]
W, H, L, R, T, B = 640, 400, 60, 170, 30, 50
Y0, Y1 = 0.5, 1.1


def ratios(name):
    rows = json.load(open(os.path.join(here, name)))["rows"]
    return {(r["m"], r["n"], r["k"]): r["ratio"] for r in rows
            if r["dtype"] == "f16" and r["layout"] == "tn" and r["batch"] == 1}


def x(m):
    return L + (m - MS[0]) / (MS[-1] - MS[0]) * (W - L - R)


def y(v):
    return T + (Y1 - v) / (Y1 - Y0) * (H - T - B)


out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
       'font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{L}" y="18">f16 tn on the H200: cuBLAS time / ours '
       '(dashed: before, solid: now)</text>']
for i in range(7):
    v = Y0 + i * 0.1
    out.append(f'<line x1="{L}" x2="{W - R}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
               f'stroke="{"#888" if abs(v - 1) < 1e-9 else "#ddd"}"/>')
    out.append(f'<text x="{L - 8}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
for m in MS:
    out.append(f'<text x="{x(m):.1f}" y="{H - B + 18}" text-anchor="middle">{m}</text>')
out.append(f'<text x="{(L + W - R) / 2}" y="{H - 10}" text-anchor="middle">'
           'M (rows of A)</text>')
for name, dash in (("wide-base.json", "6,4"), ("run8/wide.json", "")):
    r = ratios(name)
    for (n, k), colour in NK:
        pts = " ".join(f"{x(m):.1f},{y(r[(m, n, k)]):.1f}" for m in MS if (m, n, k) in r)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                   f'stroke-width="2" stroke-dasharray="{dash}"/>')
for i, ((n, k), colour) in enumerate(NK):
    yy = T + 20 + 20 * i
    out.append(f'<line x1="{W - R + 15}" x2="{W - R + 40}" y1="{yy}" y2="{yy}" '
               f'stroke="{colour}" stroke-width="2"/>')
    out.append(f'<text x="{W - R + 46}" y="{yy + 4}">N={n} K={k}</text>')
out.append("</svg>")
open(os.path.join(here, "wide-tn.svg"), "w").write("\n".join(out) + "\n")
