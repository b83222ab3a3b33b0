#!/usr/bin/env python3
"""Per kernel and shape: medians of ours (us), cuBLAS, ratio and error
ratio over the bench runs of each set (b-wsr01.json, b-wsr02.json, ...).
Usage: table.py DIR"""
import glob, gzip, json, os, statistics, sys
from collections import defaultdict

d = sys.argv[1]
t = defaultdict(lambda: defaultdict(list))
for f in sorted(glob.glob(os.path.join(d, "b-*.json*"))):
    s = os.path.basename(f).split(".")[0][2:-1]
    rows = json.load(gzip.open(f) if f.endswith(".gz") else open(f))["rows"]
    for r in rows:
        key = (r["kernel"], f"{r['m']}x{r['n']}x{r['k']}")
        t[key][s].append((r["ours_ms"] * 1e3, r["cublas_ms"] * 1e3, r.get("error_ratio", float("nan"))))
sets = sorted({s for v in t.values() for s in v})
print("kernel shape | " + " | ".join(f"{s} us (ratio, err)" for s in sets))
for (k, shape), v in sorted(t.items()):
    cells = []
    for s in sets:
        if s not in v:
            cells.append("-")
            continue
        ours = statistics.median(x[0] for x in v[s])
        cub = statistics.median(x[1] for x in v[s])
        err = statistics.median(x[2] for x in v[s])
        cells.append(f"{ours:8.1f} ({cub / ours:.2f}, {err:.2f})")
    print(f"{k:28s} {shape:16s} | " + " | ".join(cells))
