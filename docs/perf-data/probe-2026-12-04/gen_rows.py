#!/usr/bin/env python3
"""Random shapes by class, none of them from a list of ours: the probe of
where the families are weakest (docs/performance.md, "Random shapes").
Prints one ';'-separated --rows string for `harness every`. Seeded, so
the same rows come back: python3 gen_rows.py [SEED] [PER_CLASS]."""
import math
import random
import sys

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20261204
per = int(sys.argv[2]) if len(sys.argv) > 2 else 12
r = random.Random(seed)


def lg(lo, hi):
    """Log-uniform integer in [lo, hi]."""
    return int(round(math.exp(r.uniform(math.log(lo), math.log(hi)))))


CLASSES = {
    # class: (batch, M, N, K) samplers
    "decode": lambda: (1, lg(1, 16), lg(1000, 30000), lg(1000, 16000)),
    "decode_wide": lambda: (1, lg(17, 256), lg(1000, 30000), lg(500, 16000)),
    "mid": lambda: (1, lg(200, 3000), lg(200, 3000), lg(200, 8000)),
    "small_k": lambda: (1, lg(1000, 10000), lg(1000, 10000), lg(8, 160)),
    "k_heavy": lambda: (1, lg(16, 256), lg(16, 256), lg(8000, 100000)),
    "tall": lambda: (1, lg(8000, 80000), lg(8, 160), lg(128, 4096)),
    "large": lambda: (1, lg(2000, 10000), lg(2000, 10000), lg(2000, 10000)),
    "batched": lambda: (lg(2, 96), lg(64, 1024), lg(64, 1024), lg(32, 1024)),
}

rows = []
for cls, draw in CLASSES.items():
    for _ in range(per):
        b, m, n, k = draw()
        dt = r.choice(["f16", "bf16"])
        # The every set has batched families for tn and nn only.
        lay = r.choice(["tn", "nn"] if b > 1 else ["tn", "nn", "nt", "tt"])
        dims = f"{b}x{m}x{n}x{k}" if b > 1 else f"{m}x{n}x{k}"
        rows.append(f"{dt} {lay} {dims}")
print("; ".join(rows))
