"""The reference the runtime's choices are compared with: the rules of
python/gemm_mlir/dispatch.py on a manifest's families.

  dispatch_reference.py sizes DIR    print "FUNCTION M N K BATCH" lines: a
                                     grid of sizes around every bound, and
                                     random ones, for every family of DIR;
                                     "FUNCTION M N K BATCH ALIGNED" for
                                     families with members conditioned on
                                     the operands' alignment (ALIGNED: 1 A
                                     allows 16-byte copies, 2 B, 0 neither)
  dispatch_reference.py choose DIR   read such lines, print the kernel and
                                     K slices dispatch.py picks, in
                                     gemm-runtime-probe's format

Families are named as the runtime names them: the function, or
<function>#<gemm> when the function holds several gemm.matmul ops.
"""
import json
import os
import random
import sys

from gemm_mlir.dispatch import choose_entry, split_slices

GRID_M = [0, 1, 2, 7, 8, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255,
          256, 257, 1000, 2048, 4095, 4096, 8192, 65536]
GRID_K = [0, 1, 63, 64, 127, 128, 255, 256, 511, 512, 513, 1000, 2048, 4096,
          20001, 65536, 100000, 1048576]
BATCHES = [1, 2, 3, 8, 64, 65535]
# Sizes between the grid's points that some rules bound: 16 rows of an
# odd-N B in one wave of three 16 x 32 blocks an SM but not of two
# (gemv-mma-16-n-unaligned-many); 66 and 67, 132 and 133, 211 and 212, 264
# and 265 blocks of 64 x 128 from K = 4096 on (decode-wgmma-n and
# -two-waves; decode-wgmma on tn); 16 rows and K = 2048 (decode-wgmma-16);
# grids whose 128 x 256 tiles end in a short last wave, or do not, and
# 128 x 192 grids on either side of a whole wave (wave-fit).
EXTRA = [(16, 10001, 4096), (9, 9999, 1000), (8, 11008, 4096), (16, 8449, 8192),
         (16, 8448, 8192), (16, 16896, 4096), (16, 16897, 4096),
         (16, 27008, 4096), (16, 27009, 4096), (16, 33792, 4096),
         (16, 33793, 4096), (16, 11008, 2048), (3072, 3072, 4096),
         (2304, 2304, 4096), (4099, 4097, 4095), (3840, 3840, 4096),
         (2560, 2560, 4096), (5000, 5000, 3000), (1408, 2304, 1024),
         (1409, 2304, 1024), (4224, 2304, 512), (4225, 2304, 512),
         (4096, 4096, 1023), (4096, 4096, 1024)]


def families(directory):
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    fams = {}
    for e in manifest["kernels"]:
        func = e.get("function") or e["name"].rsplit("_gemm", 1)[0]
        fams.setdefault((func, e.get("gemm", 0)), []).append(e)
    funcs = [f for f, _ in fams]
    return {(f if funcs.count(f) == 1 else f"{f}#{g}"): entries
            for (f, g), entries in fams.items()}


def alignments(entries):
    """The ALIGNED suffixes to try: none (both aligned) and, where a member
    is conditioned on alignment, the three others."""
    conditioned = any(key.endswith("_aligned") for e in entries
                      for key in e.get("when", {}))
    return [""] + ([" 0", " 1", " 2"] if conditioned else [])


def sizes(directory):
    rng = random.Random(7)
    for name, entries in families(directory).items():
        batched = entries[0]["grid"].get("batched", False)
        for aligned in alignments(entries):
            for b in (BATCHES if batched else [1]):
                for m in GRID_M:
                    for n in GRID_M[::2]:
                        for k in GRID_K:
                            print(f"{name} {m} {n} {k} {b}{aligned}")
                for m, n, k in EXTRA:
                    print(f"{name} {m} {n} {k} {b}{aligned}")
        for _ in range(300):
            m, n, k = (rng.choice([rng.randint(-2, 300), rng.randint(0, 1 << 20),
                                   rng.randint(0, (1 << 31) - 1)])
                       for _ in range(3))
            b = rng.choice([1, rng.randint(0, 70000)]) if batched else 1
            aligned = alignments(entries)
            print(f"{name} {m} {n} {k} {b}"
                  f"{rng.choice(aligned) if len(aligned) > 1 else ''}")


def choose(directory):
    fams = families(directory)
    for line in sys.stdin:
        parts = line.split()
        if len(parts) < 4:
            continue
        name, (m, n, k) = parts[0], map(int, parts[1:4])
        b = int(parts[4]) if len(parts) > 4 else 1
        aligned = int(parts[5]) if len(parts) > 5 else 3
        entries = fams[name]
        e = entries[choose_entry(entries, m, n, k, b, bool(aligned & 1),
                                 bool(aligned & 2))]
        suffix = "" if aligned == 3 else f" aligned {aligned}"
        print(f"{name} {m}x{n}x{k} batch {b}{suffix}: {e['name']} "
              f"{split_slices(e, m, n, k, b)}")


{"sizes": sizes, "choose": choose}[sys.argv[1]](sys.argv[2])
