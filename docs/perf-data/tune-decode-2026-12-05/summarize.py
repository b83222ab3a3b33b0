#!/usr/bin/env python3
"""The tuner's decode-suite measurements beside the dispatch's own pick.

For each shape of run1/measurements.json.gz: the member the f16 family's
rules choose (python/gemm_mlir/dispatch.py on the manifests of
`CHIP=sm_90a ./scripts/gpu_artifacts.sh every`, at the commit the run
measured), its time among the measurements (the same config but for the K
split, with the slices its policy runs), the fastest
measured config and cuBLAS. Prints a Markdown table.
Usage (repository root): PYTHONPATH=python python3 THIS [ARTIFACTS/every]"""
import gzip
import json
import os
import sys
from collections import defaultdict

from gemm_mlir.dispatch import choose_entry, split_slices
from gemm_mlir.tuner.space import parse_config

here = os.path.dirname(os.path.abspath(__file__))
art = sys.argv[1] if len(sys.argv) > 1 else "artifacts/every"
with gzip.open(os.path.join(here, "run1", "measurements.json.gz")) as f:
    rows = json.load(f)["rows"]


def family(layout):
    with open(os.path.join(art, f"g_f16_{layout}_none", "manifest.json")) as f:
        return json.load(f)["kernels"]


def kernel_key(config):
    """A JSON config without its K split: the fields that make a kernel."""
    return {k: v for k, v in config.items() if k not in ("split_k", "reduction")}


def describe(c):
    if not c:
        return "the default (no config)"
    text = f"{c['kind']} {'x'.join(map(str, c['block']))}"
    if c.get("split_k"):
        text += f" split {c['split_k']}"
    return text + (f" {c['load']}" if c.get("load") else "")


shapes = defaultdict(list)
for r in rows:
    shapes[(r["class"], r["m"], r["n"], r["k"])].append(r)
families = {layout: family(layout) for layout in ("tn", "nn")}
print("| layout | shape | A/B aligned | rule (dispatch) | its time (us) "
      "| fastest measured (us) | its config | cuBLAS (us) |")
print("|---|---|---|---|---|---|---|---|")
for (cls, m, n, k), rs in shapes.items():
    layout = cls.split("_")[1]
    entries = families[layout]
    # f16 rows: 16 bytes are 8 elements; A's rows are K long in tn and nn,
    # B's K long in tn and N long in nn.
    a_aligned = k % 8 == 0
    b_aligned = (k if layout == "tn" else n) % 8 == 0
    e = entries[choose_entry(entries, m, n, k, 1, a_aligned, b_aligned)]
    slices = split_slices(e, m, n, k, 1)
    kernel = kernel_key(parse_config(e["config"]))
    # (The tuner's "default" row, the op without a config, has none.)
    same = [r for r in rs if r["config"] and kernel_key(r["config"]) == kernel
            and r["config"].get("split_k", 1) == slices]
    best = min(rs, key=lambda r: r["ms"])
    its = f"{min(r['ms'] for r in same) * 1e3:.1f}" if same else "?"
    rule = e.get("rule") + (f" ({slices} slices)" if slices > 1 else "")
    print(f"| {layout} | {m}x{n}x{k} | {int(a_aligned)}/{int(b_aligned)} "
          f"| {rule} | {its} | {best['ms'] * 1e3:.1f} | {describe(best['config'])} "
          f"| {best['cublas_ms'] * 1e3:.1f} |")
