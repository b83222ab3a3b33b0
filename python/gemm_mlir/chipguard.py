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


def device_chip():
    """The current device's chip name, through CuPy (CUDA or ROCm)."""
    import cupy as cp
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
    arch = props.get("gcnArchName", b"")
    if isinstance(arch, bytes):
        arch = arch.decode()
    if arch:
        return arch
    return f"sm_{props['major']}{props['minor']}"


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
