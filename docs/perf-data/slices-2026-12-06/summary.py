#!/usr/bin/env python3
"""Issue 15's large-shape rows from runs 3 and 4 (docs/performance.md,
"Timing order and the power cap"): the default family's ratio to cuBLAS
by the fair bench (library re-timed right before each kernel; short
bursts) in each run, and by the sustained duel (after 5 s of load), with
the persistent sliced tile (sl0) beside it.
Usage: python3 summary.py  (from this folder)"""
import glob, gzip, json, os, re
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
bench = defaultdict(dict)   # (dtype, layout, shape) -> run -> {kernel suffix: ratio}
duel = defaultdict(dict)
for run in ("run3-h100", "run4-h100"):
    for f in sorted(glob.glob(os.path.join(here, run, "bench*.json.gz"))):
        for r in json.load(gzip.open(f))["rows"]:
            m = re.match(r"g_[a-z0-9]+_[a-z]+_none(_\w+)?$", r["kernel"])
            if not m:
                continue
            key = (r["dtype"], r["layout"], f'{r["m"]}x{r["n"]}x{r["k"]}')
            bench[key].setdefault(run, {})[m.group(1) or "fam"] = r["ratio"]
    for f in sorted(glob.glob(os.path.join(here, run, "d-*.json.gz"))):
        rows = json.load(gzip.open(f))["rows"]
        for r in rows:
            if r["kernel"] == "cublas":
                continue
            m = re.match(r"g_[a-z0-9]+_[a-z]+_none(_\w+)?$", r["kernel"])
            key = (r["dtype"], r["layout"], f'{r["m"]}x{r["n"]}x{r["k"]}')
            duel[key].setdefault(run, {})[m.group(1) or "fam"] = r["ratio"]

fmt = lambda d, k: f'{d[k]:.2f}' if k in d else "-"
print(f'{"row":32s} {"bench r3":>9s} {"bench r4":>9s} {"duel r3":>8s} {"duel r4":>8s} {"sl0 duel":>9s}')
for key in sorted(set(bench) | set(duel)):
    if key[0] not in ("f16", "bf16", "f8"):
        continue
    b, d = bench.get(key, {}), duel.get(key, {})
    sl0 = [v.get("_sl0") for v in d.values() if v.get("_sl0")]
    print(f'{" ".join(key):32s} {fmt(b.get("run3-h100", {}), "fam"):>9s} '
          f'{fmt(b.get("run4-h100", {}), "fam"):>9s} {fmt(d.get("run3-h100", {}), "fam"):>8s} '
          f'{fmt(d.get("run4-h100", {}), "fam"):>8s} '
          f'{"/".join(f"{x:.2f}" for x in sl0) or "-":>9s}')
