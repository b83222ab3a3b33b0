"""Summarizes run1/tune/measurements.json.gz: for each f16 tn shape, the
gemv-mma tiles of acc7f79 (c), of the per-stretch change (f) and with the
16-byte path alone (l), beside the fastest measured config and cuBLAS."""
import gzip, json, sys
from collections import defaultdict
d = json.load(gzip.open(sys.argv[1]))
g = defaultdict(dict)
for r in d["rows"]:
    g[(r["class"], r["m"], r["n"], r["k"])][r["name"].split("_")[-1]] = r
def us(r):
    return 1000 * r["ms"] if r.get("ms") else float("nan")
print("| shape | cuBLAS | fastest (config) | 16x32x64: acc7f79 / per-stretch / 16-byte only | 8x16x64: acc7f79 / per-stretch / 16-byte only |")
print("|---|---|---|---|---|")
for key, rs in g.items():
    if key[0] != "f16_tn_none":
        continue
    best = min(rs.values(), key=lambda r: r.get("ms") or 9)
    cfg = best["config_str"]
    if "kind = " not in cfg:
        cfg = "kind = the family (dispatch), warps"
    short = cfg[cfg.index("kind = ") + 7:cfg.index(", warps")].replace("block = ", "").replace(", ", "x").replace("[", "").replace("]", "")
    short = short.replace("gemvx", "gemv ").replace("mma_syncx", "mma_sync ").replace("wgmmax", "wgmma ")
    if "split_k" in cfg:
        short += " split " + cfg.split("split_k = ")[1].split(",")[0].split(">")[0]
    m = key[1]
    eight = "%.1f / %.1f / %.1f" % (us(rs["c3"]), us(rs["f8x16x64"]), us(rs["l8x16x64"])) if m <= 8 else "(two row blocks)"
    print("| %dx%dx%d | %.1f | %.1f (%s) | %.1f / %.1f / %.1f | %s |" % (
        key[1], key[2], key[3], 1000 * best["cublas_ms"], us(best), short,
        us(rs["c1"]), us(rs["f16x32x64"]), us(rs["l16x32x64"]), eight))
