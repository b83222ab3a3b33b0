"""Tuning databases (the JSON files gemm/Tuning/TuningDB.h reads): `merge`
keeps the fastest measured entry per key and shape."""
import json
import os


def cmd_merge(a):
    """Merges tuning databases: per (arch, dtype, acc, layout, epilogue,
    shape) the entry with the highest measured TFLOP/s."""
    best = {}
    meta = {}
    for path in a.dbs:
        db = json.load(open(path))
        meta = {k: v for k, v in db.items() if k != "entries"}
        for e in db["entries"]:
            key = (e["arch"], e["dtype"], e["acc"], e["layout"], e["epilogue"],
                   e["m"], e["n"], e["k"])
            if key not in best or e.get("tflops", 0) > best[key].get("tflops", 0):
                best[key] = e
    meta["generator"] = "python/gemm_mlir/tune.py merge " + " ".join(
        os.path.basename(p) for p in a.dbs)
    meta["entries"] = [best[k] for k in sorted(best)]
    with open(a.out, "w") as f:
        f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}"
                                    for k, v in meta.items() if k != "entries"))
        f.write(',\n "entries": [\n')
        f.write(",\n".join("  " + json.dumps(e) for e in meta["entries"]))
        f.write("\n ]\n}\n")
    print(f"{len(best)} entries -> {a.out}")

