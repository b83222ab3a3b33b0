"""The tuning space as the tuner sees it: configs in their JSON and
#gemm.config spellings, the calls to gemm-tune-space (the C++ lattice and cost
model; nothing here re-implements them) and the candidate grids sampled from
its lattice."""
import json
import os
import re
import subprocess

from .suites import shape_str


def tune_space_tool(build):
    """The gemm-tune-space binary of a build directory."""
    return os.path.join(build, "bin", "gemm-tune-space")


def parse_config(text):
    """The JSON form of a printed #gemm.config (as the manifest records it;
    printed defaults are elided: stages 2, smem swizzle, raster row, group 1)."""
    c = {"stages": 2, "smem": "swizzle", "raster": "row", "group": 1}
    for key, value in re.findall(r"(\w+) = (\[[^\]]*\]|\w+)", text):
        if value.startswith("["):
            c[key] = [int(x) for x in value[1:-1].split(",")]
        elif value.isdigit():
            c[key] = int(value)
        else:
            c[key] = value
    return c


def tune_space(tool, chip, cls, shapes, mode, top=0, params=(), configs=None):
    dtype, layout, _, tdtype, epi = cls
    cmd = [tool, f"--chip={chip}", f"--dtype={tdtype}", f"--layout={layout}",
           f"--epilogue={epi}", f"--mode={mode}"]
    if dtype == "i8":
        cmd.append("--c=i32")
    if top:
        cmd.append(f"--top={top}")
    cmd += [f"--shape={shape_str(s)}" for s in shapes]
    cmd += [f"--param={p}" for p in params]
    if configs is not None:
        path = f"/tmp/gemm-tune-configs-{os.getpid()}.json"
        json.dump(configs, open(path, "w"))
        cmd.append(f"--configs={path}")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def config_mlir(c):
    """The #gemm.config spelling of a JSON config (split_k, reduction, load,
    schedule and multicast when set). Before 2026-12-05 load and schedule were
    dropped: the tuner compiled the TMA members of the dispatch families
    (load = tma, tma_ws) as cp.async kernels (docs/tuning.md)."""
    extra = ""
    if c.get("split_k", 1) != 1:
        extra += f", split_k = {c['split_k']}"
    if c.get("reduction", "workspace") != "workspace":
        extra += f", reduction = {c['reduction']}"
    if c.get("load", "cp_async") != "cp_async":
        extra += f", load = {c['load']}"
    if "schedule" in c:
        extra += f", schedule = {c['schedule']}"
    if c.get("multicast", 1) != 1:
        extra += f", multicast = {c['multicast']}"
    return (f"#gemm.config<kind = {c['kind']}, block = {c['block']}, "
            f"warps = {c['warps']}, instr = {c['instr']}, stages = {c['stages']}, "
            f"smem = {c['smem']}, raster = {c['raster']}, group = {c['group']}"
            f"{extra}>")


def skinny_grid(points, stages=(3, 4, 6), bks=(64, 128)):
    """Small-M tiles (GEMV-like and LLM decode shapes): BM 16/32 on one warp
    row, 32/64-wide warp tiles in N, BK 64/128, 3/4/6 stages."""
    out = []
    for p in points:
        c = p["config"]
        bm, bn, bk = c["block"]
        if (c["kind"] != "simt" and c["smem"] == "swizzle" and bm in (16, 32)
                and c["warps"][0] == 1 and bn // c["warps"][1] in (32, 64)
                and bk in bks and c["stages"] in stages):
            out.append(c)
    return out


def compact_grid(points):
    """The region where the f16 sweep found the fast configs: 64x64, 64x32
    and 32x64 warp tiles, BM, BN >= 64, BK = 64, 3 stages."""
    out = []
    for p in points:
        c = p["config"]
        bm, bn, bk = c["block"]
        wt = (bm // c["warps"][0], bn // c["warps"][1])
        if (c["kind"] != "simt" and c["smem"] == "swizzle" and bm >= 64 and bn >= 64
                and wt in ((64, 64), (64, 32), (32, 64)) and bk == 64
                and c["stages"] == 3):
            out.append(c)
    return out


def broad_grid(points):
    """A broad sample of the lattice (filters gemm-tune-space's output):
    the tensor-core points with swizzled tiles, 32 or 64-wide warp tiles,
    BK 32/64, 2-4 stages, 2-8 warps; and a few points of
    other kinds (plain/padded tiles, SIMT, 1 stage) to test the model's
    ranking of bad choices."""
    grid, odd = [], []
    for p in points:
        c = p["config"]
        bm, bn, bk = c["block"]
        warps = c["warps"][0] * c["warps"][1]
        wtm, wtn = bm // c["warps"][0], bn // c["warps"][1]
        good = (c["kind"] != "simt" and c["smem"] == "swizzle"
                and wtm in (32, 64) and wtn in (32, 64) and bk in (32, 64)
                and 2 <= c["stages"] <= 4 and 2 <= warps <= 8)
        if good:
            grid.append(c)
        elif (bm, bn, bk) in ((128, 128, 64), (64, 64, 32)) and warps == 4 and (
                c["smem"] != "swizzle" or c["stages"] == 1 or c["kind"] == "simt"):
            odd.append(c)
    return grid + odd[::max(1, len(odd) // 8)][:8]
