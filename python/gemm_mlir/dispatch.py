"""Runtime dispatch of kernel families, as manifest.json describes it.

gemm-opt lowers one gemm.matmul to a family of kernel entries (the same
"function" and "gemm" index, in rule order). Each entry's "when" holds
optional inclusive bounds on M, N, K, batch and its own block count
(blocks = batch * ceil(M / tile_m) * ceil(N / tile_n) with the entry's grid
tiles), and optional conditions "a_aligned" / "b_aligned": true or false,
whether A (B) must allow 16-byte copies (a 16-byte aligned first element,
an inner stride of 1, outer strides of whole 16 bytes); the first entry
whose bounds all hold runs, and the last entry's "when" is empty. An
optional "wave_fit" {"wave", "versus": [tile_m, tile_n], "weight",
"versus_weight"} holds when weight * ceil(blocks / wave) <= versus_weight *
ceil(versus_blocks / wave), versus_blocks counted in the versus tiles. An
optional "whole_tiles": true or false holds when whether M and N are
multiples of the entry's tile_m and tile_n is that value. A split-K entry ("split_k") runs `split_slices` K slices
into a workspace and a reduction kernel.

These are the rules of include/gemm/Tuning/Dispatch.h (chooseRule,
SplitPolicy::slices) in plain Python, with no GPU imports, so that they are
testable on any machine (test/Python/dispatch.test).
"""

# The sizes a "when" may bound, each with a _min and a _max key.
BOUNDED = ("m", "n", "k", "batch", "blocks")
# The operands a "when" may condition on, each with an _aligned key.
ALIGNED = ("a", "b")
WHEN_KEYS = (frozenset(f"{s}_{b}" for s in BOUNDED for b in ("min", "max"))
             | frozenset(f"{o}_aligned" for o in ALIGNED) | {"wave_fit", "whole_tiles"})
WAVE_FIT_KEYS = frozenset(("wave", "versus", "weight", "versus_weight"))


INT64_MAX = (1 << 63) - 1


def ceil_div(a, b):
    return -(-a // b)


def count_blocks(m, n, batch, tile_m, tile_n):
    """batch * ceil(m / tile_m) * ceil(n / tile_n), negative sizes as 0."""
    return (max(batch, 0) * ceil_div(max(m, 0), tile_m)
            * ceil_div(max(n, 0), tile_n))


def entry_blocks(entry, m, n, batch):
    """The block count of `entry`'s GEMM grid (its own tiles)."""
    grid = entry["grid"]
    return count_blocks(m, n, batch, grid["tile_m"], grid["tile_n"])


def when_holds(entry, m, n, k, batch, a_aligned=True, b_aligned=True):
    """True if every bound of entry["when"] holds (no "when": always) for
    these sizes and an A and B that allow 16-byte copies or not."""
    when = entry.get("when", {})
    unknown = set(when) - WHEN_KEYS
    if unknown:
        raise ValueError(f"{entry.get('name')}: unknown 'when' bounds {sorted(unknown)}")
    for key, aligned in (("a_aligned", a_aligned), ("b_aligned", b_aligned)):
        if key in when and bool(when[key]) != bool(aligned):
            return False
    if "whole_tiles" in when:
        grid = entry["grid"]
        whole = m % grid["tile_m"] == 0 and n % grid["tile_n"] == 0
        if bool(when["whole_tiles"]) != whole:
            return False
    sizes = {"m": m, "n": n, "k": k, "batch": batch}
    if "blocks_min" in when or "blocks_max" in when:
        sizes["blocks"] = entry_blocks(entry, m, n, batch)
    for s, v in sizes.items():
        lo, hi = when.get(s + "_min"), when.get(s + "_max")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            return False
    fit = when.get("wave_fit")
    if fit is not None:
        def positive(v):
            return isinstance(v, int) and not isinstance(v, bool) and v >= 1
        if not isinstance(fit, dict) or set(fit) != WAVE_FIT_KEYS:
            raise ValueError(f"{entry.get('name')}: 'wave_fit' needs exactly {sorted(WAVE_FIT_KEYS)}")
        versus = fit["versus"]
        if (not all(positive(fit[k]) for k in ("wave", "weight", "versus_weight"))
                or not isinstance(versus, list) or len(versus) != 2
                or not all(positive(v) for v in versus)):
            raise ValueError(f"{entry.get('name')}: 'wave_fit' needs positive integers "
                             f"and two positive tile sizes, got {fit}")
        # As the C runtime counts: block counts and weighted waves saturate
        # at INT64_MAX (sizes no memory holds, but any runtime must agree).
        def weigh(blocks, weight):
            return min(ceil_div(min(blocks, INT64_MAX), fit["wave"]) * weight, INT64_MAX)
        versus = count_blocks(m, n, batch, *fit["versus"])
        if (weigh(entry_blocks(entry, m, n, batch), fit["weight"])
                > weigh(versus, fit["versus_weight"])):
            return False
    return True


def choose_entry(entries, m, n, k, batch=1, a_aligned=True, b_aligned=True):
    """The index in `entries` (one family, manifest order) of the entry that
    runs for these sizes and operands: the first whose "when" holds. As
    gemm-opt's host code does, the last entry runs when none holds (its
    "when" is empty in a well-formed manifest, so that does not happen)."""
    if not entries:
        raise ValueError("choose_entry: empty kernel family")
    for i, e in enumerate(entries):
        if when_holds(e, m, n, k, batch, a_aligned, b_aligned):
            return i
    return len(entries) - 1


def policy_slices(split, k, blocks, fill_blocks):
    """The "split_k" record's slice rule for `blocks` blocks filling up to
    `fill_blocks` (0: no bound): s = max; min(s, floor(fill_blocks /
    blocks)) if fill_blocks > 0; min(s, ceil(K / min_k_per_slice)); with
    "cluster_capacity", min(s, the number of cluster sizes whose capacity
    holds the blocks); at least 1."""
    s = split["max"]
    if fill_blocks > 0:
        s = min(s, fill_blocks // max(blocks, 1))
    s = min(s, ceil_div(max(k, 0), max(split["min_k_per_slice"], 1)))
    if split.get("cluster_capacity"):
        s = min(s, sum(1 for c in split["cluster_capacity"] if blocks <= c))
    return max(s, 1)


def fixup_split(entry, m, n, k, batch=1, sms=None):
    """A "reduction": "fixup" entry's (tail, slices) on a GPU of `sms` SMs
    (default the manifest's "sms"): tail = blocks mod (sms * blocks_per_sm)
    tiles of the last partial wave run in `slices` K slices each (the slice
    rule over the tail's tiles filling the wave; 1 when tail = 0), the
    others whole: grid.x = blocks - tail + tail * slices. One slice splits
    nothing: (0, 1)."""
    split = entry["split_k"]
    wave = max((sms or split["sms"]) * split["blocks_per_sm"], 1)
    tail = entry_blocks(entry, m, n, batch) % wave
    if tail == 0:
        return 0, 1
    s = policy_slices(split, k, tail, wave)
    return (tail, s) if s > 1 else (0, 1)


def split_slices(entry, m, n, k, batch=1, sms=None):
    """The K slices `entry` runs for these sizes (1 without "split_k"): the
    slice rule (policy_slices) over its blocks with its fill_blocks; a
    "fixup" entry: its tail tiles' slices (fixup_split)."""
    split = entry.get("split_k")
    if not split:
        return 1
    if split.get("reduction") == "fixup":
        return fixup_split(entry, m, n, k, batch, sms)[1]
    return policy_slices(split, k, entry_blocks(entry, m, n, batch),
                         split["fill_blocks"])
