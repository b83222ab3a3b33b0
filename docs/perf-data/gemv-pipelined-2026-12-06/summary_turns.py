"""The table of runs 2 and 3 (run_b.sh, run_c.sh): each row's best time
(us) in every family timed (rows<family>-<turn>.json.gz), the kernel
launched and its K slices, cuBLAS's best, and cuBLAS / ours per family.
Usage: python3 summary_turns.py run3-h100"""
import json,gzip,glob,sys
res={}
fams=[]
for f in sorted(glob.glob(sys.argv[1]+"/rows*.json.gz")):
    fam=f.split("/rows")[1].split("-")[0]
    if fam not in fams: fams.append(fam)
    d=json.load(gzip.open(f))
    for r in (d["rows"] if isinstance(d,dict) else d):
        k=(r["dtype"],r["layout"],r["m"],r["n"],r["k"])
        res.setdefault(k,{}).setdefault(fam,[]).append((r["ours_ms"]*1000,r["cublas_ms"]*1000,r.get("launched").split("_gemm")[-1], r.get("slices")))
fams=sorted(fams, key=lambda x: (len(x), x))
print("%-24s" % "row" + "".join("  %-18s" % f for f in fams) + "  cuBLAS  ratios")
for k,v in res.items():
    c=min(x[1] for f in v for x in v[f])
    line="%-5s %s %3dx%5dx%5d" % k
    for f in fams:
        t=min(x[0] for x in v[f]); line+="  %6.1f %-4s(%2s sl)" % (t, v[f][0][2], v[f][0][3] or "")
    line+="  %6.1f " % c + " ".join("%.2f" % (c/min(x[0] for x in v[f])) for f in fams)
    print(line)
