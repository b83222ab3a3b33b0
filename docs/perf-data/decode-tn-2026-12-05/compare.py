"""Compares two sets of harness `every` results row by row.

Usage: python3 compare.py A.json.gz[,A2.json.gz...] B.json.gz[,B2...]

Each side may list several files (repetitions); a row's time is the median
of its repetitions. Prints ours in us for A and B, B/A, cuBLAS (median of
both sides) and the kernel each launched, then the geometric mean of B/A.
"""
import gzip
import json
import math
import statistics
import sys
from collections import defaultdict


def load(files):
    rows = defaultdict(list)
    for f in files.split(","):
        for r in json.load(gzip.open(f))["rows"]:
            key = "%s %s %s %dx%dx%dx%d" % (r["dtype"], r["layout"], r["class"][:3],
                                            r["batch"], r["m"], r["n"], r["k"])
            rows[key].append(r)
    return rows


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    logs = []
    for key in a:
        if key not in b:
            continue
        ta = statistics.median(r["ours_ms"] for r in a[key]) * 1000
        tb = statistics.median(r["ours_ms"] for r in b[key]) * 1000
        cb = statistics.median(r["cublas_ms"] for r in a[key] + b[key]) * 1000
        logs.append(math.log(tb / ta))
        print(f"{key:32s} A {ta:7.1f} B {tb:7.1f}  B/A {tb / ta:5.3f}  cublas {cb:7.1f}"
              f"  {a[key][0]['launched'][-9:]:>9s} {b[key][0]['launched'][-9:]:>9s}")
    print("geomean B/A", math.exp(sum(logs) / len(logs)))


if __name__ == "__main__":
    main()
