#!/usr/bin/env python3
"""GPU checks of the runtime beyond the harness (scripts/gpu_run.sh runs them
on the GPU machine; needs PyTorch and the runtime's python/ folder on
PYTHONPATH):

  - concurrency: two families launched many times on two PyTorch streams at
    once (split-K workspaces allocated stream-ordered on each), every result
    checked;
  - host cost: microseconds per Function.launch from Python, against
    torch.matmul's on the same small GEMM;
  - the mgpu* ABI (libGemmRuntime.so through ctypes, as upstream
    gpu-to-llvm host code calls it): module load (cubin and PTX JIT),
    function lookup, a launch above 48 KiB of dynamic shared memory,
    streams, events, allocation, memset, memcpy.

Usage: gpu_check.py ART_DIR LIBGEMMRUNTIME [--out JSON]
ART_DIR holds artifact folders (the smoke set); g_f16_tn_none is used.
Exits non-zero on a wrong result.
"""
import argparse
import ctypes
import json
import math
import os
import pkgutil
import sys
import time

import torch

import gemm_mlir

gemm_mlir.__path__ = pkgutil.extend_path(gemm_mlir.__path__, gemm_mlir.__name__)
from gemm_mlir import _gemm_runtime as rt  # noqa: E402


def args_of(*tensors):
    return [(t.data_ptr(), tuple(t.shape), t.stride()) for t in tensors]


def rel_err(out, ref):
    return (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()


def check_concurrency(fn, report):
    """Decode-like split-K shapes on two streams at once, 50 rounds."""
    torch.manual_seed(0)
    shapes = [(8, 4096, 4096), (64, 64, 65536)]
    data = []
    for m, n, k in shapes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(n, k, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        data.append((a, b, c, (a.double() @ b.double().t())))
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    torch.cuda.synchronize()
    ran = set()
    worst = 0.0
    for _ in range(50):
        for (a, b, c, _), s in zip(data, streams):
            c.fill_(float("nan"))
        for (a, b, c, _), s in zip(data, streams):
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                ran.add(fn.launch(args_of(a, b, c), s.cuda_stream))
        torch.cuda.synchronize()
        for a, b, c, ref in data:
            worst = max(worst, rel_err(c, ref) if torch.isfinite(c).all() else math.inf)
    ok = worst < 1e-2
    report["concurrency"] = {"kernels": sorted(ran), "worst_error": worst, "ok": ok}
    print(f"concurrency: {sorted(ran)} worst error {worst:.2e} {'ok' if ok else 'WRONG'}")
    return ok


def check_host_cost(fn, report):
    m = n = k = 256
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(n, k, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    args = args_of(a, b, c)
    stream = torch.cuda.current_stream().cuda_stream
    for _ in range(10):
        fn.launch(args, stream)
    torch.cuda.synchronize()
    # Few enough calls that the launch queue never fills behind the sleep
    # (a full queue would make launches wait for the GPU).
    reps = 200

    def per_call(f):
        best = math.inf
        for _ in range(5):
            torch.cuda._sleep(int(2e9 * 0.05))  # the GPU busy: host time alone
            t0 = time.perf_counter()
            for _ in range(reps):
                f()
            best = min(best, (time.perf_counter() - t0) / reps * 1e6)
            torch.cuda.synchronize()
        return best

    ours = per_call(lambda: fn.launch(args, stream))
    plan = per_call(lambda: fn.plan(args))
    fill = per_call(lambda: c.fill_(0.0))
    bt = b.t()
    torch_us = per_call(lambda: torch.matmul(a, bt, out=c))
    report["host_us"] = {"launch": ours, "plan_only": plan, "torch_fill": fill,
                         "torch_matmul": torch_us, "kernel": fn.choose(m, n, k)[0]}
    print(f"host time per call (best of 5 x {reps}): launch {ours:.2f} us "
          f"(plan alone {plan:.2f} us; {fn.choose(m, n, k)[0]}), one PyTorch kernel "
          f"(fill_) {fill:.2f} us, torch.matmul {torch_us:.2f} us")
    return True


def check_mgpu(lib_path, art, report):
    """The upstream wrappers' ABI, on the family's default member."""
    lib = ctypes.CDLL(lib_path)
    vp, i64, i32, sz = ctypes.c_void_p, ctypes.c_int64, ctypes.c_int32, ctypes.c_size_t
    lib.mgpuModuleLoad.restype = vp
    lib.mgpuModuleLoad.argtypes = [vp, ctypes.c_uint64]
    lib.mgpuModuleLoadJIT.restype = vp
    lib.mgpuModuleLoadJIT.argtypes = [vp, ctypes.c_int]
    lib.mgpuModuleUnload.argtypes = [vp]
    lib.mgpuModuleGetFunction.restype = vp
    lib.mgpuModuleGetFunction.argtypes = [vp, ctypes.c_char_p]
    lib.mgpuLaunchKernel.argtypes = [vp, i64, i64, i64, i64, i64, i64, i32, vp,
                                     ctypes.POINTER(vp), ctypes.POINTER(vp), sz]
    lib.mgpuGemmTensorMap.restype = vp
    lib.mgpuGemmTensorMap.argtypes = [i64, i64, vp] + [i64] * 10
    lib.mgpuStreamCreate.restype = vp
    for f in ("mgpuStreamDestroy", "mgpuStreamSynchronize", "mgpuEventDestroy",
              "mgpuEventSynchronize"):
        getattr(lib, f).argtypes = [vp]
    lib.mgpuStreamWaitEvent.argtypes = [vp, vp]
    lib.mgpuEventCreate.restype = vp
    lib.mgpuEventRecord.argtypes = [vp, vp]
    lib.mgpuMemAlloc.restype = vp
    lib.mgpuMemAlloc.argtypes = [ctypes.c_uint64, vp, ctypes.c_bool]
    lib.mgpuMemFree.argtypes = [vp, vp]
    lib.mgpuMemcpy.argtypes = [vp, vp, sz, vp]
    lib.mgpuMemset32.argtypes = [vp, ctypes.c_uint, sz, vp]
    lib.mgpuMemset16.argtypes = [vp, ctypes.c_ushort, sz, vp]
    lib.mgpuSetDefaultDevice.argtypes = [i32]

    manifest = json.load(open(os.path.join(art, "manifest.json")))
    entry = manifest["kernels"][-1]  # the default: the largest shared memory
    obj = manifest["objects"][0]
    ptx_path = os.path.join(art, obj["file"])
    cubin_path = os.path.splitext(ptx_path)[0] + ".cubin"
    ok = True
    lib.mgpuSetDefaultDevice(torch.cuda.current_device())
    stream = lib.mgpuStreamCreate()
    results = {}
    for label, loader in (("cubin", lambda: lib.mgpuModuleLoad(
                              ctypes.c_char_p(open(cubin_path, "rb").read()),
                              os.path.getsize(cubin_path))),
                          ("ptx-jit", lambda: lib.mgpuModuleLoadJIT(
                              ctypes.c_char_p(open(ptx_path, "rb").read() + b"\0"), 2))):
        if label == "cubin" and not os.path.exists(cubin_path):
            continue
        module = loader()
        fn = lib.mgpuModuleGetFunction(module, entry["name"].encode())
        m, n, k = 300, 520, 256
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(n, k, device="cuda", dtype=torch.float16)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        torch.cuda.synchronize()
        values = []
        for t in (a, b, c):
            values += [ctypes.c_void_p(t.data_ptr()), ctypes.c_void_p(t.data_ptr()), i64(0)]
            values += [i64(s) for s in t.shape] + [i64(s) for s in t.stride()]
        # A TMA kernel takes the tensor maps of A and B last: built by
        # mgpuGemmTensorMap for the cubin, null for the PTX (the kernel's
        # cp.async fallback), so that both paths run through this ABI.
        for tmap, t in zip(entry.get("tensor_maps", []), (a, b)):
            ptr = None
            if label == "cubin":
                box = tmap["box"] + [1] * (3 - len(tmap["box"]))
                ptr = lib.mgpuGemmTensorMap(1, 2, ctypes.c_void_p(t.data_ptr()), 0,
                                            *t.shape, 1, *t.stride(), 0, *box)
                ok &= bool(ptr)
            values.append(ctypes.c_void_p(ptr))
        params = (vp * len(values))(*[ctypes.cast(ctypes.pointer(v), vp) for v in values])
        tiles = math.ceil(m / entry["grid"]["tile_m"]) * math.ceil(n / entry["grid"]["tile_n"])
        cluster = entry["grid"].get("cluster_x", 1)  # multicast pairs
        tiles = math.ceil(tiles / cluster) * cluster
        blk = entry["block"]
        lib.mgpuLaunchKernel(fn, tiles, 1, 1, blk[0], blk[1], blk[2],
                             entry["dynamic_shared_memory"], stream, params, None, len(values))
        event = lib.mgpuEventCreate()
        lib.mgpuEventRecord(event, stream)
        lib.mgpuEventSynchronize(event)
        lib.mgpuEventDestroy(event)
        err = rel_err(c, a.double() @ b.double().t()) if torch.isfinite(c).all() else math.inf
        results[label] = {"kernel": entry["name"], "smem": entry["dynamic_shared_memory"],
                          "error": err}
        ok &= err < 1e-2
        print(f"mgpu {label}: {entry['name']} ({entry['dynamic_shared_memory']} bytes "
              f"of dynamic shared memory) error {err:.2e}")
        lib.mgpuModuleUnload(module)

    # Memory: alloc, memset32/16, memcpy device->device, free; a second
    # stream ordered after the first through an event.
    count = 1 << 16
    p = lib.mgpuMemAlloc(count * 4, stream, False)
    lib.mgpuMemset32(p, 0x3F800000, count, stream)  # 1.0f
    out = torch.zeros(count, device="cuda", dtype=torch.float32)
    other = lib.mgpuStreamCreate()
    event = lib.mgpuEventCreate()
    lib.mgpuEventRecord(event, stream)
    lib.mgpuStreamWaitEvent(other, event)
    lib.mgpuMemcpy(ctypes.c_void_p(out.data_ptr()), p, count * 4, other)
    lib.mgpuStreamSynchronize(other)
    lib.mgpuMemset16(p, 0x3C00, 2 * count, stream)  # 1.0 in f16
    half = torch.zeros(2 * count, device="cuda", dtype=torch.float16)
    lib.mgpuMemcpy(ctypes.c_void_p(half.data_ptr()), p, count * 4, stream)
    lib.mgpuStreamSynchronize(stream)
    mem_ok = bool((out == 1.0).all()) and bool((half == 1.0).all())
    lib.mgpuMemFree(p, stream)
    lib.mgpuEventDestroy(event)
    lib.mgpuStreamDestroy(other)
    lib.mgpuStreamDestroy(stream)
    results["memory"] = mem_ok
    print(f"mgpu memory (alloc, memset32/16, memcpy, events): {'ok' if mem_ok else 'WRONG'}")
    report["mgpu"] = results
    return ok and mem_ok


def main():
    p = argparse.ArgumentParser()
    p.add_argument("art")
    p.add_argument("lib")
    p.add_argument("--out", default="")
    a = p.parse_args()
    art = os.path.join(a.art, "g_f16_tn_none")
    torch.cuda.init()
    fn = rt.Module(art).function("g_f16_tn_none")
    report = {"gpu": torch.cuda.get_device_name()}
    ok = check_concurrency(fn, report)
    ok &= check_host_cost(fn, report)
    ok &= check_mgpu(a.lib, art, report)
    report["ok"] = bool(ok)
    if a.out:
        json.dump(report, open(a.out, "w"), indent=1)
    print("gpu_check:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
