"""The table of run N's rows (run_a.sh): each decode row's time (us) in
the three families, both turns, the kernel launched, cuBLAS's best, and
the bandwidth of family 1 and 2 (bytes of A, B and C over the faster
turn). Usage: python3 summary.py run1-h100"""
import glob
import gzip
import json
import sys

res = {}
for f in sorted(glob.glob(sys.argv[1] + "/rows*.json.gz")):
    fam = f.split("/rows")[1][0]
    d = json.load(gzip.open(f))
    for r in (d["rows"] if isinstance(d, dict) else d):
        k = (r["dtype"], r["layout"], r["m"], r["n"], r["k"])
        res.setdefault(k, {}).setdefault(fam, []).append(
            (r["ours_ms"] * 1000, r["cublas_ms"] * 1000, r.get("launched")))
print("%-26s %23s %23s %23s %7s" % ("row", "1 (stages 1)", "2 (stages 2)",
                                     "3 (2, min blocks)", "cuBLAS"))
for (dt, lay, m, n, k), v in res.items():
    nbytes = 2 * (m * k + k * n + m * n)
    line = "%-5s %s %5dx%5dx%5d" % (dt, lay, m, n, k)
    for fam in "123":
        t = [x[0] for x in v[fam]]
        line += "  %6.1f %6.1f %-9s" % (t[0], t[1], v[fam][0][2].split("_gemm")[-1])
    best = lambda fam: min(x[0] for x in v[fam])
    line += "  %6.1f  %4.0f / %4.0f GB/s" % (
        min(x[1] for fam in "123" for x in v[fam]),
        nbytes / best("1") / 1e3, nbytes / best("2") / 1e3)
    print(line)
