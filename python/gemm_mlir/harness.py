#!/usr/bin/env python3
"""GPU harness for gemm-mlir kernels (the method of docs/performance.md).

Runs where the GPU is, with only the CUDA driver, CuPy and PyTorch: loads the
cubins/PTX and manifest.json files that `gemm-opt --gemm-to-ptx=output-dir=...`
wrote, fills inputs with random values (never zeros or all-ones), poisons the
output, launches, checks every element against a float64 reference, and times
ours and cuBLAS (through PyTorch) in the same process on the same inputs with
CUDA events after warm-up (median of many runs). Prints a table and writes
JSON.

Usage (PYTHONPATH=python, or run python/gemm_mlir/harness.py by path):
  python3 -m gemm_mlir.harness check ART_DIR [--shapes small|full] [--out results.json]
  python3 -m gemm_mlir.harness bench ART_DIR --out bench.json
  python3 -m gemm_mlir.harness breakdown ART_DIR --kernel NAME,... --shape MxNxK
"""
import argparse
import glob
import json
import math
import os
import re
import sys
import time

import numpy as np
import torch
import cupy as cp

if __name__ == "__main__" and not __package__:
    # Run by path (python3 python/gemm_mlir/harness.py): import as part of the
    # package, from the directory above it (PEP 366).
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "gemm_mlir"
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

class Kernel:
    def __init__(self, entry, binary_path, meta):
        # Refuse, loudly, a kernel built for another chip (chipguard.py).
        global DEVICE_CHIP
        DEVICE_CHIP = DEVICE_CHIP or device_chip()
        check_chip(entry["chip"], DEVICE_CHIP,
                   "isa" if binary_path.endswith(".ptx") else "bin")
        self.entry = entry
        self.meta = meta
        self.module = cp.RawModule(path=binary_path)
        self.fn = self.module.get_function(entry["name"])
        self.smem = int(entry["dynamic_shared_memory"])
        # Always raise the limit: the module's static shared memory counts too.
        self.fn.max_dynamic_shared_size_bytes = self.smem
        self.block = tuple(entry["block"])
        self.tile_m = entry["grid"]["tile_m"]
        self.tile_n = entry["grid"]["tile_n"]
        self.pack_fns = {}

    def args(self, values):
        return launch_args(self.entry["params"], values)

    def launch(self, values, m, n, batch=1, pack=True):
        """Launches the GEMM on `values` (A, B, C, extras...). When the
        manifest records a packing (lib/Conversion/KernelCommon/Pack.cpp), A
        and B are first copied by its kernels into aligned, zero-padded
        workspaces, as the host code gemm-opt emits does: always, or when an
        operand is not 16-byte aligned. pack=False launches the GEMM kernel on
        the operands as they are (its element-copy path), which the
        "unaligned" mode allows."""
        values = list(values)
        plan = self.entry.get("pack")
        if self.packs(values, pack):
            for i, op in enumerate(plan["operands"]):
                values[i] = self.pack(values[i], op, plan)
        grid = (math.ceil(m / self.tile_m) * math.ceil(n / self.tile_n), 1, batch)
        self.fn(grid, self.block, self.args(values), shared_mem=self.smem)

    def packs(self, values, pack=True):
        """True if launch() copies A and B into workspaces first."""
        plan = self.entry.get("pack")
        return bool(plan) and (plan["when"] == "always" or (pack and not all(
            vector_copies_ok(v, plan["multiple"]) for v in values[:2])))

    def pack(self, src, op, plan):
        mult = plan.get("round_to", plan["multiple"])
        shape = list(src.shape)
        for d in op["round_up_dims"]:
            shape[d] = (shape[d] + mult - 1) // mult * mult
        dst = torch.empty(shape, dtype=src.dtype, device=src.device)
        fn = self.pack_fns.get(op["kernel"])
        if fn is None:
            fn = self.pack_fns[op["kernel"]] = self.module.get_function(op["kernel"])
        # The manifest's grid rule: x covers a workspace row with one
        # 32-thread warp per warp_elements, y strides over the rows, z is the
        # batch.
        block = tuple(plan["block"])
        gx = math.ceil(math.ceil(shape[-1] / plan["warp_elements"]) * 32 / block[0])
        gz = shape[0] if len(shape) == 3 else 1
        fn((gx, min(shape[-2], 65535), gz), block,
           launch_args([{"kind": "memref", "rank": len(shape)}] * 2, [src, dst]))
        return dst


def vector_copies_ok(t, multiple):
    """The host check of Pack.cpp: 16-byte aligned base, unit inner stride,
    outer strides multiples of `multiple` elements."""
    return (t.data_ptr() % 16 == 0 and t.stride(-1) == 1 and
            all(s % multiple == 0 for s in t.stride()[:-1]))


def launch_args(params, values):
    out = []
    for p, v in zip(params, values):
        if p["kind"] == "memref":
            assert v.dim() == p["rank"], (p, v.shape)
            ptr = np.uint64(v.data_ptr())
            # MLIR descriptor: allocated, aligned, offset, sizes, strides.
            out += [ptr, ptr, np.int64(0)]
            out += [np.int64(s) for s in v.shape]
            out += [np.int64(s) for s in v.stride()]
        else:
            t = p["element_type"]
            out.append({"f32": np.float32, "f64": np.float64,
                        "i32": np.int32, "i64": np.int64}[t](v))
    return tuple(out)


def load_kernels(art_dir):
    """Returns {kernel name: Kernel} for every manifest under art_dir."""
    metas = {}
    cases = os.path.join(art_dir, "cases.json")
    if os.path.exists(cases):
        metas = {c["name"]: c for c in json.load(open(cases))}
    kernels = {}
    for manifest_path in sorted(glob.glob(os.path.join(art_dir, "**", "manifest.json"),
                                          recursive=True)):
        d = os.path.dirname(manifest_path)
        manifest = json.load(open(manifest_path))
        objects = {o["module"]: o for o in manifest["objects"]}
        for e in manifest["kernels"]:
            obj = objects[e["module"]]
            path = os.path.join(d, obj["file"])
            cubin = os.path.splitext(path)[0] + ".cubin"
            if os.path.exists(cubin):
                path = cubin
            func = e["name"].rsplit("_gemm", 1)[0]
            meta = dict(metas.get(func, {}))
            m = re.search(r"kind = (\w+)", e.get("config", ""))
            meta["kind"] = m.group(1) if m else ""
            kernels[func] = Kernel(e, path, meta)
    return kernels


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


def make_inputs(layout, m, n, kk, ab, gen, pad=0):
    a = make_operand(kk, m, ab, gen, pad) if a_is_km(layout) else make_operand(m, kk, ab, gen, pad)
    b = make_operand(n, kk, ab, gen, pad) if b_is_nk(layout) else make_operand(kk, n, ab, gen, pad)
    a_mk = a.t() if a_is_km(layout) else a
    b_kn = b.t() if b_is_nk(layout) else b
    return a, b, a_mk, b_kn


def run_batched_case(k, m, n, kk, gen, batch=3, pack=True):
    """Rank-3 operands: one launch covers `batch` independent GEMMs."""
    meta = k.meta
    ab, ct, layout = meta["a_type"], meta["c_type"], meta["layout"]
    a = rand((batch, kk, m) if a_is_km(layout) else (batch, m, kk), ab, gen)
    b = rand((batch, n, kk) if b_is_nk(layout) else (batch, kk, n), ab, gen)
    a_mk = a.transpose(1, 2) if a_is_km(layout) else a
    b_kn = b.transpose(1, 2) if b_is_nk(layout) else b
    c = torch.full((batch, m, n), float("nan"), dtype=TORCH_DTYPES[ct], device="cuda")
    k.launch([a, b, c], m, n, batch, pack=pack)
    torch.cuda.synchronize()
    ref = torch.bmm(a_mk.double(), b_kn.double())
    out = c.double()
    if torch.isnan(out).any():
        return float("inf"), int(torch.isnan(out).sum())
    return (torch.linalg.norm(out - ref) / torch.linalg.norm(ref)).item(), 0


def run_case(k, m, n, kk, gen, pad=0, pack=True):
    meta = k.meta
    if meta.get("batched"):
        return run_batched_case(k, m, n, kk, gen, pack=pack)
    ab, ct, layout = meta["a_type"], meta["c_type"], meta["layout"]
    a, b, a_mk, b_kn = make_inputs(layout, m, n, kk, ab, gen, pad)
    reads_c = k.entry["reads_c"]
    c = rand((m, n), ct, gen) if reads_c else torch.empty((m, n), dtype=TORCH_DTYPES[ct], device="cuda")
    c0 = c.double().clone()
    if not reads_c:  # poison: any element left unwritten fails the check
        if ct in ("i8", "i32"):
            c.fill_(-77)
        else:
            c.fill_(float("nan"))
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
    k.launch([a, b, c] + extras, m, n, pack=pack)
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
        return err, 0, bool(((out - ref).abs() <= rounding_bound(meta, kk, mag, ref)).all())
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
    (1, 1, 4096)]
# Shapes also checked without packing (the kernel's element-copy path).
DIRECT_SHAPES = {(17, 33, 65), (255, 257, 33), (1023, 1025, 1027), (1, 1, 1)}


def cmd_check(args):
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(1234)
    results, failures = [], 0
    for name, k in sorted(kernels.items()):
        if args.only and args.only not in name:
            continue
        shapes = FULL_SHAPES if args.shapes == "full" else SMALL_SHAPES
        worst, bad_shapes = 0.0, []
        t0 = time.time()
        for (m, n, kk) in shapes:
            if k.meta["dtype"] == "f16acc16" and kk > 1024:
                continue  # f16 accumulation over long K exceeds 1e-2 by design
            pads = [0, 3] if (m, n, kk) in ((129, 127, 257), (513, 511, 64)) else [0]
            if k.meta.get("batched"):
                pads = [0]
            # Unaligned operands are packed by default; the GEMM kernel's own
            # element-copy path (pack=False) is checked on the strided views
            # and a few ragged shapes.
            runs = [(pad, True) for pad in pads]
            if "pack" in k.entry:
                runs += [(pad, False) for pad in pads
                         if pad or (m, n, kk) in DIRECT_SHAPES]
            for pad, pack in runs:
                err, bad, *within = run_case(k, m, n, kk, gen, pad, pack)
                worst = max(worst, err)
                tol = tolerance(k.meta)
                ok = within[0] if within else (err <= tol if tol else bad == 0)
                results.append({"kernel": name, "m": m, "n": n, "k": kk, "pad": pad,
                                "pack": pack, "error": err, "bad": bad, "ok": ok})
                if not ok:
                    bad_shapes.append(f"{m}x{n}x{kk}{'+pad' if pad else ''}"
                                      f"{'' if pack else '+direct'}:{err:.2e}/{bad}")
        failures += bool(bad_shapes)
        status = "ok  " if not bad_shapes else "FAIL"
        print(f"{status} {name:40s} worst {worst:.2e} ({len(shapes)} shapes, "
              f"{time.time() - t0:.1f}s) {' '.join(bad_shapes[:4])}", flush=True)
    if args.out:
        json.dump({"results": results, "failures": failures}, open(args.out, "w"), indent=1)
    print(f"{len(results)} checks, {failures} failing kernels")
    return 1 if failures else 0


# --------------------------------------------------------------------------
# Benchmark
# --------------------------------------------------------------------------

def time_fn(fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); e.synchronize()
        times.append(s.elapsed_time(e))
    return float(np.median(times))


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
]


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
    for dtype, layout, (m, n, kk) in bench:
        prefix = f"g_{dtype}_{layout}_none"
        variants = sorted(nm for nm in kernels if nm == prefix or nm.startswith(prefix + "_"))
        if args.only:
            variants = [v for v in variants if v == args.only]
        if not variants:
            continue
        ab = kernels[variants[0]].meta["a_type"]
        a, b, a_mk, b_kn = make_inputs(layout, m, n, kk, ab, gen)
        flops = 2.0 * m * n * kk
        reps = args.reps or max(5, min(50, int(2e13 / flops)))
        if dtype == "i8":
            lib = lambda: torch._int_mm(a_mk, b_kn)
        elif dtype == "f8":  # cuBLASLt fp8 (B column-major, unit scales)
            one = torch.ones((), device="cuda")
            lib = lambda: torch._scaled_mm(a_mk, b_kn, scale_a=one, scale_b=one,
                                           out_dtype=torch.float16)
        else:
            lib = lambda: torch.matmul(a_mk, b_kn)
        try:
            theirs = time_fn(lib, reps)
        except RuntimeError as ex:  # e.g. _int_mm shape limits
            theirs = float("nan")
            print("cuBLAS failed:", ex)
        ref = a_mk.double() @ b_kn.double()
        for name in variants:
            k = kernels[name]
            c = torch.empty((m, n), dtype=TORCH_DTYPES[k.meta["c_type"]], device="cuda")
            c.fill_(float("nan") if k.meta["c_type"] not in ("i8", "i32") else -77)
            ours = time_fn(lambda: k.launch([a, b, c], m, n), reps)
            # Correctness of the timed kernel, on the timed inputs.
            err = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
            row = {"kernel": name, "dtype": dtype, "layout": layout, "m": m, "n": n, "k": kk,
                   "ours_ms": ours, "cublas_ms": theirs,
                   "ours_tflops": flops / ours / 1e9, "cublas_tflops": flops / theirs / 1e9,
                   "ratio": theirs / ours, "error": err, "config": k.entry["config"],
                   "dynamic_shared_memory": k.smem, "block": k.block,
                   "packed": k.packs([a, b])}
            rows.append(row)
            print(f"{name:28s} {m:5d}x{n:5d}x{kk:5d}  ours {row['ours_tflops']:7.1f}  "
                  f"cuBLAS {row['cublas_tflops']:7.1f} TF/s  ratio {row['ratio']:.2f}  err {err:.1e}"
                  f"{'  (packed)' if row['packed'] else ''}",
                  flush=True)
    info = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "date": time.strftime("%Y-%m-%d"), "rows": rows}
    json.dump(info, open(args.out, "w"), indent=1)
    return 0


def cmd_breakdown(args):
    """Where the time of a packed GEMM goes: the pack kernels alone, the GEMM
    kernel alone on the packed workspaces, and both (what bench reports)."""
    kernels = load_kernels(args.art)
    gen = torch.Generator(device="cuda").manual_seed(7)
    m, n, kk = (int(x) for x in args.shape.split("x"))
    rows = []
    for name in args.kernel.split(","):
        k = kernels[name]
        a, b, _, _ = make_inputs(k.meta["layout"], m, n, kk, k.meta["a_type"], gen)
        c = torch.empty((m, n), dtype=TORCH_DTYPES[k.meta["c_type"]], device="cuda")
        reps = args.reps or 50
        total = time_fn(lambda: k.launch([a, b, c], m, n), reps)
        plan = k.entry.get("pack")
        row = {"kernel": name, "m": m, "n": n, "k": kk, "total_ms": total,
               "packed": k.packs([a, b])}
        if row["packed"]:
            ops = plan["operands"]
            pa, pb = k.pack(a, ops[0], plan), k.pack(b, ops[1], plan)
            row["pack_ms"] = time_fn(lambda: (k.pack(a, ops[0], plan),
                                              k.pack(b, ops[1], plan)), reps)
            row["gemm_ms"] = time_fn(lambda: k.launch([pa, pb, c], m, n, pack=False), reps)
            row["pack_gbps"] = 2 * (a.numel() + b.numel()) * a.element_size() / row["pack_ms"] / 1e6
        flops = 2.0 * m * n * kk
        row["tflops"] = flops / total / 1e9
        rows.append(row)
        print(json.dumps(row), flush=True)
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
    d = sub.add_parser("breakdown")
    d.add_argument("art")
    d.add_argument("--kernel", required=True, help="comma-separated kernels")
    d.add_argument("--shape", required=True, help="MxNxK")
    d.add_argument("--out", default="")
    d.add_argument("--reps", type=int, default=0)
    a = p.parse_args()
    sys.exit({"check": cmd_check, "bench": cmd_bench,
              "breakdown": cmd_breakdown}[a.cmd](a))


if __name__ == "__main__":
    main()
