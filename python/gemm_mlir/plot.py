#!/usr/bin/env python3
"""Renders harness bench JSON as an SVG bar chart (ours vs cuBLAS, TFLOP/s),
with no dependencies beyond the standard library.

Usage: plot.py BENCH_JSON OUT_SVG [--defaults-only]
"""
import json
import re
import sys


def main():
    data = json.load(open(sys.argv[1]))
    # Variants carry a suffix: _v<i> (mma.sync sweep), _wg<i> (wgmma sweep).
    rows = [r for r in data["rows"]
            if "--defaults-only" not in sys.argv
            or not re.search(r"_(v|wg)\d+$", r["kernel"])]
    bar_h, gap, left, width = 14, 10, 330, 520
    scale = width / max(max(r["cublas_tflops"], r["ours_tflops"]) for r in rows)
    height = len(rows) * (2 * bar_h + gap) + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 120}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           f'<text x="10" y="18" font-size="13">gemm-mlir vs cuBLAS on {data["gpu"]} '
           f'({data["date"]}), TFLOP/s</text>',
           '<rect x="10" y="28" width="12" height="10" fill="#1f77b4"/>'
           '<text x="26" y="37">gemm-mlir</text>',
           '<rect x="100" y="28" width="12" height="10" fill="#aaaaaa"/>'
           '<text x="116" y="37">cuBLAS</text>']
    y = 50
    for r in rows:
        label = f'{r["kernel"]} {r["m"]}x{r["n"]}x{r["k"]}'
        out.append(f'<text x="{left - 6}" y="{y + bar_h + 4}" text-anchor="end">{label}</text>')
        for i, (key, color) in enumerate([("ours_tflops", "#1f77b4"), ("cublas_tflops", "#aaaaaa")]):
            w = r[key] * scale
            out.append(f'<rect x="{left}" y="{y + i * bar_h}" width="{w:.1f}" '
                       f'height="{bar_h - 2}" fill="{color}"/>')
            out.append(f'<text x="{left + w + 4:.1f}" y="{y + i * bar_h + bar_h - 4}">'
                       f'{r[key]:.0f}{" (%.2fx)" % r["ratio"] if i == 0 else ""}</text>')
        y += 2 * bar_h + gap
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
