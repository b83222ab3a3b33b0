#!/usr/bin/env python3
"""Prints how many thread-block clusters of each size the GPU runs at once
for one kernel (cuOccupancyMaxActiveClusters), and so how many blocks a
one-wave clustered grid may hold. The `reduction = cluster` split-K members
fill the GPU with clusters of (1, S, 1) blocks (docs/dispatch.md); this is
the measurement behind their fill target.

  scripts/cluster_occupancy.py CUBIN KERNEL DYNAMIC_SMEM THREADS
"""
import ctypes
import sys


class LaunchAttr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint),
                ("rest", ctypes.c_char * 52)]


class LaunchConfig(ctypes.Structure):
    _fields_ = [("gx", ctypes.c_uint), ("gy", ctypes.c_uint), ("gz", ctypes.c_uint),
                ("bx", ctypes.c_uint), ("by", ctypes.c_uint), ("bz", ctypes.c_uint),
                ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(LaunchAttr)), ("n", ctypes.c_uint)]


def main():
    cubin, kernel, smem, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    cu = ctypes.CDLL("libcuda.so.1")
    def check(r, what):
        if r != 0:
            raise SystemExit(f"{what} failed: CUresult {r}")
    check(cu.cuInit(0), "cuInit")
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    check(cu.cuModuleLoad(ctypes.byref(mod), cubin.encode()), "cuModuleLoad")
    check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, kernel.encode()), "cuModuleGetFunction")
    # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    check(cu.cuFuncSetAttribute(fn, 8, smem), "cuFuncSetAttribute")
    sms = ctypes.c_int()
    check(cu.cuDeviceGetAttribute(ctypes.byref(sms), 16, dev), "cuDeviceGetAttribute")
    print(f"{kernel}: {smem} bytes of dynamic shared memory, {threads} threads, "
          f"{sms.value} SMs")
    for size in range(1, 9):
        attr = LaunchAttr(id=4, x=1, y=size, z=1)  # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        cfg = LaunchConfig(gx=1, gy=size, gz=1, bx=threads, by=1, bz=1, smem=smem,
                           stream=None, attrs=ctypes.pointer(attr), n=1)
        n = ctypes.c_int()
        r = cu.cuOccupancyMaxActiveClusters(ctypes.byref(n), fn, ctypes.byref(cfg))
        if r != 0:
            print(f"  cluster of {size}: CUresult {r}")
            continue
        print(f"  cluster of {size}: {n.value} clusters at once = {n.value * size} blocks")


if __name__ == "__main__":
    main()
