#!/usr/bin/env python3
"""GPU harness for gemm-mlir kernels (the method of docs/performance.md).

Runs where the GPU is, with only the CUDA driver, PyTorch and gemm-mlir's
runtime (libGemmRuntime and its Python module gemm_mlir._gemm_runtime,
docs/runtime.md): loads the cubins/PTX and manifest.json files that
`gemm-opt --gemm-to-ptx=output-dir=...` wrote, fills inputs with random
values (never zeros or all-ones), poisons the output, launches through the
runtime on PyTorch's current stream, checks every element against a float64
reference, and times ours and cuBLAS (through PyTorch) in the same process
on the same inputs with CUDA events after warm-up (median of many runs).
Prints a table and writes JSON.

Usage (PYTHONPATH=python:<runtime build>/python, or run
python/gemm_mlir/harness.py by path with the runtime's python/ folder on
PYTHONPATH; scripts/gpu_run.sh builds the runtime and sets it):
  python3 -m gemm_mlir.harness check ART_DIR [--shapes small|full] [--out results.json]
  python3 -m gemm_mlir.harness bench ART_DIR --out bench.json [--dtypes f8,tf32]
  python3 -m gemm_mlir.harness fused ART_DIR --out fused.json [--shape MxNxK]
  python3 -m gemm_mlir.harness breakdown ART_DIR --kernel NAME,... --shape MxNxK
  python3 -m gemm_mlir.harness every ART_DIR --out every.json [--only-class CLASS]

A manifest may give one gemm.matmul several kernels (a family, picked per
shape at run time) and split-K kernels with a reduction: the runtime picks
the member (the rules of dispatch.py), packs unaligned operands, runs the
split-K reduction, and reports which kernel ran.
"""
import argparse
import glob
import json
import math
import os
import pkgutil
import re
import sys
import time

import numpy as np
import torch

if __name__ == "__main__" and not __package__:
    # Run by path (python3 python/gemm_mlir/harness.py): import as part of the
    # package, from the directory above it (PEP 366).
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "gemm_mlir"
# The runtime's extension is built outside the source tree, into
# <build>/python/gemm_mlir/ (docs/runtime.md): let the package span every
# gemm_mlir folder on sys.path.
_package = sys.modules.get(__package__) or __import__(__package__)
_package.__path__ = pkgutil.extend_path(_package.__path__, __package__)
from . import _gemm_runtime as runtime  # noqa: E402
from .chipguard import check_chip, device_chip  # noqa: E402

DEVICE_CHIP = None

TORCH_DTYPES = {
    "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
    "f64": torch.float64, "i8": torch.int8, "i32": torch.int32,
    "f8E4M3FN": torch.float8_e4m3fn, "f8E5M2": torch.float8_e5m2,
}
# Relative Frobenius error bounds (docs/performance.md, Method); 0 means exact.
TOLERANCE = {"f16": 1e-2, "f16acc16": 1e-2, "bf16": 1e-2, "tf32": 1e-3,
             "f32": 1e-5, "f64": 1e-12, "i8": 0.0, "i8sat": 0.0, "f8": 1e-2,
             "i8simt": 0.0, "f16simt": 1e-2}


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

def runtime_args(values):
    """Launch arguments for the runtime: a tensor as (data_ptr, sizes,
    strides in elements, element type), a Python number as itself."""
    out = []
    for v in values:
        if isinstance(v, torch.Tensor):
            out.append((v.data_ptr(), tuple(v.shape), v.stride(), DTYPE_NAMES[v.dtype]))
        else:
            out.append(v)
    return out


DTYPE_NAMES = {t: n for n, t in TORCH_DTYPES.items()}


class Kernel:
    """One kernel entry of a manifest (a member of its family's Gemm): its
    launch facts for reports. Launches go through the family (Gemm.launch):
    the runtime picks the member for the sizes, packs, and runs a split-K
    member's reduction."""

    def __init__(self, entry, binary_path):
        # Refuse, loudly, a kernel built for another chip (chipguard.py); the
        # runtime refuses it too, when it loads the binary.
        global DEVICE_CHIP
        DEVICE_CHIP = DEVICE_CHIP or device_chip()
        check_chip(entry["chip"], DEVICE_CHIP,
                   "isa" if binary_path.endswith(".ptx") else "bin")
        self.entry = entry
        self.name = entry["name"]
        self.config = entry.get("config", "")
        m = re.search(r"kind = (\w+)", self.config)
        self.kind = m.group(1) if m else ""
        self.smem = int(entry["dynamic_shared_memory"])
        self.block = tuple(entry["block"])
        self.tile_m = entry["grid"]["tile_m"]
        self.tile_n = entry["grid"]["tile_n"]
        self.split = entry.get("split_k")
        self.gemm = None  # the family, set by Gemm

    def launch(self, values, m, n, k, batch=1, pack=True):
        """Launches the family on `values` (A, B, C, extras...) through the
        runtime, which runs this member for these sizes. When the manifest
        records a packing (lib/Conversion/KernelCommon/Pack.cpp), A and B
        are first copied into aligned, zero-padded workspaces, as the host
        code gemm-opt emits does: always, or when an operand is not 16-byte
        aligned. pack=False launches the GEMM kernel on the operands as they
        are (its element-copy path), which the "unaligned" mode allows. A
        split-K entry writes its K slices' partial sums to a workspace
        (grid.y = slices) that its reduction kernel adds up and runs the
        epilogue on, or, with "reduction": "cluster", adds them inside
        clusters of (1, slices, 1) blocks."""
        ran = self.gemm.launch(values, m, n, k, batch, pack)
        if ran is not self:
            raise RuntimeError(f"the runtime ran {ran.name} for {m}x{n}x{k} "
                               f"(batch {batch}), not {self.name}")

    def slices(self, m, n, k, batch=1):
        """The K slices launch() runs (1 unless split-K), for operands of
        the alignment the family's last select() or launch() saw."""
        return self.gemm.fn.choose(m, n, k, batch, *self.gemm.aligned)[1]

    def report(self, m, n, k, batch=1):
        """What ran, for result rows: the kernel, its config, and its K
        slices (None when not split-K)."""
        return {"launched": self.name, "config": self.config,
                "slices": self.slices(m, n, k, batch) if self.split else None}


class Gemm:
    """The kernel family of one gemm.matmul: its manifest entries in rule
    order and the runtime's Function for it. launch() lets the runtime pick
    the member for the sizes (dispatch.py's rules) and launch it on PyTorch's
    current stream. `selected` is the member the last select() or launch()
    picked (at first the default, the last member); entry and config
    report on it."""

    def __init__(self, function, kernels, meta, fn):
        self.function = function
        self.kernels = kernels
        self.meta = meta
        self.fn = fn
        self.entries = [k.entry for k in kernels]
        self.by_name = {k.name: k for k in kernels}
        for k in kernels:
            k.gemm = self
        self.selected = kernels[-1]
        # Whether the last select()/launch()'s A and B allow 16-byte copies
        # (members may be bounded on it: docs/dispatch.md).
        self.aligned = (True, True)

    def select(self, m, n, k, batch=1, aligned=(True, True)):
        """The member that runs for these sizes on an A and B that allow
        16-byte copies or not (`aligned`, e.g. from copies_ok())."""
        self.aligned = tuple(aligned)
        self.selected = self.by_name[self.fn.choose(m, n, k, batch, *self.aligned)[0]]
        return self.selected

    def select_for(self, a, b, m, n, k, batch=1):
        """select() for the operands a and b themselves."""
        return self.select(m, n, k, batch, (copies_ok(a), copies_ok(b)))

    def launch(self, values, m, n, k, batch=1, pack=True):
        """Launches (packing, GEMM, split-K reduction) through the runtime,
        which infers M, N, K and the batch from the operands; returns the
        Kernel that ran."""
        name = self.fn.launch(runtime_args(values),
                              torch.cuda.current_stream().cuda_stream, pack)
        self.aligned = (copies_ok(values[0]), copies_ok(values[1]))
        self.selected = self.by_name[name]
        return self.selected

    def plan(self, values, pack=True):
        """What launch(values) does (the runtime's plan: kernel, slices,
        pack_a/pack_b, workspace_bytes, launches), without launching."""
        return self.fn.plan(runtime_args(values), pack)

    @property
    def entry(self):
        return self.selected.entry

    @property
    def config(self):
        return self.selected.config


def load_kernels(art_dir):
    """Returns {function name: Gemm} for every manifest under art_dir, each
    folder loaded by the runtime onto the current device: the entries of one
    ("function", "gemm") form a family, in manifest order. Entries of older
    manifests (no "function"/"gemm") are one-entry families named after the
    kernel (<function>_gemm)."""
    torch.cuda.init()  # the runtime loads into PyTorch's (primary) context
    metas = {}
    cases = os.path.join(art_dir, "cases.json")
    if os.path.exists(cases):
        metas = {c["name"]: c for c in json.load(open(cases))}
    gemms = {}
    for manifest_path in sorted(glob.glob(os.path.join(art_dir, "**", "manifest.json"),
                                          recursive=True)):
        d = os.path.dirname(manifest_path)
        manifest = json.load(open(manifest_path))
        objects = {o["module"]: o for o in manifest["objects"]}
        families = {}  # (function, gemm index) -> [Kernel], in manifest order
        for e in manifest["kernels"]:
            path = os.path.join(d, objects[e["module"]]["file"])
            cubin = os.path.splitext(path)[0] + ".cubin"
            if os.path.exists(cubin):
                path = cubin
            func = e.get("function") or e["name"].rsplit("_gemm", 1)[0]
            key = (func, e.get("gemm", 0))
            families.setdefault(key, []).append(Kernel(e, path))
        funcs = [f for f, _ in families]
        for (func, _), kernels in families.items():
            if funcs.count(func) > 1:
                raise ValueError(f"{manifest_path}: @{func} holds more than one "
                                 "gemm.matmul; the harness addresses one per function")
        module = runtime.Module(d)
        for (func, _), kernels in families.items():
            gemms[func] = Gemm(func, kernels, dict(metas.get(func, {})),
                               module.function(func))
    return gemms


# --------------------------------------------------------------------------
# Inputs and reference
# --------------------------------------------------------------------------

def rand(shape, dtype, gen):
    if dtype == "i8":
        return torch.randint(-128, 128, shape, dtype=torch.int8, device="cuda",
                             generator=gen)
    if dtype == "i32":
        return torch.randint(-1000, 1000, shape, dtype=torch.int32, device="cuda",
                             generator=gen)
    t = torch.randn(shape, dtype=torch.float64, device="cuda", generator=gen)
    if dtype.startswith("f8"):  # randn in f8 (|x| < 448 fits e4m3), via f32
        return t.float().to(TORCH_DTYPES[dtype])
    return t.to(TORCH_DTYPES[dtype])


def make_operand(rows, cols, dtype, gen, pad=0):
    """A rows x cols operand; pad > 0 makes it a view with a larger leading
    dimension (strided memref) to exercise the unaligned/strided paths."""
    if pad:
        return rand((rows, cols + pad), dtype, gen)[:, :cols]
    return rand((rows, cols), dtype, gen)


def tolerance(meta):
    """Exact for integer outputs; f16 rounding for i8 GEMMs scaled to f16."""
    if meta["c_type"] in ("i8", "i32"):
        return 0.0
    if meta["dtype"] in ("i8", "i8sat", "i8simt"):
        return TOLERANCE["f16"]
    return TOLERANCE[meta["dtype"]]


def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


def reference(meta, acc, c0, extras):
    e = meta["epilogue"]
    if e == "none":
        out = acc
    elif e == "linear":
        out = extras[0] * acc + extras[1] * c0
    elif e == "bias_col_relu":
        out = torch.clamp(acc + extras[0].double()[None, :], min=0)
    elif e == "bias_row_gelu_tanh":
        out = gelu_tanh(acc + extras[0].double()[:, None])
    elif e == "gelu_erf":
        out = 0.5 * acc * (1 + torch.erf(acc / math.sqrt(2)))
    elif e == "silu":
        out = acc / (1 + torch.exp(-acc))
    elif e == "clamp":
        out = torch.clamp(acc, min=extras[0], max=extras[1])
    elif e == "residual":
        out = acc + extras[0].double()
    elif e == "scale_f16":
        out = acc * extras[0]
    elif e in ("bias_silu_residual", "bias_silu_residual_afn", "bias_silu_residual_f64"):
        t = acc + extras[0].double()[None, :]
        out = t / (1 + torch.exp(-t)) + extras[1].double()
    elif e == "bias_gelu_tanh":
        out = gelu_tanh(acc + extras[0].double()[None, :])
    elif e in ("divide", "divide_f64"):
        out = c0 / extras[0].double()
    else:
        raise ValueError(e)
    if meta["c_type"] == "i8":
        out = torch.clamp(out, -128, 127)
    return out


# Unit roundoffs: of the operands as the instruction sees them (0 when they
# are exact in their own type), of the accumulation, of the output type.
U_IN = {"tf32": 2.0 ** -11}
# wgmma reads f32 operands from shared memory as tf32 by dropping the low 13
# mantissa bits (truncation, twice the rounding error); mma.sync fragments are
# rounded to nearest (cvt.rna.tf32.f32) first.
U_IN_TRUNCATED = {"tf32": 2.0 ** -10}
# fp8 wgmma accumulates with fewer mantissa bits than f32 (about 14 on
# Hopper, as the DeepSeek-V3 report measured; cuBLAS shares it): 2^-13.
U_ACC = {"f16acc16": 2.0 ** -11, "f64": 2.0 ** -53, "f8": 2.0 ** -13}
U_OUT = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8, "f32": 2.0 ** -24, "f64": 2.0 ** -53}
FEW_ELEMENTS = 64


def rounding_bound(meta, kk, mag, ref):
    """|out - ref| <= this holds element-wise for any kernel that rounds as
    its types say: operand rounding (2 u_in) and a K-term accumulation
    (K u_acc) of |A||B|, through an epilogue with Lipschitz constant <= 1.5
    (alpha, gelu, silu, relu, clamp) computed in the accumulator's float
    type, then rounding to C's type."""
    u_in = (U_IN_TRUNCATED if meta.get("kind") == "wgmma" else U_IN).get(meta["dtype"], 0.0)
    u_acc = U_ACC.get(meta["dtype"], 2.0 ** -24)
    u_out = U_OUT.get(meta["c_type"], 0.0)
    u_ep = 2.0 ** -53 if meta["dtype"] == "f64" else 2.0 ** -24  # epilogue math
    return (1.5 * (2 * u_in + kk * u_acc) * mag + u_out * ref.abs()
            + 4 * u_ep * (ref.abs() + mag) + 1e-30)


def a_is_km(layout):
    """The layout table (docs/dialect.md): A is K x M for nt and tt."""
    return layout in ("nt", "tt")


def b_is_nk(layout):
    """B is N x K for tn and tt."""
    return layout in ("tn", "tt")


def copies_ok(t):
    """Whether t allows the kernels' 16-byte copies: a 16-byte aligned first
    element, an inner stride of 1 and outer strides of whole 16 bytes (the
    test of the runtime and of gemm-opt's host code)."""
    per = max(16 // t.element_size(), 1)
    return (t.data_ptr() % 16 == 0 and t.stride(-1) == 1
            and all(st % per == 0 for st in t.stride()[:-1]))


def inputs_aligned(layout, m, n, kk, ab, pad=0):
    """copies_ok of make_inputs' (or make_batched_inputs') A and B, without
    making them: their rows are contiguous, pad elements apart."""
    per = max(16 // torch.empty(0, dtype=TORCH_DTYPES[ab]).element_size(), 1)
    a_cols = m if a_is_km(layout) else kk
    b_cols = kk if b_is_nk(layout) else n
    return ((a_cols + pad) % per == 0, (b_cols + pad) % per == 0)


def make_inputs(layout, m, n, kk, ab, gen, pad=0):
    a = make_operand(kk, m, ab, gen, pad) if a_is_km(layout) else make_operand(m, kk, ab, gen, pad)
    b = make_operand(n, kk, ab, gen, pad) if b_is_nk(layout) else make_operand(kk, n, ab, gen, pad)
    a_mk = a.t() if a_is_km(layout) else a
    b_kn = b.t() if b_is_nk(layout) else b
    return a, b, a_mk, b_kn


def make_batched_inputs(layout, batch, m, n, kk, ab, gen):
    """make_inputs with rank-3 operands, the batch outermost."""
    a = rand((batch, kk, m) if a_is_km(layout) else (batch, m, kk), ab, gen)
    b = rand((batch, n, kk) if b_is_nk(layout) else (batch, kk, n), ab, gen)
    a_mk = a.transpose(1, 2) if a_is_km(layout) else a
    b_kn = b.transpose(1, 2) if b_is_nk(layout) else b
    return a, b, a_mk, b_kn


# The batch of check's batched cases.
CHECK_BATCH = 3


def run_batched_case(g, m, n, kk, gen, batch=CHECK_BATCH, pack=True):
    """Rank-3 operands: one launch covers `batch` independent GEMMs."""
    meta = g.meta
    ab, ct, layout = meta["a_type"], meta["c_type"], meta["layout"]
    a, b, a_mk, b_kn = make_batched_inputs(layout, batch, m, n, kk, ab, gen)
    c = poisoned((batch, m, n), ct)
    g.launch([a, b, c], m, n, kk, batch, pack=pack)
    torch.cuda.synchronize()
    ref = torch.bmm(a_mk.double(), b_kn.double())
    out = c.double()
    if torch.isnan(out).any():
        return float("inf"), int(torch.isnan(out).sum())
    return (torch.linalg.norm(out - ref) / torch.linalg.norm(ref)).item(), 0


def poisoned(shape, ct):
    """An output of type ct whose every element fails a check if left
    unwritten: NaN, or -77 for integers."""
    c = torch.empty(shape, dtype=TORCH_DTYPES[ct], device="cuda")
    return c.fill_(-77 if ct in ("i8", "i32") else float("nan"))


def run_case(g, m, n, kk, gen, pad=0, pack=True):
    meta = g.meta
    if meta.get("batched"):
        return run_batched_case(g, m, n, kk, gen, pack=pack)
    ab, ct, layout = meta["a_type"], meta["c_type"], meta["layout"]
    a, b, a_mk, b_kn = make_inputs(layout, m, n, kk, ab, gen, pad)
    kern = g.select_for(a, b, m, n, kk)
    reads_c = kern.entry["reads_c"]
    # Poisoned unless the kernel reads C: an element left unwritten fails.
    c = rand((m, n), ct, gen) if reads_c else poisoned((m, n), ct)
    c0 = c.double().clone() if reads_c else torch.zeros_like(c, dtype=torch.float64)
    extras, extra_vals = [], []
    for x in meta["extras"]:
        if x["broadcast"] == "scalar":
            v = float(torch.empty(1).uniform_(0.5, 1.5, generator=torch.Generator().manual_seed(len(extras))))
            if meta["epilogue"] == "clamp":
                v = -0.5 if not extras else 0.75
            if meta["epilogue"] == "scale_f16":
                v /= 64.0 * kk  # keep |acc * scale| inside f16's range
            extras.append(v); extra_vals.append(v)
        else:
            et = x["type"].split("x")[-1].rstrip(">")
            shape = {"col": (n,), "row": (m,), "full": (m, n)}[x["broadcast"]]
            t = rand(shape, et, gen)
            extras.append(t); extra_vals.append(t)
    if meta["epilogue"] == "linear" and pad:
        # beta == 0: C must not be read (BLAS convention), so a NaN-poisoned
        # C must not leak into the result.
        extras[1] = extra_vals[1] = 0.0
        c.fill_(float("nan"))
        c0 = torch.zeros_like(c0)
    torch.cuda.synchronize()
    g.launch([a, b, c] + extras, m, n, kk, pack=pack)
    torch.cuda.synchronize()
    acc = a_mk.double() @ b_kn.double()
    ref = reference(meta, acc, c0, extra_vals)
    out = c.double()
    if torch.isnan(out).any():
        return float("inf"), int(torch.isnan(out).sum())
    if tolerance(meta) == 0.0:
        bad = int((out != ref).sum())
        return (0.0 if bad == 0 else float("inf")), bad
    # Relative to the largest of the output's norm, the accumulator's norm and
    # the typical magnitude of a K-term random dot product,
    # || |A| |B| || / sqrt(K): a clamp, or a tiny output whose dot products
    # happen to cancel (1x1xK), otherwise turns the GEMM's own rounding into
    # an inflated ratio. For random data all three agree.
    mag = (a_mk.double().abs() @ b_kn.double().abs())
    denom = max(torch.linalg.norm(ref).item(), torch.linalg.norm(acc).item(),
                torch.linalg.norm(mag).item() / math.sqrt(kk)) or 1.0
    err = torch.linalg.norm(out - ref).item() / denom
    if out.numel() < FEW_ELEMENTS:
        # A handful of elements makes the norm ratio a handful of samples of
        # the rounding error (tf32 1x1x4096: 5e-4..1.1e-3 over seeds against
        # 1e-3); there the element-wise worst-case rounding bound decides.
        bound = rounding_bound(dict(meta, kind=kern.kind), kk, mag, ref)
        return err, 0, bool(((out - ref).abs() <= bound).all())
    return err, 0


SMALL_SHAPES = [(1, 1, 1), (1, 64, 37), (17, 33, 65), (64, 1, 16), (100, 100, 1),
                (128, 128, 128), (129, 127, 257), (255, 257, 33), (1, 256, 300),
                (300, 1, 300), (513, 511, 64), (1000, 1000, 1000)]
FULL_SHAPES = SMALL_SHAPES + [
    (2, 2, 2), (3, 5, 7), (7, 9, 11), (16, 16, 16), (31, 31, 31), (32, 64, 8),
    (64, 64, 64), (96, 160, 72), (127, 129, 131), (192, 320, 40), (256, 256, 256),
    (333, 444, 555), (512, 512, 512), (640, 1280, 320), (777, 333, 1024),
    (1024, 1024, 1024), (1, 4096, 4096), (4096, 1, 4096), (4096, 4096, 1),
    (2048, 2048, 2048), (4099, 4097, 4095), (4096, 4096, 4096), (8, 8192, 1024),
    (1536, 8, 2048), (1023, 1025, 1027), (16, 8192, 8192), (2049, 2047, 2051),
    (1, 1, 4096), (48, 80, 20000), (5, 3000, 3000), (333, 17, 9000),
    # decode and decode-32 (unsplit and split), tiny-k, short-k, short-m and
    # narrow-n members of the sm_90a family
    (3, 9000, 1500), (13, 1000, 777), (20, 9000, 1500), (29, 1000, 1100),
    (1000, 999, 3), (2000, 1500, 16),
    (40, 20000, 200), (20000, 30, 200), (3001, 2999, 100),
    # the cluster-reduced decode members (decode, decode-32, decode-64) and
    # decode-64-split
    (7, 6000, 2999), (23, 7000, 1700), (45, 3000, 1700), (50, 700, 3000),
    # one operand misaligned, the other not (packed on its own where the
    # layout allows): nn A (K odd), tt B; nn A, tt B; nt and tt A
    (8, 11008, 4095), (1000, 2048, 1001), (1001, 1000, 2048),
    # gemv (M = 1, N >= 1056): a partial last iteration, ragged N, and K
    # misaligned (packed; unpacked in DIRECT_SHAPES)
    (1, 3001, 1000), (1, 20000, 520), (1, 1057, 257),
    # the wide decode members (33 to 256 rows): decode-128x128,
    # decode-64x128 (two ragged tiles of rows), decode-64x64-split (long K),
    # decode-64x64, decode-192x128 (K from 512), decode-64x128 on 129-256
    # rows
    (100, 9000, 1100), (77, 5000, 2000), (37, 2500, 8500), (90, 2100, 1500),
    (150, 9000, 700), (129, 8500, 520), (200, 3001, 600),
    # mid-64x64 (past 64 rows, ragged), mid-64x128 (past 256 rows),
    # split-k-64x64 (3 slices of a ragged K), half-n (N <= 128 past a wave)
    (181, 1048, 2513), (524, 1105, 534), (447, 219, 3058), (20000, 100, 300),
    # 3 to 16 rows with an odd N (nn/nt: B's rows rule out 16-byte copies):
    # the gemv-mma-n-unaligned members, 16 columns (long K), 32, 64; 16
    # rows in 16 and 32 columns (ragged M, N and K; 9 rows in the 32-column
    # tile of two loads a lane)
    (5, 3001, 9000), (8, 8417, 300), (4, 20001, 256), (12, 3001, 777),
    (16, 7001, 513), (9, 9999, 1000),
    # 3 to 8 rows with an odd K and N of whole 16 bytes (A's rows alone
    # misaligned): gemv-mma-n-unaligned-a in 16, 32 and 64 columns
    (6, 3000, 1999), (7, 10000, 1023), (4, 30000, 1001),
    # wave-fit's 128 x 192 tiles (2-3 waves of them where 128 x 256 tiles
    # leave the last wave short), ragged N and K; 4099x4097x4095 above too
    (2304, 2300, 777), (3000, 3070, 300)]
# Shapes also checked without packing (the kernel's element-copy path).
DIRECT_SHAPES = {(17, 33, 65), (255, 257, 33), (1023, 1025, 1027), (1, 1, 1),
                 (1, 1057, 257),
                 (13, 1000, 777), (29, 1000, 1100), (3001, 2999, 100),
                 (3, 9000, 1500), (7, 6000, 2999), (45, 3000, 1700),
                 (100, 9000, 1100), (3000, 3070, 300)}


def cmd_check(args):
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(1234)
    results, failures = [], 0
    for name, g in sorted(kernels.items()):
        if args.only and args.only not in name:
            continue
        shapes = FULL_SHAPES if args.shapes == "full" else SMALL_SHAPES
        worst, bad_shapes, ran = 0.0, [], set()
        t0 = time.time()
        for (m, n, kk) in shapes:
            if g.meta["dtype"] == "f16acc16" and kk > 1024:
                continue  # f16 accumulation over long K exceeds 1e-2 by design
            pads = [0, 3] if (m, n, kk) in ((129, 127, 257), (513, 511, 64)) else [0]
            batch = CHECK_BATCH if g.meta.get("batched") else 1
            if batch > 1:
                pads = [0]
            # Unaligned operands are packed by default; the GEMM kernel's own
            # element-copy path (pack=False) is checked on the strided views
            # and a few ragged shapes, where the member packs.
            runs = []
            for pad in pads:
                kern = g.select(m, n, kk, batch,
                                inputs_aligned(g.meta["layout"], m, n, kk, g.meta["a_type"], pad))
                runs.append((pad, True))
                if "pack" in kern.entry and (pad or (m, n, kk) in DIRECT_SHAPES):
                    runs.append((pad, False))
            for pad, pack in runs:
                err, bad, *within = run_case(g, m, n, kk, gen, pad, pack)
                kern = g.selected  # the member that ran
                ran.add(kern.name)
                worst = max(worst, err)
                tol = tolerance(g.meta)
                ok = within[0] if within else (err <= tol if tol else bad == 0)
                results.append({"kernel": name, "m": m, "n": n, "k": kk, "pad": pad,
                                "pack": pack, "error": err, "bad": bad, "ok": ok,
                                **kern.report(m, n, kk, batch)})
                if not ok:
                    bad_shapes.append(f"{m}x{n}x{kk}{'+pad' if pad else ''}"
                                      f"{'' if pack else '+direct'}:{err:.2e}/{bad}"
                                      f"@{kern.name}")
        failures += bool(bad_shapes)
        status = "ok  " if not bad_shapes else "FAIL"
        print(f"{status} {name:40s} worst {worst:.2e} ({len(shapes)} shapes, "
              f"{len(ran)}/{len(g.kernels)} kernels, {time.time() - t0:.1f}s) "
              f"{' '.join(bad_shapes[:4])}", flush=True)
    if args.out:
        json.dump({"results": results, "failures": failures}, open(args.out, "w"), indent=1)
    print(f"{len(results)} checks, {failures} failing kernels")
    return 1 if failures else 0


# --------------------------------------------------------------------------
# Benchmark
# --------------------------------------------------------------------------

def save_results(path, rows, **extra):
    """Writes a command's rows to `path` (JSON) with the GPU, PyTorch's
    version and the date; nothing without a path."""
    if not path:
        return
    info = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "date": time.strftime("%Y-%m-%d"), **extra, "rows": rows}
    json.dump(info, open(path, "w"), indent=1)


def time_fn(fn, reps):
    """Median GPU time (ms) of the work `fn` enqueues. Each timed call sits
    behind a sleep kernel long enough for the host to enqueue all of it, so
    the events bracket the GPU work alone: the host's launch latency (Python
    and the runtime here, C++ in cuBLAS) would otherwise be timed whenever the GPU
    work is shorter than it. Ours and cuBLAS are timed the same way; the
    host cost per call is a separate measurement. (The runtime launches on
    PyTorch's current stream, so the sleep orders everything.)"""
    return time_in_turns({"fn": fn}, reps, min_sleep_s=20e-6)["fn"]


def time_in_turns(calls, reps, warm_s=0.0, min_sleep_s=40e-6):
    """Median GPU time (ms) of each of `calls` (name -> fn), timed in turns:
    round r times every call once (each behind a sleep kernel, as time_fn
    describes), the order rotating by one each round, so that no call always
    runs on a GPU warmer than the others (timing one call's reps in a row
    and then the next's charges the clock's drift over a long row to the
    later one: an H100 at its 700 W cap runs at ~1350 MHz instead of 1980).
    warm_s first runs every call in turn, back to back, for that long (the
    clock and temperature of sustained load)."""
    order = list(calls)
    for fn in calls.values():
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    # Host time of one call, to size the sleep: 2x the slowest, at least
    # min_sleep_s, assuming a clock of at most 2 GHz (H200: 1.98 GHz).
    host_s = 0.0
    for fn in calls.values():
        t0 = time.perf_counter()
        for _ in range(3):
            fn()
        host_s = max(host_s, (time.perf_counter() - t0) / 3)
    torch.cuda.synchronize()
    t_end = time.perf_counter() + warm_s
    while time.perf_counter() < t_end:
        for fn in calls.values():
            fn()
        torch.cuda.synchronize()
    cycles = int(max(2 * host_s, min_sleep_s) * 2e9)
    times = {k: [] for k in order}
    for r in range(reps):
        for k in order[r % len(order):] + order[:r % len(order)]:
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda._sleep(cycles)
            s.record(); calls[k](); e.record(); e.synchronize()
            times[k].append(s.elapsed_time(e))
    return {k: float(np.median(v)) for k, v in times.items()}


BENCH = [
    ("f16", "nn", (4096, 4096, 4096)), ("f16", "tn", (4096, 4096, 4096)),
    ("f16", "nn", (8192, 8192, 8192)), ("f16", "tn", (8192, 8192, 8192)),
    ("bf16", "tn", (4096, 4096, 4096)), ("bf16", "tn", (8192, 8192, 8192)),
    ("bf16", "nn", (4096, 4096, 4096)),
    ("f16", "nn", (4099, 4097, 4095)), ("f16", "tn", (4099, 4097, 4095)),
    ("f16", "nt", (4096, 4096, 4096)), ("f16", "tt", (4096, 4096, 4096)),
    ("f16", "tn", (2048, 2048, 2048)), ("f16", "tn", (1, 4096, 4096)),
    ("f16", "tn", (16, 8192, 8192)),
    ("i8", "tn", (4096, 4096, 4096)), ("tf32", "tn", (4096, 4096, 4096)),
    ("f8", "tn", (4096, 4096, 4096)), ("f8", "tn", (8192, 8192, 8192)),
    ("tf32", "nn", (4096, 4096, 4096)),
    # Every layout of the types wgmma reads K-major only (their MN-major
    # operands copied transposed first: the `transpose` set).
    ("tf32", "nt", (4096, 4096, 4096)), ("tf32", "tt", (4096, 4096, 4096)),
    ("tf32", "tn", (8192, 8192, 8192)), ("tf32", "nn", (8192, 8192, 8192)),
    ("i8", "nn", (4096, 4096, 4096)), ("i8", "nt", (4096, 4096, 4096)),
    ("i8", "tt", (4096, 4096, 4096)),
    ("i8", "tn", (8192, 8192, 8192)), ("i8", "nn", (8192, 8192, 8192)),
    ("f8", "nn", (4096, 4096, 4096)), ("f8", "nt", (4096, 4096, 4096)),
    ("f8", "tt", (4096, 4096, 4096)), ("f8", "nn", (8192, 8192, 8192)),
]


def library_matmul(a_mk):
    """The library's matmul for operands of a_mk's type: cuBLASLt's
    _int_mm for i8, its fp8 _scaled_mm (B column-major, unit scales, f16
    out) for f8, torch.matmul otherwise."""
    if a_mk.dtype == torch.int8:
        return torch._int_mm
    if a_mk.dtype == torch.float8_e4m3fn:
        one = torch.ones((), device="cuda")
        return lambda x, y: torch._scaled_mm(x, y, scale_a=one, scale_b=one,
                                             out_dtype=torch.float16)
    return torch.matmul


def cmd_bench(args):
    torch.backends.cuda.matmul.allow_tf32 = True
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(7)
    rows = []
    bench = BENCH
    if args.shape:
        m_, n_, k_ = (int(x) for x in args.shape.split("x"))
        bench = [(d, l, (m_, n_, k_)) for d, l, _ in BENCH]
        bench = list(dict.fromkeys(bench))
    if args.dtypes:
        bench = [row for row in bench if row[0] in args.dtypes.split(",")]
    for dtype, layout, (m, n, kk) in bench:
        prefix = f"g_{dtype}_{layout}_none"
        variants = sorted(nm for nm in kernels if (nm == prefix or nm.startswith(prefix + "_"))
                          and not kernels[nm].meta.get("batched"))
        if args.only:
            variants = [v for v in variants if v == args.only]
        if not variants:
            continue
        ab = kernels[variants[0]].meta["a_type"]
        a, b, a_mk, b_kn = make_inputs(layout, m, n, kk, ab, gen)
        flops = 2.0 * m * n * kk
        reps = args.reps or max(5, min(50, int(2e13 / flops)))
        # i8 and f8: cuBLASLt multiplies a row-major A by a column-major B
        # (tn) only, or slowly: in other layouts it is also timed after the
        # transposing copies a user would make (counted), and the faster
        # of the two is the yardstick.
        copies = layout != "tn" and dtype in ("i8", "f8")
        kmaj = lambda: (a_mk.contiguous(), b_kn.t().contiguous().t())
        library = library_matmul(a_mk)
        direct = lambda: library(a_mk, b_kn)
        copied = lambda: library(*kmaj())
        lib = direct
        ref = a_mk.double() @ b_kn.double()
        direct_ms = copy_ms = float("nan")
        if copies:
            try:
                copy_ms = time_fn(copied, reps)
                lib = copied
            except RuntimeError as ex:  # e.g. _int_mm shape limits
                print("cuBLAS failed:", ex)
        try:
            direct_ms = time_fn(direct, reps)
            if not direct_ms > copy_ms:
                lib = direct
        except RuntimeError as ex:  # cuBLASLt refuses the layout
            print("cuBLAS failed:", ex)
        try:
            theirs = min((t for t in (direct_ms, copy_ms) if t == t),
                         default=float("nan"))
            # The library's own error on the same inputs, the yardstick of
            # ours (fp8 accumulation, tf32 rounding).
            lib_err = (torch.linalg.norm(lib().double() - ref)
                       / torch.linalg.norm(ref)).item()
        except RuntimeError as ex:  # e.g. _int_mm shape limits
            theirs = lib_err = float("nan")
            print("cuBLAS failed:", ex)
        for name in variants:
            g = kernels[name]
            kern = g.select_for(a, b, m, n, kk)
            c = poisoned((m, n), g.meta["c_type"])
            # The library again, in turns with this kernel (time_in_turns):
            # the first timing opens the row on a cool GPU, and on a long
            # row the later kernels run on one the earlier ones heated; a
            # ratio against the first would charge that to ours.
            launch = lambda: g.launch([a, b, c], m, n, kk)
            if theirs == theirs:
                t = time_in_turns({"lib": lib, "ours": launch}, reps)
                lib_ms, ours = t["lib"], t["ours"]
            else:
                lib_ms, ours = theirs, time_fn(launch, reps)
            # Correctness of the timed kernel, on the timed inputs.
            err = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
            row = {"kernel": name, "dtype": dtype, "layout": layout, "m": m, "n": n, "k": kk,
                   "ours_ms": ours, "cublas_ms": lib_ms, "cublas_first_ms": theirs,
                   "ours_tflops": flops / ours / 1e9, "cublas_tflops": flops / lib_ms / 1e9,
                   "ratio": lib_ms / ours, "error": err, "cublas_error": lib_err,
                   "cublas_direct_ms": direct_ms, "cublas_after_copies_ms": copy_ms,
                   "error_ratio": err / lib_err if lib_err else float("nan"),
                   **kern.report(m, n, kk),
                   "dynamic_shared_memory": kern.smem, "block": kern.block,
                   **packed_report(g.plan([a, b, c]))}
            rows.append(row)
            print(f"{name:28s} {m:5d}x{n:5d}x{kk:5d}  ours {row['ours_tflops']:7.1f}  "
                  f"cuBLAS {row['cublas_tflops']:7.1f} TF/s  ratio {row['ratio']:.2f}  err {err:.1e}"
                  f" ({row['error_ratio']:.2f}x cuBLAS's)"
                  f"{packed_str(row)}  {ran_str(row)}",
                  flush=True)
    save_results(args.out, rows)
    return 0


def cmd_duel(args):
    """Kernels of one dtype and layout and cuBLAS on one shape, all timed in
    turns (time_in_turns; bench times each kernel in turns with cuBLAS
    alone), after --warm-s of sustained load. Every output is checked
    against float64 once."""
    torch.backends.cuda.matmul.allow_tf32 = True  # f32 operands: cuBLAS's tf32, as bench
    m, n, kk = (int(x) for x in args.shape.split("x"))
    kernels = load_kernels(args.art)
    names = args.kernels.split(",")
    gen = torch.Generator(device="cuda").manual_seed(7)
    ab = kernels[names[0]].meta["a_type"]
    a, b, a_mk, b_kn = make_inputs(args.layout, m, n, kk, ab, gen)
    ref = a_mk.double() @ b_kn.double()
    library = library_matmul(a_mk)
    calls, errors = {"cublas": lambda: library(a_mk, b_kn)}, {}
    for name in names:
        g = kernels[name]
        g.select_for(a, b, m, n, kk)
        c = poisoned((m, n), g.meta["c_type"])
        calls[name] = (lambda g=g, c=c: g.launch([a, b, c], m, n, kk))
        calls[name]()
        torch.cuda.synchronize()
        errors[name] = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
    del ref
    reps = args.reps or max(10, min(100, int(4e13 / (2.0 * m * n * kk))))
    times = time_in_turns(calls, reps, args.warm_s)
    flops = 2.0 * m * n * kk
    cub = times["cublas"]
    rows = []
    for k, t in times.items():
        row = {"kernel": k, "layout": args.layout, "dtype": ab, "m": m, "n": n, "k": kk,
               "ours_ms": t, "cublas_ms": cub, "ratio": cub / t, "tflops": flops / t / 1e9,
               "error": errors.get(k, float("nan")), "reps": reps,
               "warm_s": args.warm_s}
        rows.append(row)
        print(f"{k:28s} {m}x{n}x{kk} {t * 1e3:9.1f} us {row['tflops']:7.1f} TF/s "
              f"cuBLAS/this {row['ratio']:.3f}  err {row['error']:.1e}", flush=True)
    if args.out:
        save_results(args.out, rows)
    return 0


# Issue 15's fused-epilogue rows (and a prefill shape of each): the
# epilogue, the layout, the shape (M, N, K), and what it is measured against.
FUSED = [
    ("bias_silu_residual", "tn", (12288, 4096, 4096)),
    ("bias_silu_residual", "tn", (4096, 11008, 4096)),
    ("bias_gelu_tanh", "tn", (4096, 4096, 4096)),
    ("bias_gelu_tanh", "tn", (8192, 8192, 8192)),
]


def cmd_fused(args):
    """f16 GEMMs with a fused epilogue against PyTorch: bias + SiLU +
    residual against cuBLAS followed by the same elementwise ops (matmul,
    add, silu, add; and the stronger addmm, whose bias cuBLASLt fuses, then
    silu, add), bias + GELU (tanh) against cuBLASLt's own fused epilogue
    (torch._addmm_activation, GELU_BIAS). Same inputs, each result's error
    against a float64 reference."""
    import torch.nn.functional as F
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(11)
    rows = []
    todo = FUSED
    if args.shape:
        shape = tuple(int(x) for x in args.shape.split("x"))
        todo = list(dict.fromkeys((e, l, shape) for e, l, _ in FUSED))
    for epi, layout, (m, n, kk) in todo:
        names = sorted(nm for nm in kernels
                       if nm.startswith(f"g_f16_{layout}_{epi}")
                       and not kernels[nm].meta.get("batched"))
        if args.only:
            names = [nm for nm in names if nm == args.only]
        if not names:
            continue
        a, b, a_mk, b_kn = make_inputs(layout, m, n, kk, "f16", gen)
        if args.inputs == "unit":
            # Pre-activations of unit size, as a trained layer has them
            # (randn A and B give acc of size sqrt(K): |t| up to ~5 sqrt(K)).
            a.mul_(kk ** -0.25)
            b.mul_(kk ** -0.25)
        bias = rand((n,), "f16", gen)
        res = rand((m, n), "f16", gen) if epi == "bias_silu_residual" else None
        acc = a_mk.double() @ b_kn.double()
        t = acc + bias.double()[None, :]
        if res is not None:
            ref = t / (1 + torch.exp(-t)) + res.double()
            libs = {
                "matmul+3 ops": lambda: F.silu(torch.matmul(a_mk, b_kn) + bias) + res,
                "addmm+2 ops": lambda: F.silu(torch.addmm(bias, a_mk, b_kn)) + res,
            }
        else:
            ref = gelu_tanh(t)
            libs = {
                "cuBLASLt GELU_BIAS": lambda: torch._addmm_activation(
                    bias, a_mk, b_kn, use_gelu=True),
            }
            libs["matmul+2 ops"] = lambda: F.gelu(torch.matmul(a_mk, b_kn) + bias,
                                                  approximate="tanh")
        flops = 2.0 * m * n * kk
        reps = args.reps or max(5, min(50, int(2e13 / flops)))
        err = lambda x: (torch.linalg.norm(x.double() - ref) / torch.linalg.norm(ref)).item()
        theirs = {lbl: (time_fn(fn, reps), err(fn())) for lbl, fn in libs.items()}
        del acc, t
        for name in names:
            g = kernels[name]
            c = torch.full((m, n), float("nan"), dtype=torch.float16, device="cuda")
            extras = [bias] + ([res] if res is not None else [])
            # The libraries again right before this kernel (as bench: a GPU
            # the earlier rows heated runs at a lower clock).
            here = {lbl: (time_fn(fn, reps), theirs[lbl][1]) for lbl, fn in libs.items()}
            ours = time_fn(lambda: g.launch([a, b, c] + extras, m, n, kk), reps)
            row = {"kernel": name, "epilogue": epi, "layout": layout, "m": m, "n": n,
                   "k": kk, "inputs": args.inputs, "ours_ms": ours, "ours_tflops": flops / ours / 1e9,
                   "error": err(c), "config": g.config,
                   "against": {lbl: {"ms": ms, "error": e, "ratio": ms / ours,
                                     "first_ms": theirs[lbl][0]}
                               for lbl, (ms, e) in here.items()}}
            rows.append(row)
            print(f"{name:34s} {m:5d}x{n:5d}x{kk:5d} ours {ours * 1e3:8.1f} us "
                  f"err {row['error']:.1e}; "
                  + "; ".join(f"{lbl} {ms * 1e3:8.1f} us ({ms / ours:.2f}x, err {e:.1e})"
                              for lbl, (ms, e) in here.items()), flush=True)
        del ref
    save_results(args.out, rows)
    return 0


def division_operands(kind, shape, gen):
    """Numerators and denominators (f32) for `divide`: every bit pattern;
    normal numbers of every exponent (quotients over- and underflow); numbers
    near 1 (the fast path); SiLU's t / (1 + exp(-t)) for randn t of size 64
    (divisors up to infinity); and normal numbers with 5% zeros, infinities,
    NaNs and subnormals mixed in."""
    def bits(lo_exp, hi_exp):
        sign = torch.randint(0, 2, shape, device="cuda", generator=gen, dtype=torch.int64) << 31
        exp = torch.randint(lo_exp, hi_exp + 1, shape, device="cuda", generator=gen, dtype=torch.int64) << 23
        man = torch.randint(0, 1 << 23, shape, device="cuda", generator=gen, dtype=torch.int64)
        word = sign | exp | man  # 0 .. 2^32 - 1, as int32's two's complement
        return (word - (word >> 31) * (1 << 32)).to(torch.int32).view(torch.float32)
    if kind == "all-bits":
        return bits(0, 255), bits(0, 255)
    if kind == "normal":
        return bits(1, 254), bits(1, 254)
    if kind == "near-one":
        return bits(97, 157), bits(97, 157)
    if kind == "silu":
        t = torch.randn(shape, device="cuda", generator=gen) * 64
        return t, 1 + torch.exp(-t)
    if kind == "specials":
        x, y = bits(1, 254), bits(1, 254)
        specials = torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"),
                                 1e-40, -3e-39, 1.2e-38], device="cuda")
        for t in (x, y):
            pick = torch.rand(shape, device="cuda", generator=gen) < 0.05
            which = torch.randint(0, len(specials), shape, device="cuda", generator=gen)
            t[pick] = specials[which[pick]]
        return x, y
    raise ValueError(kind)


DIVISION_KINDS = ["all-bits", "normal", "near-one", "silu", "specials"]


def cmd_divide(args):
    """C / R in the staged epilogue (C and R read as vectors) bit for bit
    against PyTorch's IEEE division, over DIVISION_KINDS of operands (NaN
    matches any NaN), in every kernel whose epilogue is `divide`: the check
    that held the division lowerings tried in design-notes.md ("Division in
    an epilogue stays div.rn") to IEEE's results."""
    kernels = {nm: g for nm, g in load_kernels(args.art).items()
               if g.meta.get("epilogue") in ("divide", "divide_f64")}
    gen = torch.Generator(device="cuda").manual_seed(5)
    m = n = args.size
    kk = 8
    rows, failed = [], 0
    for name, g in sorted(kernels.items()):
        a, b, _, _ = make_inputs(g.meta["layout"], m, n, kk, g.meta["a_type"], gen)
        for kind in DIVISION_KINDS:
            x, y = division_operands(kind, (m, n), gen)
            c = x.clone()
            g.launch([a, b, c, y], m, n, kk)
            torch.cuda.synchronize()
            ref = x / y
            same = (c.view(torch.int32) == ref.view(torch.int32)) | (torch.isnan(c) & torch.isnan(ref))
            bad = int((~same).sum())
            failed += bad > 0
            row = {"kernel": name, "operands": kind, "elements": m * n, "mismatches": bad}
            if bad:
                i = int((~same).flatten().nonzero()[0])
                row["first"] = {"a": x.flatten()[i].item(), "b": y.flatten()[i].item(),
                                "ours": c.flatten()[i].item(), "ieee": ref.flatten()[i].item()}
            rows.append(row)
            print(f"{'ok  ' if not bad else 'FAIL'} {name:30s} {kind:10s} {m * n} quotients, "
                  f"{bad} differ" + (f" (first: {row['first']})" if bad else ""), flush=True)
    save_results(args.out, rows)
    return 1 if failed or not rows else 0


def packed_report(plan):
    """The result-row fields of a runtime plan's packing: whether any
    operand was packed, and which."""
    return {"packed": plan["pack_a"] or plan["pack_b"],
            "packed_a": plan["pack_a"], "packed_b": plan["pack_b"]}


def packed_str(row):
    """'  (packed A and B)', '  (packed A)', ... or '' for a printed row."""
    which = [n for n in "AB" if row.get("packed_" + n.lower())]
    return f"  (packed {' and '.join(which)})" if which else ""


def packed_copy(t, op, plan):
    """The zero-padded workspace the runtime packs `t` into (its
    round_up_dims rounded up to the manifest's round_to), made by PyTorch."""
    mult = plan.get("round_to", plan["multiple"])
    shape = list(t.shape)
    for d in op["round_up_dims"]:
        shape[d] = (shape[d] + mult - 1) // mult * mult
    dst = torch.zeros(shape, dtype=t.dtype, device=t.device)
    dst[tuple(slice(0, s) for s in t.shape)] = t
    return dst


def cmd_breakdown(args):
    """Where the time of a packed GEMM goes: the GEMM kernel alone on packed
    workspaces (made by PyTorch here), both (what bench reports), and the
    packing's share, the difference (the pack kernels and their stream-ordered
    workspace allocation)."""
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(7)
    m, n, kk = (int(x) for x in args.shape.split("x"))
    rows = []
    for name in args.kernel.split(","):
        g = kernels[name]
        a, b, _, _ = make_inputs(g.meta["layout"], m, n, kk, g.meta["a_type"], gen)
        kern = g.select_for(a, b, m, n, kk)
        c = torch.empty((m, n), dtype=TORCH_DTYPES[g.meta["c_type"]], device="cuda")
        reps = args.reps or 50
        total = time_fn(lambda: g.launch([a, b, c], m, n, kk), reps)
        plan = kern.entry.get("pack")
        ran = g.plan([a, b, c])
        row = {"kernel": name, "m": m, "n": n, "k": kk, "total_ms": total,
               **kern.report(m, n, kk), **packed_report(ran)}
        if row["packed"]:
            ops = {op["name"]: op for op in plan["operands"]}
            if any(op.get("transpose") for op in ops.values()):
                # The GEMM kernel of a transposing family reads layout tn,
                # which the family's launch does not take: time the tn
                # family of the same set on the same shape instead.
                raise SystemExit(f"{name}: an operand is copied transposed; "
                                 "compare with the tn kernel of the same type "
                                 "(harness bench) instead")
            pa = packed_copy(a, ops["A"], plan) if ran["pack_a"] else a
            pb = packed_copy(b, ops["B"], plan) if ran["pack_b"] else b
            # (A split-K kernel's reduction included.)
            row["gemm_ms"] = time_fn(lambda: g.launch([pa, pb, c], m, n, kk, pack=False),
                                     reps)
            row["pack_ms"] = max(total - row["gemm_ms"], 0.0)
            packed_elems = (a.numel() if ran["pack_a"] else 0) + (b.numel() if ran["pack_b"] else 0)
            row["pack_gbps"] = (2 * packed_elems * a.element_size()
                                / row["pack_ms"] / 1e6 if row["pack_ms"] else float("nan"))
        flops = 2.0 * m * n * kk
        row["tflops"] = flops / total / 1e9
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        json.dump(rows, open(args.out, "w"), indent=1)
    return 0


# --------------------------------------------------------------------------
# Every shape: the dispatching launch against cuBLAS over classes of shapes
# --------------------------------------------------------------------------

# (dtype, layout) pairs: each class meets both dtypes and both layouts; the
# classes dispatch is for (decode, K-heavy, tall-skinny) every pair.
TN_NN = (("f16", "tn"), ("bf16", "nn"))
NN_TN = (("f16", "nn"), ("bf16", "tn"))
ALL_PAIRS = TN_NN + NN_TN
# {class: (dtype/layout pairs, [(M, N, K, batch)])}, aligned and odd sizes.
EVERY_CLASSES = {
    # LLM decode: a few tokens against a weight matrix; memory bound.
    "decode": (ALL_PAIRS, [
        (1, 4096, 4096, 1), (4, 14336, 4096, 1), (8, 11008, 4096, 1),
        (16, 4096, 11008, 1), (11, 4097, 4093, 1)]),
    # Batched decode and short prefill chunks: 33 to 128 rows against a
    # weight matrix; bound by L2 traffic (A re-read per column of tiles).
    "decode_wide": (ALL_PAIRS, [
        (64, 4096, 4096, 1), (128, 11008, 4096, 1), (48, 14336, 4096, 1),
        (96, 4096, 11008, 1), (77, 5001, 2000, 1)]),
    "prefill": (TN_NN, [
        (4096, 4096, 4096, 1), (2048, 11008, 4096, 1), (4095, 4097, 4099, 1)]),
    # Few output tiles, all the work in K.
    "k_heavy": (ALL_PAIRS, [
        (64, 64, 65536, 1), (96, 80, 32768, 1), (32, 48, 100000, 1),
        (77, 13, 20001, 1)]),
    "small_k": (TN_NN, [
        (4096, 4096, 64, 1), (8192, 8192, 128, 1), (2048, 2048, 32, 1),
        (4095, 3001, 100, 1)]),
    # M >= 10000 with N < 100, and the transpose.
    "tall_skinny": (ALL_PAIRS, [
        (65536, 64, 1024, 1), (12345, 96, 512, 1), (64, 65536, 1024, 1),
        (80, 12289, 2048, 1)]),
    # Grids of the default's 128 x 256 tiles that end in a short last wave
    # (3072^2: 288 tiles, 2.2 waves of 132 SMs), and 128 x 256 grids of
    # nearly whole waves (3584^2: 392 tiles, 2.97 waves).
    "waves": (TN_NN, [
        (3072, 3072, 4096, 1), (2304, 2304, 4096, 1), (3840, 3840, 4096, 1),
        (1536, 9216, 4096, 1), (3584, 3584, 4096, 1)]),
    "k1": (TN_NN, [(4096, 4096, 1, 1), (1000, 1001, 1, 1)]),
    "odd": (NN_TN, [
        (333, 517, 271, 1), (129, 257, 385, 1), (600, 700, 313, 1),
        (1023, 999, 777, 1)]),
    # The generated batched cases are f16 only (cases.py, set matrix).
    "batched": ((("f16", "tn"), ("f16", "nn")), [
        (256, 256, 64, 32), (384, 384, 128, 48), (200, 200, 96, 64),
        (511, 509, 127, 24)]),
    "tiny": (TN_NN, [(8, 8, 8, 1), (17, 3, 5, 1), (32, 32, 32, 1), (1, 1, 1, 1)]),
}
# (dtype, layout, (M, N, K), batch, class)
SHAPES_EVERY = [(d, l, (m, n, k), batch, cls)
                for cls, (pairs, shapes) in EVERY_CLASSES.items()
                for (m, n, k, batch) in shapes for d, l in pairs]


def parse_rows(text, cls="custom"):
    """Rows given on the command line, ';'-separated: 'f16 tn 1x4096x4096',
    'f16 nn 48x384x384x128' (batch 48) -> SHAPES_EVERY tuples of class
    `cls`. Any shape, listed or not."""
    rows = []
    for item in filter(None, (t.strip() for t in text.split(";"))):
        parts = item.split()
        if len(parts) != 3:
            raise SystemExit(f"row '{item}': expected 'DTYPE LAYOUT [BxMxNxK|MxNxK]'")
        dtype, layout, dims = parts
        try:
            sizes = [int(v) for v in dims.split("x")]
        except ValueError:
            raise SystemExit(f"row '{item}': sizes '{dims}' are not integers")
        if len(sizes) not in (3, 4) or min(sizes) < 1:
            raise SystemExit(f"row '{item}': expected MxNxK or BxMxNxK, positive")
        batch = sizes[0] if len(sizes) == 4 else 1
        m, n, k = sizes[-3:]
        rows.append((dtype, layout, (m, n, k), batch, cls))
    return rows


def every_rows(args):
    """The rows an every/profile run covers: --rows if given (listed rows
    keep their class), else SHAPES_EVERY, less other classes than
    --only-class."""
    rows = SHAPES_EVERY
    if args.rows:
        listed = {(d, l, s, b): c for d, l, s, b, c in SHAPES_EVERY}
        rows = [(d, l, s, b, listed.get((d, l, s, b), c))
                for d, l, s, b, c in parse_rows(args.rows)]
    return [r for r in rows if not args.only_class or r[4] == args.only_class]


def ran_str(row):
    """The kernel a result row ran, for printing."""
    return row["launched"] + (f" ({row['slices']} K slices)" if row["slices"] else "")


def geomean(xs):
    """Geometric mean of the positive finite values of xs (nan if none)."""
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def copy_time(nbytes, reps=30):
    """GPU time (ms) of a device-to-device copy that reads and writes
    `nbytes` bytes in all (a buffer of nbytes / 2): what the GPU delivers
    for a transfer of that size, launch and ramp included. A 32 MB B moves
    at 82% of the 1 GiB copy's bandwidth (H200, 2026-12-01), so decode
    rows are reported against both."""
    half = max(1, nbytes // 2)
    src = torch.empty(half, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    ms = time_fn(lambda: dst.copy_(src), reps)
    del src, dst
    torch.cuda.empty_cache()
    return ms


def copy_bandwidth(reps=20):
    """Device-to-device copy bandwidth in bytes/s: dst.copy_(src) of 1 GiB
    reads and writes every byte."""
    moved = 2 << 30
    return moved / (copy_time(moved, reps) / 1e3)


def shape_label(row):
    batch = f"{row['batch']}x" if row["batch"] > 1 else ""
    return f"{row['dtype']} {row['layout']} {batch}{row['m']}x{row['n']}x{row['k']}"


def every_function(dtype, layout, batch):
    """The generated case an every-shape row runs: rank-3 operands need the
    batched case (cases.py: _batched)."""
    return f"g_{dtype}_{layout}_none" + ("_batched" if batch > 1 else "")


def every_case(g, layout, m, n, kk, batch, gen):
    """One every-shape row's data for family `g`: A and B as the layout
    stores them, their (batched) M x K and K x N views, cuBLAS's call on
    the views, and C poisoned with NaN (an element no launch wrote stays
    NaN)."""
    ab, ct = g.meta["a_type"], g.meta["c_type"]
    if batch > 1:
        a, b, a_mk, b_kn = make_batched_inputs(layout, batch, m, n, kk, ab, gen)
        lib = lambda: torch.bmm(a_mk, b_kn)
        shape = (batch, m, n)
    else:
        a, b, a_mk, b_kn = make_inputs(layout, m, n, kk, ab, gen)
        lib = lambda: torch.matmul(a_mk, b_kn)
        shape = (m, n)
    c = torch.full(shape, float("nan"), dtype=TORCH_DTYPES[ct], device="cuda")
    return a, b, a_mk, b_kn, lib, c


def cmd_every(args):
    """Every class of shape (SHAPES_EVERY): ours, as gemm-opt's host code
    would launch it (family member, packing, split-K reduction), against
    cuBLAS on the same inputs, checked against float64."""
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(11)
    copy_bps = copy_bandwidth()
    print(f"device-to-device copy: {copy_bps / 1e9:.0f} GB/s", flush=True)
    rows, skipped = [], []
    for dtype, layout, (m, n, kk), batch, cls in every_rows(args):
        name = every_function(dtype, layout, batch)
        g = kernels.get(name)
        if g is None:
            shape = shape_label({"dtype": dtype, "layout": layout, "m": m, "n": n,
                                 "k": kk, "batch": batch})
            print(f"skip {cls} {shape}: no case {name} in {args.art}", flush=True)
            skipped.append(f"{cls} {shape}")
            continue
        a, b, a_mk, b_kn, lib, c = every_case(g, layout, m, n, kk, batch, gen)
        flops = 2.0 * batch * m * n * kk
        reps = args.reps or max(5, min(50, int(2e13 / flops)))
        try:
            theirs = time_fn(lib, reps)
        except RuntimeError as ex:
            theirs = float("nan")
            print("cuBLAS failed:", ex)
        kern = g.select_for(a, b, m, n, kk, batch)
        ours = time_fn(lambda: g.launch([a, b, c], m, n, kk, batch), reps)
        # Correctness of the timed launches, on the timed inputs (C was
        # poisoned: an element no launch wrote stays NaN).
        out = c.double()
        ref = a_mk.double() @ b_kn.double()
        err = (torch.linalg.norm(out - ref) / torch.linalg.norm(ref)).item()
        nonfinite = int((~torch.isfinite(out)).sum())
        row = {"class": cls, "function": name, "dtype": dtype, "layout": layout,
               "m": m, "n": n, "k": kk, "batch": batch,
               "ours_ms": ours, "cublas_ms": theirs, "ratio": theirs / ours,
               "ours_tflops": flops / ours / 1e9, "cublas_tflops": flops / theirs / 1e9,
               "error": err, "nonfinite": nonfinite,
               "ok": nonfinite == 0 and err <= tolerance(g.meta),
               **kern.report(m, n, kk, batch),
               **packed_report(g.plan([a, b, c]))}
        if cls in ("decode", "decode_wide"):
            row["bytes_moved"] = batch * (a.element_size() * (m * kk + kk * n)
                                          + c.element_size() * m * n)
            row["bw_fraction"] = row["bytes_moved"] / (ours / 1e3) / copy_bps
            # The same bytes moved by a copy, timed the same way.
            row["copy_same_bytes_ms"] = copy_time(row["bytes_moved"])
            row["bw_fraction_same_bytes"] = row["copy_same_bytes_ms"] / ours
        rows.append(row)
        bw = (f"  {row['bw_fraction']:.0%} of copy bw "
              f"({row['bw_fraction_same_bytes']:.0%} of a same-bytes copy)"
              if "bw_fraction" in row else "")
        print(f"{cls:11s} {shape_label(row):28s} ours {ours:8.4f} ms  cuBLAS {theirs:8.4f} ms  "
              f"ratio {row['ratio']:5.2f}  err {err:.1e}{'' if row['ok'] else '  WRONG'}"
              f"{bw}  {ran_str(row)}{packed_str(row)}", flush=True)
        del a, b, a_mk, b_kn, c, out, ref
        torch.cuda.empty_cache()

    summary = {"rows": len(rows), "wrong": sum(not r["ok"] for r in rows),
               "skipped": skipped, "geomean_ratio": geomean(r["ratio"] for r in rows)}
    timed = [r for r in rows if math.isfinite(r["ratio"])]
    if timed:
        worst = min(timed, key=lambda r: r["ratio"])
        summary["min_ratio"] = {"ratio": worst["ratio"], "class": worst["class"],
                                "shape": shape_label(worst), "launched": worst["launched"]}
    summary["class_geomean"] = {cls: geomean(r["ratio"] for r in rows if r["class"] == cls)
                                for cls in dict.fromkeys(r["class"] for r in rows)}
    summary["decode_bw_fraction"] = {shape_label(r): r["bw_fraction"]
                                     for r in rows if "bw_fraction" in r}
    summary["decode_bw_fraction_same_bytes"] = {
        shape_label(r): r["bw_fraction_same_bytes"] for r in rows if "bw_fraction" in r}
    print(f"\n{len(rows)} rows, {summary['wrong']} wrong, {len(skipped)} skipped; "
          f"geomean cuBLAS/ours {summary['geomean_ratio']:.3f}")
    if timed:
        w = summary["min_ratio"]
        print(f"min ratio {w['ratio']:.3f}: {w['class']} {w['shape']} ({w['launched']})")
    for cls, gm in summary["class_geomean"].items():
        print(f"  {cls:11s} geomean {gm:.3f}")
    for label, f in summary["decode_bw_fraction"].items():
        same = summary["decode_bw_fraction_same_bytes"][label]
        print(f"  decode {label:26s} {f:.0%} of copy bandwidth, "
              f"{same:.0%} of a copy of the same bytes")
    save_results(args.out, rows, copy_gbps=copy_bps / 1e9, summary=summary)
    return 1 if summary["wrong"] else 0


def kernel_times(fn, reps):
    """{kernel name: (launches per call, mean GPU us per launch)} of the
    kernels `fn` launches, from PyTorch's profiler (CUPTI sees the runtime's
    driver-API launches as well as cuBLAS's)."""
    from torch.profiler import profile, ProfilerActivity
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
    acc = {}
    for ev in prof.events():
        if ev.device_type != torch.autograd.DeviceType.CUDA:
            continue
        n, t = acc.get(ev.name, (0, 0.0))
        acc[ev.name] = (n + 1, t + ev.device_time)
    return {name: (n / reps, t / n) for name, (n, t) in acc.items()}


def cmd_profile(args):
    """Where the time of each every-shape row goes, kernel by kernel (pack,
    GEMM, split-K reduction; cuBLAS's kernels), next to the timed total."""
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(11)
    rows = []
    for dtype, layout, (m, n, kk), batch, cls in every_rows(args):
        name = every_function(dtype, layout, batch)
        if name not in kernels:
            continue
        g = kernels[name]
        label = shape_label({"dtype": dtype, "layout": layout, "m": m, "n": n,
                             "k": kk, "batch": batch})
        a, b, a_mk, b_kn, lib, c = every_case(g, layout, m, n, kk, batch, gen)
        reps = args.reps or 20
        ours = lambda: g.launch([a, b, c], m, n, kk, batch)
        row = {"class": cls, "shape": label, "ours_ms": time_fn(ours, reps),
               "cublas_ms": time_fn(lib, reps),
               "ours_kernels": kernel_times(ours, reps),
               "cublas_kernels": kernel_times(lib, reps),
               **g.select_for(a, b, m, n, kk, batch).report(m, n, kk, batch)}
        rows.append(row)
        print(f"{cls:11s} {label:28s} ours {row['ours_ms'] * 1e3:7.1f} us  "
              f"cuBLAS {row['cublas_ms'] * 1e3:7.1f} us  {ran_str(row)}", flush=True)
        for who in ("ours", "cublas"):
            for kname, (per, us) in row[who + "_kernels"].items():
                print(f"    {who:6s} {per:4.1f} x {us:8.2f} us  {kname[:90]}", flush=True)
        del a, b, a_mk, b_kn, c
    if args.out:
        json.dump(rows, open(args.out, "w"), indent=1)
    return 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("art")
    c.add_argument("--shapes", default="small", choices=["small", "full"])
    c.add_argument("--only", default="")
    c.add_argument("--out", default="")
    b = sub.add_parser("bench")
    b.add_argument("art")
    b.add_argument("--out", default="bench.json")
    b.add_argument("--only", default="", help="benchmark this kernel only")
    b.add_argument("--shape", default="", help="MxNxK instead of the list")
    b.add_argument("--reps", type=int, default=0)
    b.add_argument("--dtypes", default="", help="comma-separated dtypes of the list only (f16,f8)")
    fu = sub.add_parser("fused", help="fused epilogues against PyTorch/cuBLASLt")
    fu.add_argument("art")
    fu.add_argument("--out", default="fused.json")
    fu.add_argument("--only", default="", help="this kernel only")
    fu.add_argument("--shape", default="", help="MxNxK instead of the list")
    fu.add_argument("--reps", type=int, default=0)
    fu.add_argument("--inputs", default="randn", choices=["randn", "unit"],
                    help="randn A and B, or scaled by K^-1/4 (unit-size acc)")
    dv = sub.add_parser("divide", help="the epilogue's f32 division bit for bit")
    dv.add_argument("art")
    dv.add_argument("--out", default="")
    dv.add_argument("--size", type=int, default=4096, help="M = N (quotients: size^2)")
    d = sub.add_parser("breakdown")
    d.add_argument("art")
    d.add_argument("--kernel", required=True, help="comma-separated kernels")
    d.add_argument("--shape", required=True, help="MxNxK")
    d.add_argument("--out", default="")
    d.add_argument("--reps", type=int, default=0)
    du = sub.add_parser("duel", help="kernels and cuBLAS on one shape, timed in turns")
    du.add_argument("art")
    du.add_argument("--kernels", required=True, help="comma-separated kernels (one dtype)")
    du.add_argument("--layout", required=True, choices=["nn", "nt", "tn", "tt"])
    du.add_argument("--shape", required=True, help="MxNxK")
    du.add_argument("--out", default="")
    du.add_argument("--reps", type=int, default=0)
    du.add_argument("--warm-s", type=float, default=0.0,
                    help="run every call in turn for this long before timing")
    e = sub.add_parser("every", help="every class of shape (SHAPES_EVERY) against cuBLAS")
    e.add_argument("art")
    e.add_argument("--out", default="every.json")
    e.add_argument("--reps", type=int, default=0)
    e.add_argument("--only-class", choices=list(EVERY_CLASSES), help="this class only")
    e.add_argument("--rows", default="",
                   help="';'-separated rows instead of the list, any shape "
                        "('f16 tn 1x4096x4096;f16 nn 48x384x384x128')")
    f = sub.add_parser("profile", help="every-shape rows kernel by kernel (torch.profiler)")
    f.add_argument("art")
    f.add_argument("--out", default="")
    f.add_argument("--reps", type=int, default=0)
    f.add_argument("--only-class", choices=list(EVERY_CLASSES), help="this class only")
    f.add_argument("--rows", default="", help="';'-separated rows, any shape ('f16 tn 1x4096x4096')")
    a = p.parse_args()
    sys.exit({"check": cmd_check, "bench": cmd_bench, "fused": cmd_fused,
              "divide": cmd_divide,
              "breakdown": cmd_breakdown, "duel": cmd_duel,
              "every": cmd_every, "profile": cmd_profile}[a.cmd](a))


if __name__ == "__main__":
    main()
