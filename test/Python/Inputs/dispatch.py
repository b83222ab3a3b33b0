"""Driver of dispatch.test: python/gemm_mlir/dispatch.py (the harness's
runtime dispatch of kernel families and split-K slices) on a synthetic
family, without a GPU. Prints one line per fact; the test checks them with
FileCheck. Usage: dispatch.py (PYTHONPATH=python)."""
import sys

from gemm_mlir.dispatch import choose_entry, split_slices

print("gpu modules loaded:", sorted(m for m in ("torch", "cupy", "numpy")
                                    if m in sys.modules))


def entry(name, tile_m, tile_n, when=None, split=None):
    e = {"name": name, "grid": {"tile_m": tile_m, "tile_n": tile_n}}
    if when is not None:
        e["when"] = when
    if split is not None:
        e["split_k"] = split
    return e


# Rule order matters: "split" and "short_m" both hold for M = 8, N = 64,
# K = 4096; the first wins. "blocks" counts with each entry's own tiles:
# 64 x 64 tiles for "split", 128 x 256 for "wide".
FAMILY = [
    entry("split", 64, 64, {"blocks_max": 4, "k_min": 512},
          {"max": 16, "fill_blocks": 32, "min_k_per_slice": 256}),
    entry("short_m", 64, 128, {"m_max": 64}),
    entry("narrow_n", 128, 64, {"n_min": 2, "n_max": 32}),
    entry("deep", 128, 128, {"k_min": 10000, "k_max": 20000}),
    entry("batched", 128, 128, {"batch_min": 2, "batch_max": 8}),
    entry("wide", 128, 256, {"m_min": 1000, "n_min": 1000, "blocks_min": 132}),
    entry("default", 128, 128, {}),
]


def choose(m, n, k, batch=1):
    print(f"choose {m}x{n}x{k} batch {batch}: {FAMILY[choose_entry(FAMILY, m, n, k, batch)]['name']}")


choose(8, 64, 4096)          # split: 1 block of 64 x 64, K >= 512
choose(8, 64, 256)           # k_min fails: short_m
choose(128, 128, 4096)       # 4 blocks: split
choose(129, 128, 4096)       # 3 * 2 blocks > 4 (128 x 128 tiles: 2): not split
choose(65, 64, 4096, 2)      # 2 * 2 * 1 = 4 blocks: split
choose(64, 4096, 4096)       # m_max = 64 holds: short_m
choose(65, 32, 500)          # 2 * 1 blocks but K < 512; n <= 32: narrow_n
choose(65, 1, 500)           # n_min = 2 fails
choose(500, 500, 10000)      # k_min inclusive: deep
choose(500, 500, 20000)      # k_max inclusive: deep
choose(500, 500, 20001)
choose(500, 500, 100, 2)     # batch_min inclusive
choose(500, 500, 100, 8)     # batch_max inclusive
choose(500, 500, 100, 9)
# blocks with wide's 128 x 256 tiles: 12 * 11 = 132 holds, 12 * 10 does not
# (with 128 x 128 tiles, 12 * 20 = 240 would).
choose(1536, 2816, 100)
choose(1536, 2560, 100)
choose(1000, 999, 100)       # n_min = 1000 fails
# Entries without "when" (old manifests) always hold.
print("no when:", choose_entry([entry("a", 128, 128), entry("b", 64, 64)], 1, 1, 1, 1))
# The last entry when none holds, as gemm-opt's host code.
print("none hold:", choose_entry([entry("a", 128, 128, {"m_min": 2}),
                                  entry("b", 128, 128, {"m_min": 3})], 1, 1, 1, 1))
try:
    choose_entry([entry("bad", 128, 128, {"rows_max": 3})], 1, 1, 1, 1)
except ValueError as ex:
    print("error:", ex)
# "a_aligned" / "b_aligned": the member holds only for an operand that
# allows 16-byte copies (true) or rules them out (false); absent, either.
ALIGNED = [entry("b_unaligned", 8, 16, {"m_max": 8, "b_aligned": False}),
           entry("a_aligned", 8, 32, {"m_max": 8, "a_aligned": True}),
           entry("default", 128, 128, {})]
for a_ok, b_ok in ((True, True), (True, False), (False, True), (False, False)):
    i = choose_entry(ALIGNED, 8, 4097, 4096, 1, a_ok, b_ok)
    print(f"aligned a={a_ok} b={b_ok}: {ALIGNED[i]['name']}")
print("aligned by default:", ALIGNED[choose_entry(ALIGNED, 8, 4096, 4096)]["name"])
print("aligned, m fails:", ALIGNED[choose_entry(ALIGNED, 9, 4097, 4096, 1, True, False)]["name"])
# "wave_fit": 128 x 192 tiles where weight * their waves (of 132 blocks) is
# at most versus_weight * the waves of 128 x 256 tiles.
FIT = {"wave": 132, "versus": [128, 256], "weight": 75, "versus_weight": 94}
WAVES = [entry("wave_fit", 128, 192, {"blocks_min": 133, "wave_fit": FIT}),
         entry("default", 128, 256, {})]
for m, n, batch in ((3072, 3072, 1), (4096, 4096, 1), (4099, 4097, 1), (1536, 1536, 4),
                    (2048, 2048, 1)):
    print(f"wave_fit {m}x{n} batch {batch}:",
          WAVES[choose_entry(WAVES, m, n, 4096, batch)]["name"])
# Block counts past INT64_MAX saturate there, as in the C runtime: both
# tiles' counts do, so the member's weighted waves are the smaller.
print("wave_fit saturated:",
      WAVES[choose_entry(WAVES, 15332, 8552, 231, (1 << 63) - 1)]["name"])
try:
    choose_entry([entry("bad_fit", 128, 192, {"wave_fit": {"wave": 132}})], 1, 1, 1, 1)
except ValueError as ex:
    print("error:", ex)
# "whole_tiles": M and N multiples of the entry's tile (true), or not
# (false).
WHOLE = [entry("whole", 128, 256, {"whole_tiles": True}),
         entry("ragged", 64, 64, {"whole_tiles": False}),
         entry("default", 128, 256, {})]
for m, n in ((4096, 4096), (4096, 4000), (4100, 4096), (4096, 4032), (0, 0)):
    print(f"whole_tiles {m}x{n}:", WHOLE[choose_entry(WHOLE, m, n, 4096)]["name"])


def slices(e, m, n, k, batch=1):
    print(f"slices {e['name']} {m}x{n}x{k} batch {batch}: {split_slices(e, m, n, k, batch)}")


SPLIT = FAMILY[0]
slices(SPLIT, 64, 64, 1 << 20)   # 1 block: min(16, floor(32 / 1))
slices(SPLIT, 128, 128, 1 << 20)  # 4 blocks: floor(32 / 4) = 8
slices(SPLIT, 192, 128, 1 << 20)  # 6 blocks: floor(32 / 6) = 5
slices(SPLIT, 64, 64, 1 << 20, 3)  # 3 blocks: floor(32 / 3) = 10
slices(SPLIT, 64, 64, 1000)      # ceil(1000 / 256) = 4
slices(SPLIT, 64, 64, 1025)      # ceil(1025 / 256) = 5
slices(SPLIT, 64, 64, 100)       # ceil(100 / 256) = 1
slices(SPLIT, 64, 64, 0)         # at least 1
slices(SPLIT, 2048, 2048, 1 << 20)  # 1024 blocks: floor(32 / 1024) = 0, at least 1
NOFILL = entry("nofill", 64, 64, None, {"max": 8, "fill_blocks": 0, "min_k_per_slice": 64})
slices(NOFILL, 4096, 4096, 1 << 20)  # F = 0: no block limit, max
slices(NOFILL, 4096, 4096, 300)  # ceil(300 / 64) = 5
slices(FAMILY[-1], 64, 64, 1 << 20)  # not split-K: 1
