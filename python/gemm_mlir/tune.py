#!/usr/bin/env python3
"""The gemm-mlir tuner, in two halves (design.md sections 2 and 6).

Local half (here, where gemm-opt and gemm-tune-space are built):

  tune.py prepare OUT [--suite validation|db] [--top N] [--grid]
      Asks gemm-tune-space (the C++ lattice and cost model; nothing here
      re-implements them) for the candidates of each problem class: the
      Pareto frontier's fastest points and the model's pick for every shape
      of the suite, optionally a broad grid of the lattice; writes one
      gemm.matmul per (class, candidate) with dynamic M/N/K (one kernel
      serves every shape), compiles each with gemm-opt to PTX + manifest
      (failures are recorded, never chosen) and writes OUT/plan.json.

Device half (on the GPU machine, with OUT carried; needs only CUDA, CuPy and
PyTorch):

  tune.py measure OUT --results DIR
      Assembles every PTX with ptxas (registers/spills recorded), then per
      class and shape: random inputs, a float64 reference, cuBLAS timed on the
      same inputs; each candidate is launched on a NaN-poisoned output and
      checked, then timed with CUDA events (warm-up, median). One log line
      per candidate (class, shape, config, TFLOP/s, status). Writes
      DIR/measurements.json (every candidate) and DIR/tuning-db.json (the
      fastest correct candidate per class and shape).

Local again:

  tune.py report MEASUREMENTS [--param NAME=VALUE ...] [--markdown FILE]
      Evaluates the cost model on the measured candidates and on the whole
      lattice (its pick), and reports per shape the best measured config, the
      model pick's measured ratio to it, the fraction of shapes at >= 0.9 and
      the Spearman rank correlation of predicted vs measured time.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# --------------------------------------------------------------------------
# Problem suites
# --------------------------------------------------------------------------

SQUARE = [(s, s, s) for s in (512, 1024, 2048, 3072, 4096, 6144, 8192)]
LLM = [(m, n, k) for m in (1, 16, 128, 4096)
       for (n, k) in ((4096, 4096), (11008, 4096), (4096, 11008), (14336, 4096))]
TALL_SKINNY = [(16384, 64, 4096), (16384, 256, 1024), (8192, 128, 8192),
               (64, 16384, 4096)]
RAGGED = [(4099, 4097, 4095), (1000, 1000, 1000), (2049, 2047, 2051),
          (777, 333, 1024), (3001, 1999, 5003)]
VALIDATION_SHAPES = list(dict.fromkeys(SQUARE + LLM + TALL_SKINNY + RAGGED))
# Fewer shapes for the other classes of the shipped database.
DB_SHAPES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096),
             (8192, 8192, 8192), (16, 4096, 4096), (128, 11008, 4096),
             (4096, 14336, 4096), (4099, 4097, 4095)]

# Problem classes: (dtype as cases.py names it, layout, cases.py epilogue,
# gemm-tune-space dtype, epilogue class).
VALIDATION_CLASSES = [("f16", "tn", "none", "f16", "none")]
DB_CLASSES = [("f16", "nn", "none", "f16", "none"),
              ("bf16", "tn", "none", "bf16", "none"),
              ("f16", "tn", "bias_col_relu", "f16", "elementwise"),
              ("f16", "tn", "linear", "f16", "reads_c"),
              ("i8", "tn", "none", "i8", "none")]


def parse_config(text):
    """The JSON form of a printed #gemm.config (as the manifest records it;
    printed defaults are elided: stages 2, smem swizzle, raster row, group 1)."""
    import re
    c = {"stages": 2, "smem": "swizzle", "raster": "row", "group": 1}
    for key, value in re.findall(r"(\w+) = (\[[^\]]*\]|\w+)", text):
        if value.startswith("["):
            c[key] = [int(x) for x in value[1:-1].split(",")]
        elif value.isdigit():
            c[key] = int(value)
        else:
            c[key] = value
    return c


def shape_str(s):
    return "x".join(str(d) for d in s)


def class_key(cls):
    return f"{cls[0]}_{cls[1]}_{cls[2]}"


# --------------------------------------------------------------------------
# Local half
# --------------------------------------------------------------------------

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
    """The #gemm.config spelling of a JSON config."""
    return (f"#gemm.config<kind = {c['kind']}, block = {c['block']}, "
            f"warps = {c['warps']}, instr = {c['instr']}, stages = {c['stages']}, "
            f"smem = {c['smem']}, raster = {c['raster']}, group = {c['group']}>")


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


def cmd_prepare(a):
    import cases
    tool = os.path.join(a.build, "bin", "gemm-tune-space")
    opt = os.path.join(a.build, "bin", "gemm-opt")
    os.makedirs(a.out, exist_ok=True)
    classes = []
    if a.suite in ("validation", "all"):
        classes += [(c, VALIDATION_SHAPES, True) for c in VALIDATION_CLASSES]
    if a.suite in ("db", "all"):
        classes += [(c, DB_SHAPES, False) for c in DB_CLASSES]
    if a.classes:
        classes = [c for c in classes if class_key(c[0]) in a.classes.split(",")]
    plan = {"chip": a.chip, "classes": []}
    jobs = []
    for cls, shapes, grid in classes:
        cands = {}

        def add(c, why):
            key = config_mlir(c)
            if key not in cands:
                cands[key] = {"config": c, "why": set()}
            cands[key]["why"].add(why)

        if a.top >= 0:
            front = tune_space(tool, a.chip, cls, shapes, "frontier", a.top, params=a.param)
            for prob in front["problems"]:
                for i, p in enumerate(prob["points"]):
                    add(p["config"], "pick" if p["rank"] == 0 else "frontier")
        if a.model_top:
            # The model's fastest points over the whole lattice, per shape,
            # under each parameter set given (--param-set).
            for pset in [a.param] + [ps.split(",") for ps in a.param_set]:
                lat = tune_space(tool, a.chip, cls, shapes, "lattice", a.model_top, params=pset)
                for prob in lat["problems"]:
                    for p in prob["points"]:
                        add(p["config"], "pick" if p["rank"] == 0 else "model-top")
        for c in a.extra:
            add(json.loads(c), "extra")
        if a.extra_file:
            for line in open(a.extra_file):
                e = json.loads(line)
                if e["class"] == class_key(cls):
                    add(e["config"], e.get("why", "extra"))
        if a.grid:
            pts = tune_space(tool, a.chip, cls, [shapes[0]], "lattice")["problems"][0]["points"]
            sample = (broad_grid(pts) + skinny_grid(pts) if grid else
                      compact_grid(pts) + skinny_grid(pts, stages=(4,), bks=(128,)))
            for c in sample:
                add(c, "grid")
        key = class_key(cls)
        entries = []
        for i, (cfg_str, c) in enumerate(sorted(cands.items())):
            name = f"t_{key}_c{i}"
            text, meta = cases.build_case(name, cls[0], cls[1], cls[2], cfg_str)
            src = os.path.join(a.out, "src", name + ".mlir")
            os.makedirs(os.path.dirname(src), exist_ok=True)
            open(src, "w").write(text)
            entries.append({"name": name, "config": c["config"], "config_str": cfg_str,
                            "why": sorted(c["why"]), "meta": meta})
            jobs.append((name, src))
        # The lowering's per-type default (no config) as a reference point.
        name = f"t_{key}_default"
        text, meta = cases.build_case(name, cls[0], cls[1], cls[2])
        src = os.path.join(a.out, "src", name + ".mlir")
        open(src, "w").write(text)
        entries.append({"name": name, "config": None, "config_str": "default",
                        "why": ["default"], "meta": meta})
        jobs.append((name, src))
        plan["classes"].append({"key": key, "dtype": cls[0], "layout": cls[1],
                                "epilogue": cls[2], "tune_dtype": cls[3],
                                "epilogue_class": cls[4],
                                "shapes": [list(s) for s in shapes],
                                "candidates": entries})
        print(f"{key}: {len(entries)} candidates", flush=True)

    def compile_one(job):
        name, src = job
        t0 = time.time()
        r = subprocess.run([opt, src, f"--gemm-to-ptx=chip={a.chip} output-dir="
                            + os.path.join(a.out, name), "-o", "/dev/null"],
                           capture_output=True, text=True)
        return name, r.returncode, r.stderr[-2000:], time.time() - t0

    failures = {}
    done = 0
    with ThreadPoolExecutor(a.jobs) as pool:
        for name, rc, err, dt in pool.map(compile_one, jobs):
            done += 1
            if rc:
                failures[name] = err
                print(f"[{done}/{len(jobs)}] COMPILE-FAIL {name}: {err.strip().splitlines()[0] if err.strip() else rc}",
                      flush=True)
            elif done % 20 == 0:
                print(f"[{done}/{len(jobs)}] compiled ({dt:.1f}s each)", flush=True)
    for cls in plan["classes"]:
        for c in cls["candidates"]:
            c["compile_error"] = failures.get(c["name"], "")
    json.dump(plan, open(os.path.join(a.out, "plan.json"), "w"), indent=1)
    print(f"{len(jobs)} kernels, {len(failures)} compile failures -> {a.out}")


# --------------------------------------------------------------------------
# Device half
# --------------------------------------------------------------------------

def cmd_measure(a):
    import math
    import numpy as np
    import torch
    import harness

    os.makedirs(a.results, exist_ok=True)
    log = open(os.path.join(a.results, "tune-log.txt"), "a")

    def say(line):
        print(line, flush=True)
        log.write(line + "\n")

    plan = json.load(open(os.path.join(a.art, "plan.json")))
    # Assemble every PTX (parallel ptxas), keeping ptxas -v.
    ptx = []
    for cls in plan["classes"]:
        for c in cls["candidates"]:
            if not c["compile_error"]:
                d = os.path.join(a.art, c["name"])
                ptx += [(c["name"], os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".ptx")]

    def assemble(item):
        name, path = item
        r = subprocess.run(["ptxas", "-arch=sm_90", "-v", path, "-o", path[:-4] + ".cubin"],
                           capture_output=True, text=True)
        regs = spill = None
        for line in r.stderr.splitlines():
            if "Used" in line and "registers" in line:
                regs = int(line.split("Used")[1].split("registers")[0])
            if "spill stores" in line:
                spill = int(line.split("bytes spill stores")[0].split(",")[-1])
        return name, r.returncode, regs, spill, r.stderr[-500:]

    t0 = time.time()
    ptxas = {}
    with ThreadPoolExecutor(os.cpu_count() or 8) as pool:
        for name, rc, regs, spill, err in pool.map(assemble, ptx):
            ptxas[name] = {"rc": rc, "registers": regs, "spill_bytes": spill, "error": err if rc else ""}
    say(f"ptxas: {len(ptx)} kernels in {time.time() - t0:.1f}s, "
        f"{sum(1 for v in ptxas.values() if v['rc'])} failures")

    gen = torch.Generator(device="cuda").manual_seed(2026)
    rows = []
    db_entries = []
    gpu = torch.cuda.get_device_name()
    total = sum(len(c["candidates"]) * len(c["shapes"]) for c in plan["classes"])
    count = 0
    t_start = time.time()
    for cls in plan["classes"]:
        kernels = {}
        for c in cls["candidates"]:
            if c["compile_error"] or ptxas.get(c["name"], {}).get("rc", 1):
                continue
            try:
                kernels[c["name"]] = harness.load_kernels(os.path.join(a.art, c["name"]))[c["name"]]
                kernels[c["name"]].meta = c["meta"]
            except Exception as ex:  # a kernel that does not load is reported
                say(f"LOAD-FAIL {c['name']}: {ex}")
        ab, ct = cls["candidates"][0]["meta"]["a_type"], cls["candidates"][0]["meta"]["c_type"]
        for shape in cls["shapes"]:
            m, n, kk = shape
            flops = 2.0 * m * n * kk
            a_, b_, a_mk, b_kn = harness.make_inputs(cls["layout"], m, n, kk, ab, gen)
            extras, extra_vals = [], []
            for x in cls["candidates"][0]["meta"]["extras"]:
                if x["broadcast"] == "scalar":
                    v = 0.75 if not extras else 0.5
                    extras.append(v); extra_vals.append(v)
                else:
                    et = x["type"].split("x")[-1].rstrip(">")
                    t = harness.rand((n,) if x["broadcast"] == "col" else (m,), et, gen)
                    extras.append(t); extra_vals.append(t)
            c0 = harness.rand((m, n), ct, gen) if cls["epilogue"] == "linear" else None
            acc = a_mk.double() @ b_kn.double()
            ref = harness.reference(cls["candidates"][0]["meta"], acc,
                                    c0.double() if c0 is not None else None, extra_vals)
            ref_norm = max(torch.linalg.norm(ref).item(), 1e-30)
            reps = a.reps or max(5, min(30, int(3e12 / flops)))
            # cuBLAS on the same inputs (plain GEMM; epilogue classes add
            # nothing to it).
            try:
                if cls["dtype"] == "i8":
                    lib = lambda: torch._int_mm(a_mk, b_kn)
                else:
                    lib = lambda: torch.matmul(a_mk, b_kn)
                cublas_ms = harness.time_fn(lib, reps)
            except RuntimeError:
                cublas_ms = float("nan")
            tol = harness.tolerance(cls["candidates"][0]["meta"])
            best = None
            for c in cls["candidates"]:
                count += 1
                name = c["name"]
                row = {"class": cls["key"], "m": m, "n": n, "k": kk, "name": name,
                       "config": c["config"], "config_str": c["config_str"],
                       "why": c["why"], "cublas_ms": cublas_ms,
                       "registers": ptxas.get(name, {}).get("registers"),
                       "spill_bytes": ptxas.get(name, {}).get("spill_bytes")}
                if c["compile_error"]:
                    row.update(status="COMPILE-FAIL", ms=None)
                elif name not in kernels:
                    row.update(status="LOAD-FAIL", ms=None)
                else:
                    k = kernels[name]
                    out = torch.empty((m, n), dtype=harness.TORCH_DTYPES[ct], device="cuda")
                    if c0 is not None:
                        out.copy_(c0)
                    else:
                        out.fill_(float("nan") if ct not in ("i8", "i32") else -77)
                    try:
                        k.launch([a_, b_, out] + extras, m, n)
                        torch.cuda.synchronize()
                        o = out.double()
                        if torch.isnan(o).any():
                            err = float("inf")
                        elif tol == 0.0:
                            err = 0.0 if bool((o == ref).all()) else float("inf")
                        else:
                            err = torch.linalg.norm(o - ref).item() / ref_norm
                        ok = err <= tol if tol else err == 0.0
                        if ok:
                            # (An epilogue reading C reads the previous
                            # launch's output: same traffic, same time.)
                            ms = harness.time_fn(lambda: k.launch([a_, b_, out] + extras, m, n), reps)
                            row.update(status="ok", ms=ms, error=err)
                        else:
                            row.update(status="WRONG", ms=None, error=err)
                    except Exception as ex:
                        row.update(status="LAUNCH-FAIL", ms=None, error=str(ex)[:200])
                if row.get("ms"):
                    row["tflops"] = flops / row["ms"] / 1e9
                    if best is None or row["ms"] < best["ms"]:
                        best = row
                rows.append(row)
                tf = f"{row['tflops']:7.1f} TF/s" if row.get("tflops") else "      -     "
                say(f"[{count}/{total} {time.time() - t_start:5.0f}s] {cls['key']:22s} "
                    f"{shape_str(shape):>16s} {tf}  {row['status']:12s} "
                    f"{c['config_str'] if c['config'] else 'default'}")
            cub = flops / cublas_ms / 1e9 if cublas_ms == cublas_ms else float("nan")
            if best:
                say(f"BEST {cls['key']} {shape_str(shape)}: {best['tflops']:.1f} TF/s "
                    f"(cuBLAS {cub:.1f}) {best['config_str']}")
                if not best["config"]:
                    # The lowering's default won: record what it is.
                    best = dict(best, config=parse_config(kernels[best["name"]].entry["config"]))
                if best["config"]:
                    db_entries.append({"arch": plan["chip"], "dtype": cls["tune_dtype"],
                                       "acc": best_acc(cls), "layout": cls["layout"],
                                       "epilogue": cls["epilogue_class"],
                                       "m": m, "n": n, "k": kk, "config": best["config"],
                                       "tflops": round(best["tflops"], 1),
                                       "cublas_tflops": round(cub, 1) if cub == cub else None})
            del a_, b_, a_mk, b_kn, acc, ref
            torch.cuda.empty_cache()
        # Written after every class: a run cut short keeps what it measured.
        write_results(a.results, gpu, plan["chip"], t_start, ptxas, rows, db_entries)
    bad = sum(1 for r in rows if r["status"] not in ("ok",))
    say(f"{len(rows)} measurements, {bad} not ok, {len(db_entries)} database entries, "
        f"{time.time() - t_start:.0f}s")


def write_results(results, gpu, chip, t_start, ptxas, rows, db_entries):
    import torch
    meta = {"gpu": gpu, "torch": torch.__version__, "date": time.strftime("%Y-%m-%d"),
            "chip": chip, "seconds": time.time() - t_start}
    json.dump({"meta": meta, "ptxas": ptxas, "rows": rows},
              open(os.path.join(results, "measurements.json"), "w"), indent=0)
    db = {"schema": "gemm-mlir-tuning-db", "version": 1,
          "device": gpu, "date": meta["date"],
          "generator": "python/gemm_mlir/tune.py measure", "entries": db_entries}
    json.dump(db, open(os.path.join(results, "tuning-db.json"), "w"), indent=1)


def best_acc(cls):
    return {"i8": "i32", "f64": "f64"}.get(cls["dtype"], "f32")


# --------------------------------------------------------------------------
# Model validation
# --------------------------------------------------------------------------

def spearman(xs, ys):
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for t in range(i, j + 1):
                r[order[t]] = (i + j) / 2.0
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else 0.0


def evaluate(rows_by_shape, tool, chip, cls, params):
    """Per shape: measured candidates with their model cost, the model's
    lattice pick; returns a list of per-shape dicts."""
    out = []
    for shape, rows in sorted(rows_by_shape.items()):
        ok = [r for r in rows if r["status"] == "ok" and r["config"]]
        if not ok:
            continue
        ev = tune_space(tool, chip, cls, [shape], "eval", params=params,
                        configs=[r["config"] for r in ok])
        pts = ev["problems"][0]["points"]
        pred = [p["cost"]["time_us"] for p in pts]
        meas = [r["ms"] for r in ok]
        pick = tune_space(tool, chip, cls, [shape], "pick", params=params)["problems"][0]["points"][0]
        pick_str = config_mlir(pick["config"])
        best = min(ok, key=lambda r: r["ms"])
        measured_pick = [r for r in ok if config_mlir(r["config"]) == pick_str]
        # The model's choice among the measured candidates, too.
        among = ok[min(range(len(ok)), key=lambda i: pred[i])]
        default = [r for r in rows if r["status"] == "ok" and not r["config"]]
        out.append({
            "shape": list(shape), "n_measured": len(ok),
            "best_config": best["config_str"], "best_tflops": best["tflops"],
            "cublas_tflops": (2.0 * shape[0] * shape[1] * shape[2] / best["cublas_ms"] / 1e9
                              if best["cublas_ms"] == best["cublas_ms"] else None),
            "pick_config": pick_str,
            "pick_measured": bool(measured_pick),
            "pick_tflops": measured_pick[0]["tflops"] if measured_pick else None,
            "pick_ratio": measured_pick[0]["tflops"] / best["tflops"] if measured_pick else None,
            "among_ratio": among["tflops"] / best["tflops"],
            "default_ratio": default[0]["tflops"] / best["tflops"] if default else None,
            "pick_predicted_tflops": pick["cost"]["tflops"],
            "spearman": spearman(pred, meas),
        })
    return out


def summarize(per_shape):
    ratios = [s["pick_ratio"] for s in per_shape if s["pick_ratio"] is not None]
    among = [s["among_ratio"] for s in per_shape]
    rho = [s["spearman"] for s in per_shape]
    return {
        "shapes": len(per_shape),
        "pick_measured": len(ratios),
        "pick_fraction_ge_0.9": sum(r >= 0.9 for r in ratios) / max(1, len(per_shape)),
        "among_fraction_ge_0.9": sum(r >= 0.9 for r in among) / max(1, len(among)),
        "spearman_mean": statistics.mean(rho) if rho else 0,
        "spearman_median": statistics.median(rho) if rho else 0,
        "pick_ratio_median": statistics.median(ratios) if ratios else None,
        "default_fraction_ge_0.9": (sum((s["default_ratio"] or 0) >= 0.9 for s in per_shape)
                                    / max(1, len(per_shape))),
    }


def load_rows(paths):
    rows = []
    for p in paths:
        rows += json.load(open(p))["rows"]
    return rows


def cmd_report(a):
    tool = os.path.join(a.build, "bin", "gemm-tune-space")
    rows = load_rows(a.measurements)
    classes = {c[0] + "_" + c[1] + "_" + c[2]: c for c in VALIDATION_CLASSES + DB_CLASSES}
    result = {}
    md = []
    for key in sorted({r["class"] for r in rows}):
        if a.only and key != a.only:
            continue
        cls = classes[key]
        by_shape = {}
        for r in rows:
            if r["class"] == key:
                by_shape.setdefault((r["m"], r["n"], r["k"]), []).append(r)
        per_shape = evaluate(by_shape, tool, a.chip, cls, a.param)
        summ = summarize(per_shape)
        result[key] = {"summary": summ, "shapes": per_shape}
        print(f"== {key}: {json.dumps(summ)}")
        md.append(f"### {key}\n")
        md.append("| M x N x K | best measured config | TFLOP/s | cuBLAS | model pick | pick TFLOP/s | pick / best | default / best | Spearman |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        for s in per_shape:
            short = lambda c: c.replace("#gemm.config<kind = ", "").replace(", raster = row, group = 8>", "").replace("instr = ", "").replace("block = ", "").replace("warps = ", "").replace("stages = ", "s").replace("smem = ", "")
            md.append(f"| {shape_str(s['shape'])} | {short(s['best_config'])} | {s['best_tflops']:.1f} | "
                      f"{s['cublas_tflops']:.1f} | {short(s['pick_config'])} | "
                      + (f"{s['pick_tflops']:.1f} | {s['pick_ratio']:.2f}" if s['pick_ratio'] else "not measured | -")
                      + f" | {s['default_ratio']:.2f} | {s['spearman']:.2f} |"
                      if s['default_ratio'] is not None and s['cublas_tflops'] else
                      f"| {shape_str(s['shape'])} | {short(s['best_config'])} | {s['best_tflops']:.1f} | - | {short(s['pick_config'])} | "
                      + (f"{s['pick_tflops']:.1f} | {s['pick_ratio']:.2f}" if s['pick_ratio'] else "not measured | -")
                      + f" | - | {s['spearman']:.2f} |")
        md.append("")
        for s in per_shape:
            flag = "" if s["pick_measured"] else "  (pick NOT measured)"
            pr = f"{s['pick_ratio']:.2f}" if s["pick_ratio"] else "  - "
            print(f"{shape_str(s['shape']):>16s} best {s['best_tflops']:6.1f}  pick/best {pr}  "
                  f"among {s['among_ratio']:.2f}  rho {s['spearman']:+.2f}{flag}")
    if a.json:
        json.dump(result, open(a.json, "w"), indent=1)
    if a.markdown:
        open(a.markdown, "w").write("\n".join(md) + "\n")


def model_scores(tool, chip, cls, by_shape, params):
    """One gemm-tune-space call: the model's time for every measured config
    on every shape; returns per shape (ratio of the model's choice among the
    measured configs to the best, Spearman of predicted vs measured)."""
    configs, index = [], {}
    for rows in by_shape.values():
        for r in rows:
            key = config_mlir(r["config"])
            if key not in index:
                index[key] = len(configs)
                configs.append(r["config"])
    # Groups are keyed (run, m, n, k): timings are compared within a run.
    shapes = sorted({key[1:] for key in by_shape})
    ev = tune_space(tool, chip, cls, shapes, "eval", params=params, configs=configs)
    problems = dict(zip(shapes, ev["problems"]))
    out = []
    for key, rows in by_shape.items():
        pred = [p["cost"]["time_us"] for p in problems[key[1:]]["points"]]
        p = [pred[index[config_mlir(r["config"])]] for r in rows]
        m = [r["ms"] for r in rows]
        choice = min(range(len(rows)), key=lambda i: p[i])
        out.append((min(m) / m[choice], spearman(p, m)))
    return out


def cmd_calibrate(a):
    """Coordinate search over the model's calibration constants: maximizes the
    fraction of shapes where the model's choice among the measured configs is
    within 0.9 of the best, then the median ratio and the mean Spearman."""
    tool = os.path.join(a.build, "bin", "gemm-tune-space")
    by_shape = {}
    for run, path in enumerate(a.measurements):
        for r in json.load(open(path))["rows"]:
            if r["class"] == a.cls and r["status"] == "ok" and r["config"]:
                by_shape.setdefault((run, r["m"], r["n"], r["k"]), []).append(r)
    classes = {class_key(c): c for c in VALIDATION_CLASSES + DB_CLASSES}
    cls = classes[a.cls]
    params = dict(p.split("=") for p in a.param)
    params = {k: float(v) for k, v in params.items()}
    space = {"warp-half": [0.5, 1, 2, 4, 6, 8, 12, 16], "mma-half": [0, 1, 2, 4, 8, 16, 24, 32],
             "l2-scale": [0.25, 0.35, 0.5, 0.7, 1, 1.4, 2], "latency-scale": [0.5, 0.75, 1, 1.5, 2, 3],
             "ktile-overhead": [0, 50, 100, 200, 400, 800],
             "block-overhead": [0, 1000, 2000, 4000, 8000],
             "plain-conflict": [2, 4, 8], "pad-conflict": [1.0, 1.1, 1.3, 1.6],
             "parallel-half": [0, 8, 16, 32, 64, 128, 256],
             "warp-copy-bytes": [1, 2, 4, 8, 16, 32],
             "element-copy-scale": [0.25, 0.5, 1, 2, 3, 4, 6],
             "spill-penalty": [2, 4, 8, 16, 32],
             "overlap-power": [1.5, 2, 3, 4, 6, 10, 100],
             "solo-sync": [0, 200, 400, 800, 1600, 3200]}

    def score(ps):
        res = model_scores(tool, a.chip, cls, by_shape, [f"{k}={v}" for k, v in ps.items()])
        ratios = [r for r, _ in res]
        rho = [x for _, x in res]
        frac = sum(r >= 0.9 for r in ratios) / len(ratios)
        return (frac + 0.3 * statistics.median(ratios) + 0.2 * statistics.mean(rho),
                frac, statistics.median(ratios), statistics.mean(rho))

    best = score(params)
    print(f"start {params}: {best}", flush=True)
    for round_ in range(a.rounds):
        improved = False
        for name, values in space.items():
            for v in values:
                trial = dict(params, **{name: v})
                sc = score(trial)
                if sc[0] > best[0] + 1e-9:
                    best, params, improved = sc, trial, True
                    print(f"round {round_} {name}={v}: score {sc[0]:.3f} frac {sc[1]:.2f} "
                          f"median {sc[2]:.3f} rho {sc[3]:.3f}", flush=True)
        if not improved:
            break
    print("best", json.dumps(params), best)


def cmd_holdout(a):
    """Held-out check of the calibration: fits the constants (from the first
    guesses) on the validation shapes of one parity of index in the TRAIN
    runs, and scores the model's choice among the TEST run's measured configs
    on the other shapes."""
    tool = os.path.join(a.build, "bin", "gemm-tune-space")
    cls = VALIDATION_CLASSES[0]
    half = {tuple(s) for i, s in enumerate(VALIDATION_SHAPES) if i % 2 == a.parity}

    def groups(paths, keep):
        by = {}
        for run, path in enumerate(paths):
            for r in json.load(open(path))["rows"]:
                shape = (r["m"], r["n"], r["k"])
                if (r["class"] == class_key(cls) and r["status"] == "ok" and r["config"]
                        and keep(shape)):
                    by.setdefault((run,) + shape, []).append(r)
        return by

    train = groups(a.train, lambda s: s in half)
    test = groups([a.test], lambda s: s not in half)
    first = {"warp-half": 6, "mma-half": 4, "parallel-half": 0, "l2-scale": 1,
             "latency-scale": 1, "pad-conflict": 1.1, "block-overhead": 2000,
             "ktile-overhead": 100, "spill-penalty": 16, "warp-copy-bytes": 8,
             "element-copy-scale": 2}
    space = {"warp-half": [0.5, 1, 2, 4, 6, 8], "mma-half": [0, 1, 2, 4, 8, 16],
             "parallel-half": [0, 8, 16, 32, 64], "l2-scale": [0.5, 0.7, 1, 1.4],
             "latency-scale": [0.75, 1, 1.5, 2], "ktile-overhead": [0, 50, 100, 200, 400],
             "block-overhead": [0, 1000, 2000, 4000, 8000], "pad-conflict": [1.0, 1.3, 1.6],
             "warp-copy-bytes": [2, 4, 8, 16], "element-copy-scale": [0.25, 0.5, 1, 2],
             "spill-penalty": [2, 4, 8, 16]}

    def score(ps, data):
        res = model_scores(tool, a.chip, cls, data, [f"{k}={v}" for k, v in ps.items()])
        ratios = [r for r, _ in res]
        rho = [x for _, x in res]
        frac = sum(r >= 0.9 for r in ratios) / len(ratios)
        return (frac + 0.3 * statistics.median(ratios) + 0.2 * statistics.mean(rho),
                frac, statistics.mean(rho), len(ratios))

    params, best = first, score(first, train)
    for _ in range(2):
        for name, values in space.items():
            for v in values:
                trial = dict(params, **{name: v})
                sc = score(trial, train)
                if sc[0] > best[0] + 1e-9:
                    best, params = sc, trial
    print("fitted on", len(train), "groups:", json.dumps(params))
    for label, ps in (("held-out, fitted constants", params), ("held-out, shipped constants", {})):
        _, frac, rho, n = score(ps, test)
        print(f"{label}: {n} shapes, choice >= 0.9 x best on {frac:.2f}, Spearman mean {rho:.2f}")


def cmd_merge(a):
    """Merges tuning databases: per (arch, dtype, acc, layout, epilogue,
    shape) the entry with the highest measured TFLOP/s."""
    best = {}
    meta = {}
    for path in a.dbs:
        db = json.load(open(path))
        meta = {k: v for k, v in db.items() if k != "entries"}
        for e in db["entries"]:
            key = (e["arch"], e["dtype"], e["acc"], e["layout"], e["epilogue"],
                   e["m"], e["n"], e["k"])
            if key not in best or e.get("tflops", 0) > best[key].get("tflops", 0):
                best[key] = e
    meta["generator"] = "python/gemm_mlir/tune.py merge " + " ".join(
        os.path.basename(p) for p in a.dbs)
    meta["entries"] = [best[k] for k in sorted(best)]
    with open(a.out, "w") as f:
        f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}"
                                    for k, v in meta.items() if k != "entries"))
        f.write(',\n "entries": [\n')
        f.write(",\n".join("  " + json.dumps(e) for e in meta["entries"]))
        f.write("\n ]\n}\n")
    print(f"{len(best)} entries -> {a.out}")


def cmd_picks(a):
    """Configs (JSON, one per line) the model picks for a class's shapes:
    what a validation run must measure."""
    tool = os.path.join(a.build, "bin", "gemm-tune-space")
    classes = {class_key(c): (c, s) for c, s in
               [(c, VALIDATION_SHAPES) for c in VALIDATION_CLASSES] +
               [(c, DB_SHAPES) for c in DB_CLASSES]}
    cls, shapes = classes[a.cls]
    seen = set()
    for p in tune_space(tool, a.chip, cls, shapes, "pick", params=a.param)["problems"]:
        c = json.dumps(p["points"][0]["config"])
        if c not in seen:
            seen.add(c)
            print(c)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    root = os.path.dirname(os.path.dirname(HERE))
    q = sub.add_parser("prepare")
    q.add_argument("out")
    q.add_argument("--build", default=os.path.join(root, "build"))
    q.add_argument("--chip", default="sm_90")
    q.add_argument("--suite", default="all", choices=["validation", "db", "all"])
    q.add_argument("--top", type=int, default=6,
                   help="frontier points per shape (0: all, -1: none)")
    q.add_argument("--model-top", type=int, default=0,
                   help="the model's fastest lattice points per shape")
    q.add_argument("--param", action="append", default=[], help="model parameter NAME=VALUE")
    q.add_argument("--param-set", action="append", default=[],
                   help="another parameter set for --model-top (NAME=VALUE,...)")
    q.add_argument("--extra-file", default="",
                   help="JSON lines {class, config, why} to add")
    q.add_argument("--classes", default="", help="only these class keys (comma-separated)")
    q.add_argument("--grid", action="store_true", help="add a broad lattice sample")
    q.add_argument("--extra", action="append", default=[], help="a JSON config to add")
    q.add_argument("--jobs", type=int, default=2)
    m = sub.add_parser("measure")
    m.add_argument("art")
    m.add_argument("--results", required=True)
    m.add_argument("--reps", type=int, default=0)
    r = sub.add_parser("report")
    r.add_argument("measurements", nargs="+")
    r.add_argument("--build", default=os.path.join(root, "build"))
    r.add_argument("--chip", default="sm_90")
    r.add_argument("--param", action="append", default=[])
    r.add_argument("--only", default="")
    r.add_argument("--json", default="")
    r.add_argument("--markdown", default="")
    c = sub.add_parser("calibrate")
    c.add_argument("measurements", nargs="+")
    c.add_argument("--cls", default="f16_tn_none")
    c.add_argument("--build", default=os.path.join(root, "build"))
    c.add_argument("--chip", default="sm_90")
    c.add_argument("--param", action="append", default=[])
    c.add_argument("--rounds", type=int, default=3)
    h = sub.add_parser("holdout")
    h.add_argument("--train", nargs="+", required=True)
    h.add_argument("--test", required=True)
    h.add_argument("--parity", type=int, default=0, help="fit on shapes of this index parity")
    h.add_argument("--build", default=os.path.join(root, "build"))
    h.add_argument("--chip", default="sm_90")
    g = sub.add_parser("merge")
    g.add_argument("dbs", nargs="+")
    g.add_argument("--out", required=True)
    k = sub.add_parser("picks")
    k.add_argument("cls")
    k.add_argument("--build", default=os.path.join(root, "build"))
    k.add_argument("--chip", default="sm_90")
    k.add_argument("--param", action="append", default=[])
    a = p.parse_args()
    {"prepare": cmd_prepare, "measure": cmd_measure, "report": cmd_report,
     "calibrate": cmd_calibrate, "picks": cmd_picks, "merge": cmd_merge,
     "holdout": cmd_holdout}[a.cmd](a)


if __name__ == "__main__":
    main()
