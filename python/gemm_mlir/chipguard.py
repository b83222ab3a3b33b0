#!/usr/bin/env python3
"""The chip guard: a kernel compiled for one chip must never run elsewhere.

gemm-mlir records the chip of every kernel in manifest.json (`kernels[].chip`,
`objects[].chip`). A code object for another chip either fails to load or, in
some runtimes, makes the launch a silent no-op that leaves the output
untouched (the Neko seed's lesson). Loaders call `check_chip` before the first
launch and get a loud `ChipMismatch` instead.

Rules:
  AMD (gfxNNN):   the device's gcnArchName (e.g. "gfx942:sramecc+:xnack-")
                  must name the same processor; HSACO is not portable.
  NVIDIA (sm_XY): a cubin runs on the same major version with a minor at least
                  the chip's (sm_XYa: exactly that chip); PTX JIT-compiles on
                  any device at least that new.
"""
import re


class ChipMismatch(RuntimeError):
    pass


def _sm(chip):
    m = re.fullmatch(r"sm_(\d+?)(\d)(a?)", chip)
    if not m:
        raise ChipMismatch(f"unrecognized NVIDIA chip '{chip}'")
    return int(m.group(1)), int(m.group(2)), m.group(3) == "a"


def check_chip(kernel_chip, device_chip, fmt="bin"):
    """Raises ChipMismatch unless a `fmt` ("bin" or "isa") object compiled
    for `kernel_chip` may run on a device identified by `device_chip`
    ("sm_90", or an AMD gcnArchName)."""
    if kernel_chip.startswith("gfx"):
        device = device_chip.split(":")[0]
        if device != kernel_chip:
            raise ChipMismatch(
                f"kernel compiled for {kernel_chip} cannot run on {device_chip}; "
                f"recompile with chip={device}")
        return
    kmaj, kmin, karch = _sm(kernel_chip)
    if not device_chip.startswith("sm_"):
        raise ChipMismatch(
            f"kernel compiled for {kernel_chip} cannot run on {device_chip}")
    dmaj, dmin, _ = _sm(device_chip)
    if fmt == "isa":
        ok = (dmaj, dmin) >= (kmaj, kmin) and not karch
        ok = ok or (karch and (dmaj, dmin) == (kmaj, kmin))
    else:
        ok = dmaj == kmaj and dmin >= kmin and (not karch or dmin == kmin)
    if not ok:
        raise ChipMismatch(
            f"{'PTX' if fmt == 'isa' else 'cubin'} compiled for {kernel_chip} "
            f"cannot run on {device_chip}; recompile with chip={device_chip}")


def device_chip(device=None):
    """The chip name of a CUDA or ROCm device as the driver reports it
    ("sm_90" for compute capability 9.0, the gcnArchName on ROCm), through
    torch or CuPy, whichever is importable. `device` is an index or None
    (the current device)."""
    try:
        import torch
        if torch.cuda.is_available():
            index = torch.cuda.current_device() if device is None else device
            props = torch.cuda.get_device_properties(index)
            # CUDA builds fill gcnArchName with the device name.
            if getattr(torch.version, "hip", None) and props.gcnArchName:
                return props.gcnArchName
            return f"sm_{props.major}{props.minor}"
    except ImportError:
        pass
    try:
        import cupy
        dev = cupy.cuda.Device(device)
        if getattr(cupy.cuda.runtime, "is_hip", False):
            props = cupy.cuda.runtime.getDeviceProperties(dev.id)
            return props["gcnArchName"].decode()
        major, minor = divmod(int(dev.compute_capability), 10)
        return f"sm_{major}{minor}"
    except ImportError:
        pass
    raise ValueError("chip: no CUDA device found through torch or CuPy")


if __name__ == "__main__":
    # Self-test (run by test/Python/chipguard.test).
    cases = [("gfx942", "gfx942:sramecc+:xnack-", "bin", True),
             ("gfx942", "gfx90a:sramecc+:xnack-", "bin", False),
             ("gfx90a", "gfx942", "bin", False),
             ("gfx942", "sm_90", "bin", False),
             ("sm_90", "gfx942:sramecc+:xnack-", "bin", False),
             ("sm_80", "sm_86", "bin", True),
             ("sm_86", "sm_80", "bin", False),
             ("sm_80", "sm_90", "bin", False),
             ("sm_80", "sm_90", "isa", True),
             ("sm_90a", "sm_90", "bin", True),
             ("sm_90a", "sm_100", "isa", False),
             ("sm_90", "sm_90", "bin", True)]
    for kernel, device, fmt, ok in cases:
        try:
            check_chip(kernel, device, fmt)
            got = True
        except ChipMismatch as e:
            got = False
            msg = str(e)
        status = "ok" if got == ok else "WRONG"
        print(f"{status} {kernel} on {device} ({fmt}): "
              f"{'runs' if got else 'refused: ' + msg}")
