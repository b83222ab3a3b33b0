"""The cost model's gemv estimate against the gemv-mma tile sweep on rows
that rule out 16-byte loads (run1: 14 f16 nn shapes, misaligned B or A,
tiles gq0-gq13 of python/gemm_mlir/cases.py GEMV_MMA_COLS_SWEEP, read in
place). Per shape: the Spearman correlation of predicted and measured
times, the measured time of the model's pick over the best's, and the mean
log of predicted / measured; then their means.

  python3 docs/perf-data/unaligned-2026-12-04/model_fit.py [NAME=VALUE ...]

from the repository root after a build (build/bin/gemm-tune-space);
NAME=VALUE overrides a model parameter (gemm-tune-space --param).
"""
import json, re, glob, subprocess, sys, math, os
sys.path.insert(0, 'python')
from gemm_mlir.cases import GEMV_MMA_COLS_SWEEP
def cfg(t):
    bm, bn, w, u = t
    return {"kind": "gemv", "block": [bm, bn, 32 * u], "warps": [1, w], "instr": [8, 16, 16], "stages": 1, "smem": "plain"}
json.dump([cfg(t) for t in GEMV_MMA_COLS_SWEEP], open('/tmp/gemv-mma-cols-sweep.json', 'w'))
params = sys.argv[1:]
def spearman(a, b):
    ra = {v: i for i, v in enumerate(sorted(range(len(a)), key=lambda i: a[i]))}
    rb = {v: i for i, v in enumerate(sorted(range(len(b)), key=lambda i: b[i]))}
    n = len(a); d = sum((ra[i] - rb[i]) ** 2 for i in range(n))
    return 1 - 6 * d / (n * (n * n - 1))
rows = []
for run in ('run1',):
  for f in sorted(glob.glob(f'docs/perf-data/unaligned-2026-12-04/{run}/sweep-*.txt')):
    meas = {}
    for l in open(f):
        m = re.match(r"g_f16_nn_none_gq(\d+)\s+(\d+)x\s*(\d+)x\s*(\d+)\s+ours\s+([\d.]+)", l)
        if m:
            i = int(m.group(1)); M, N, K = map(int, m.group(2, 3, 4)); tf = float(m.group(5))
            meas[i] = 2 * M * N * K / tf / 1e6  # us
    if not meas: continue
    out = subprocess.run(['build/bin/gemm-tune-space', '--chip=sm_90a', '--layout=nn', '--mode=eval', '--configs=/tmp/gemv-mma-cols-sweep.json', f'--shape={M}x{N}x{K}'] + [f'--param={p}' for p in params], capture_output=True, text=True)
    d = json.loads(out.stdout)
    pred = [p['cost']['time_us'] for p in d['problems'][0]['points']]
    idx = sorted(meas)
    mt = [meas[i] for i in idx]; pt = [pred[i] for i in idx]
    best_m = min(range(len(idx)), key=lambda j: mt[j]); pick = min(range(len(idx)), key=lambda j: pt[j])
    rows.append((run, f"{M}x{N}x{K}", spearman(mt, pt), mt[pick] / mt[best_m], sum(math.log(p / m) for p, m in zip(pt, mt)) / len(mt)))
for r in rows: print("%s %-14s spearman %5.2f pick/best %.2f  log(pred/meas) %+.2f" % r)
print("mean spearman %.2f, picks within 0.9: %d/%d, geomean pred/meas %.2f" % (sum(r[2] for r in rows)/len(rows), sum(1 for r in rows if r[3] <= 1/0.9), len(rows), math.exp(sum(r[4] for r in rows)/len(rows))))
