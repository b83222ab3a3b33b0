#!/usr/bin/env python3
"""The Python API on a GPU (run by scripts/gpu_python.sh, docs/python.md).

1. Compiles fused GEMMs from Python with gemm_mlir.compile on this machine
   (the self-contained compiler library; no LLVM installed here), in
   parallel threads, for the current device's chip.
2. Runs them on torch tensors of ragged shapes (and padded, strided views)
   and checks every element against a float64 reference with the harness's
   rounding bound; integer GEMMs exactly. Also CuPy arrays, a DLPack
   producer, and the stream each call is enqueued on.
3. Measures the host time per call on a tiny GEMM (the GPU queue kept
   non-empty by a sleep kernel, so the host never waits), against the
   runtime's launch alone, an empty torch op and a tiny torch.mm, and the
   kernel's GPU time from CUDA events.

Usage: python3 scripts/gpu_python.py OUT.json
Exits non-zero if any element is out of bounds or a check fails.
"""
import concurrent.futures
import datetime
import json
import math
import os
import statistics
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import gemm_mlir  # noqa: E402
from gemm_mlir import Problem  # noqa: E402
from gemm_mlir.harness import (  # noqa: E402
    make_batched_inputs, make_inputs, rand, rounding_bound)

failures = []
# Half the smallest subnormal step of C's type.
UNDERFLOW = {"f16": 2.0 ** -25, "bf16": 2.0 ** -134}


def fail(message):
    print("FAIL:", message, flush=True)
    failures.append(message)


def gelu(x):
    return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))


def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(0.7978845608028654
                                     * (x + 0.044715 * x ** 3)))


# name -> (problem, float64 epilogue(acc, c0, extras), extras' absolute
# magnitude for the bound, shapes, batch)
RAGGED = [(1, 4096, 4096), (7, 13, 5), (333, 517, 271), (129, 257, 385),
          (64, 64, 65536), (65536, 64, 1024), (4099, 4097, 4095),
          (1000, 1001, 1), (2048, 2048, 2048), (16, 8192, 4096)]
FEW = [(7, 13, 5), (333, 517, 271), (1, 4096, 4096), (4099, 4097, 4095)]
CASES = {
    "bias_gelu": (Problem(layout="tn", a="f16", epilogue="bias_gelu"),
                  lambda acc, c0, e: gelu(acc + e[0].double()[None, :]),
                  RAGGED, 1),
    "bias_relu_row": (Problem(layout="nt", a="f16", epilogue="bias_relu",
                              bias="row"),
                      lambda acc, c0, e: torch.clamp(
                          acc + e[0].double()[:, None], min=0), FEW, 1),
    "residual": (Problem(layout="tt", a="f16", epilogue="residual"),
                 lambda acc, c0, e: acc + e[0].double(), FEW, 1),
    "gelu_tanh": (Problem(layout="tn", a="f16", epilogue="gelu_tanh"),
                  lambda acc, c0, e: gelu_tanh(acc), FEW, 1),
    "scale_beta_batched": (Problem(layout="nn", a="bf16",
                                   epilogue="scale_beta", batched=True),
                           lambda acc, c0, e: e[0] * acc + e[1] * c0, FEW,
                           3),
    "silu": (Problem(layout="nn", a="f16", epilogue="silu"),
             lambda acc, c0, e: acc / (1 + torch.exp(-acc)), FEW, 1),
    "i8_bias_relu": (Problem(layout="tn", a="i8", epilogue="bias_relu"),
                     lambda acc, c0, e: torch.clamp(
                         acc + e[0].double()[None, :], min=0), FEW, 1),
}


def extras_for(f, m, n, batch, gen):
    """Random extras of function `f` in its problem's order (scalars:
    Python floats)."""
    out = []
    for (name, kind), p in zip(f.problem.extras, f.params[3:]):
        t = p["element_type"]
        if kind == "scalar":
            out.append({"alpha": 0.75, "beta": -1.25}.get(name, 0.5))
        elif kind == "col":
            out.append(rand((n,), t, gen))
        elif kind == "row":
            out.append(rand((m,), t, gen))
        else:
            out.append(rand((batch, m, n) if f.problem.batched else (m, n),
                            t, gen))
    return out


def check_case(name, f, reference, shapes, batch, gen, pad=0):
    p = f.problem
    results = []
    for (m, n, k) in shapes:
        if p.batched:
            a, b, a_mk, b_kn = make_batched_inputs(p.layout, batch, m, n, k,
                                                   p.a, gen)
        else:
            a, b, a_mk, b_kn = make_inputs(p.layout, m, n, k, p.a, gen, pad)
        shape_c = (batch, m, n) if p.batched else (m, n)
        c0 = rand(shape_c, p.c, gen)
        c = c0.clone()
        extras = extras_for(f, m, n, batch, gen)
        kernel = f(a, b, c, *extras)
        torch.cuda.synchronize()
        acc = a_mk.double() @ b_kn.double()
        mags = [abs(e) if isinstance(e, float) else e.double().abs()
                for e in extras]
        ref = reference(acc, c0.double(), extras)
        mag = a_mk.double().abs() @ b_kn.double().abs()
        if p.steps and p.steps[0] == "scale":
            mag = mags[0] * mag + mags[1] * c0.double().abs()
        elif "bias" in p.steps:
            mag = mag + (mags[0][None, :] if p.bias == "col"
                         else mags[0][:, None])
        elif "residual" in p.steps:
            mag = mag + mags[0]
        out = c.double()
        if p.c in ("i32", "i8"):
            bad = int((out != ref).sum())
            worst = float((out - ref).abs().max()) if out.numel() else 0.0
        else:
            meta = {"dtype": p.a, "c_type": p.c, "kind": "wgmma"}
            # The harness's bound is relative to the output; results in
            # C's subnormal range also round by up to half its smallest
            # step (seen at K = 1, where GELU of small sums lands there).
            bound = rounding_bound(meta, k, mag, ref) + UNDERFLOW[p.c]
            err = (out - ref).abs()
            bad = int(((err > bound) | torch.isnan(out)).sum())
            worst = float((err / bound).max()) if out.numel() else 0.0
        row = {"case": name, "layout": p.layout, "a": p.a, "c": p.c,
               "epilogue": p.epilogue, "shape": [m, n, k],
               "batch": batch if p.batched else None, "pad": pad,
               "kernel": kernel, "elements": out.numel(), "bad": bad,
               "worst_error_over_bound": worst}
        if bad:
            at = int((err / bound).argmax()) if p.c not in ("i32", "i8") \
                else int((out != ref).flatten().nonzero()[0])
            row["worst_element"] = {
                "index": at, "out": float(out.flatten()[at]),
                "ref": float(ref.flatten()[at]),
                "mag": float(mag.flatten()[at])}
        results.append(row)
        status = "ok" if bad == 0 else "FAIL"
        print(f"{status} {name} {m}x{n}x{k} pad={pad} kernel={kernel} "
              f"worst/bound={worst:.3g}", flush=True)
        if bad:
            fail(f"{name} {m}x{n}x{k}: {bad} elements out of bounds")
    return results


def stream_checks(f, gen):
    """A call runs on torch's current stream, or on the one it is given:
    queued behind a 100 ms sleep on that stream, C is still untouched when
    another stream reads it, and right once the stream is done."""
    out = {}
    m = n = k = 256
    a, b, _, _ = make_inputs("tn", m, n, k, "f16", gen)
    bias = rand((n,), "f32", gen)
    ref = torch.empty(m, n, dtype=torch.float16, device="cuda")
    f(a, b, ref, bias)
    torch.cuda.synchronize()
    reader = torch.cuda.Stream()
    for how in ("current", "explicit"):
        s = torch.cuda.Stream()
        c = torch.full((m, n), float("nan"), dtype=torch.float16,
                       device="cuda")
        torch.cuda.synchronize()
        with torch.cuda.stream(s):
            torch.cuda._sleep(int(0.1 * 2e9))
            if how == "current":
                f(a, b, c, bias)
        if how == "explicit":
            f(a, b, c, bias, stream=s)
        time.sleep(0.02)
        with torch.cuda.stream(reader):
            early = c.to("cpu")
        reader.synchronize()
        untouched = bool(torch.isnan(early.float()).all())
        s.synchronize()
        right = bool(torch.equal(c, ref))
        out[how] = {"untouched_while_stream_sleeps": untouched,
                    "right_after": right}
        print(f"stream {how}: untouched while it sleeps {untouched}, "
              f"right after {right}", flush=True)
        if not (untouched and right):
            fail(f"stream {how}: untouched {untouched}, right {right}")
    return out


class DLPackOnly:
    """A DLPack producer and nothing else (no torch type, no
    __cuda_array_interface__)."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


def other_arrays(f, gen):
    """The same GEMM through CuPy arrays (on CuPy's current stream) and
    DLPack producers, against the torch result."""
    import cupy
    out = {}
    m, n, k = 333, 517, 271
    a, b, _, _ = make_inputs("tn", m, n, k, "f16", gen)
    bias = rand((n,), "f32", gen)
    want = torch.empty(m, n, dtype=torch.float16, device="cuda")
    f(a, b, want, bias)
    torch.cuda.synchronize()
    ca, cb, cbias = (cupy.from_dlpack(t) for t in (a, b, bias))
    cc = cupy.zeros((m, n), dtype=cupy.float16)
    cupy.cuda.Device().synchronize()
    with cupy.cuda.Stream(non_blocking=True) as s:
        f(ca, cb, cc, cbias)
        s.synchronize()
    got = torch.from_dlpack(cc)
    out["cupy_equal"] = bool(torch.equal(got, want))
    c = torch.zeros(m, n, dtype=torch.float16, device="cuda")
    f(DLPackOnly(a), DLPackOnly(b), DLPackOnly(c), DLPackOnly(bias))
    torch.cuda.synchronize()
    out["dlpack_equal"] = bool(torch.equal(c, want))
    print(f"cupy equal {out['cupy_equal']}, dlpack equal "
          f"{out['dlpack_equal']}", flush=True)
    if not (out["cupy_equal"] and out["dlpack_equal"]):
        fail(f"other arrays: {out}")
    return out


def host_us_per_call(variants, calls=200, rounds=40):
    """Median and minimum host time (us) per call of each callable in
    `variants` ({name: fn}), over `rounds` rounds that each time a loop of
    `calls` calls of every variant, in a rotating order (no variant always
    runs first), each loop behind a sleep kernel long enough that the GPU
    never drains the queue (the host never waits for it). A first round is
    run and discarded."""
    for fn in variants.values():
        for _ in range(50):
            fn()
    torch.cuda.synchronize()
    times = {name: [] for name in variants}
    names = list(variants)
    for r in range(rounds + 1):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            fn = variants[name]
            torch.cuda._sleep(int(20e-3 * 2e9))  # 20 ms: > 200 x 50 us
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            elapsed = (time.perf_counter() - t0) / calls * 1e6
            torch.cuda.synchronize()
            if r:
                times[name].append(elapsed)
    return {name: {"median_us": statistics.median(t), "min_us": min(t),
                   "calls_per_loop": calls, "loops": rounds}
            for name, t in times.items()}


def gpu_us_per_call(fn, reps=200):
    """Median GPU time (us) of the work one call enqueues (CUDA events
    behind a sleep, as harness.time_fn)."""
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(int(50e-6 * 2e9))
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e) * 1e3)
    return statistics.median(times)


def overhead(f, gen):
    m = n = k = 64
    a, b, _, _ = make_inputs("tn", m, n, k, "f16", gen)
    c = torch.empty(m, n, dtype=torch.float16, device="cuda")
    bias = rand((n,), "f32", gen)
    kernel, _ = f.choose(m, n, k)
    # The runtime's launch alone, on arguments built once.
    argv, handle = f._convert((a, b, c, bias), None)
    launch = f._fn.launch
    one = torch.zeros(1, device="cuda")
    x = torch.randn(m, k, dtype=torch.float16, device="cuda")
    w = torch.randn(n, k, dtype=torch.float16, device="cuda")
    y = torch.empty(m, n, dtype=torch.float16, device="cuda")
    general = f._call
    rows = host_us_per_call({
        "gemm_mlir_call": lambda: f(a, b, c, bias),
        "gemm_mlir_general_path": lambda: general((a, b, c, bias), None),
        "runtime_launch_only": lambda: launch(argv, handle),
        "torch_empty_op_zero_": one.zero_,
        "torch_mm_out": lambda: torch.mm(x, w.t(), out=y),
    })
    gpu = {"gemm_mlir_kernel": gpu_us_per_call(lambda: f(a, b, c, bias)),
           "torch_mm": gpu_us_per_call(lambda: torch.mm(x, w.t(), out=y))}
    # What the Python layer adds to the runtime's launch of the same
    # arguments (the overhead above the launch itself).
    python_layer = (rows["gemm_mlir_call"]["median_us"]
                    - rows["runtime_launch_only"]["median_us"])
    result = {"shape": [m, n, k], "kernel": kernel,
              "epilogue": f.problem.epilogue, "host": rows,
              "gpu_us": gpu, "python_layer_us": python_layer,
              "budget_us": 10.0,
              "within_budget": rows["gemm_mlir_call"]["median_us"] < 10.0}
    for key, row in rows.items():
        print(f"host {key}: median {row['median_us']:.2f} us, min "
              f"{row['min_us']:.2f} us per call", flush=True)
    print(f"gpu: {gpu}; python layer {python_layer:.2f} us", flush=True)
    if not result["within_budget"]:
        fail(f"per-call host time {rows['gemm_mlir_call']['median_us']:.2f} "
             "us is over 10 us")
    return result


def main():
    out_path = sys.argv[1]
    torch.manual_seed(0)
    gen = torch.Generator(device="cuda").manual_seed(1)
    chip = gemm_mlir.device_chip()
    cache = os.environ.get("GEMM_MLIR_CACHE_DIR", "/tmp/gemm-mlir-cache")
    info = {"date": datetime.date.today().isoformat(),
            "device": torch.cuda.get_device_name(), "chip": chip,
            "torch": torch.__version__,
            "compiler": gemm_mlir.api._compiler()[0].version(),
            "python": sys.version.split()[0]}
    print(info, flush=True)

    # Compile every case at once: the C API releases the GIL.
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(len(CASES)) as pool:
        futures = {name: pool.submit(gemm_mlir.compile, case[0], chip=chip,
                                     cache_dir=cache)
                   for name, case in CASES.items()}
        functions = {name: fut.result() for name, fut in futures.items()}
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    again = gemm_mlir.compile(CASES["bias_gelu"][0], chip=chip,
                              cache_dir=cache)
    cached = time.perf_counter() - t0
    print(f"compiled {len(CASES)} problems in {cold:.1f} s (threads), "
          f"cached {cached * 1e3:.1f} ms; kernels of bias_gelu: "
          f"{again.kernels}", flush=True)
    checks = []
    for name, (problem, reference, shapes, batch) in CASES.items():
        checks += check_case(name, functions[name], reference, shapes, batch,
                             gen)
    # Padded rows (strided views; packing where a stride is unaligned).
    checks += check_case("bias_gelu", functions["bias_gelu"],
                         CASES["bias_gelu"][1],
                         [(333, 517, 271), (4099, 4097, 4095)], 1, gen, pad=3)
    checks += check_case("bias_gelu", functions["bias_gelu"],
                         CASES["bias_gelu"][1], [(512, 384, 1024)], 1, gen,
                         pad=8)

    result = {**info, "compile_seconds": {"cold_parallel": cold,
                                          "problems": len(CASES),
                                          "cached": cached},
              "checks": checks,
              "elements_checked": sum(r["elements"] for r in checks),
              "streams": stream_checks(functions["bias_gelu"], gen),
              "arrays": other_arrays(functions["bias_gelu"], gen),
              "overhead": overhead(functions["bias_gelu"], gen),
              "failures": failures}
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)
    print(f"{len(checks)} checks, {result['elements_checked']} elements, "
          f"{len(failures)} failures", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
