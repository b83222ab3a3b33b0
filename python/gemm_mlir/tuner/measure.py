"""The device half of the tuner (on the GPU machine, with the prepared
folder carried; needs CUDA's ptxas, CuPy and PyTorch, imported only when
`measure` runs): assembles every candidate's PTX with ptxas for the plan's
chip, then checks and times every candidate on every shape of its class
against cuBLAS, and writes measurements.json and tuning-db.json."""
import json
import os
import re
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

from .suites import shape_str


def ptxas_arch(chip):
    """ptxas's -arch for the chip the plan's kernels were compiled for: the
    chip itself (sm_90a kernels use wgmma, which needs -arch=sm_90a)."""
    if not re.fullmatch(r"sm_\d+[af]?", chip or ""):
        raise SystemExit(f"measure: the plan's chip '{chip}' is not an NVIDIA sm_* chip; "
                         "ptxas cannot assemble its kernels")
    return chip


def parse_ptxas_v(stderr):
    """(registers, spill store bytes) from ptxas -v's report; None when absent."""
    regs = spill = None
    for line in stderr.splitlines():
        if "Used" in line and "registers" in line:
            regs = int(line.split("Used")[1].split("registers")[0])
        if "spill stores" in line:
            spill = int(line.split("bytes spill stores")[0].split(",")[-1])
    return regs, spill


def assemble_plan(art, plan):
    """Assembles every compiled candidate's PTX to a cubin next to it
    (parallel ptxas -v for the plan's chip); returns per kernel name
    {rc, registers, spill_bytes, error}, and the number of PTX files."""
    arch = ptxas_arch(plan["chip"])
    ptx = []
    for cls in plan["classes"]:
        for c in cls["candidates"]:
            if not c["compile_error"]:
                d = os.path.join(art, c["name"])
                ptx += [(c["name"], os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".ptx")]

    def assemble(item):
        name, path = item
        r = subprocess.run(["ptxas", f"-arch={arch}", "-v", path, "-o", path[:-4] + ".cubin"],
                           capture_output=True, text=True)
        regs, spill = parse_ptxas_v(r.stderr)
        return name, r.returncode, regs, spill, r.stderr[-500:]

    ptxas = {}
    with ThreadPoolExecutor(os.cpu_count() or 8) as pool:
        for name, rc, regs, spill, err in pool.map(assemble, ptx):
            ptxas[name] = {"rc": rc, "registers": regs, "spill_bytes": spill, "error": err if rc else ""}
    return ptxas, len(ptx)


def cmd_measure(a):
    import torch
    from .. import harness

    os.makedirs(a.results, exist_ok=True)
    log = open(os.path.join(a.results, "tune-log.txt"), "a")

    def say(line):
        print(line, flush=True)
        log.write(line + "\n")

    plan = json.load(open(os.path.join(a.art, "plan.json")))
    t0 = time.time()
    ptxas, n_ptx = assemble_plan(a.art, plan)
    say(f"ptxas -arch={ptxas_arch(plan['chip'])}: {n_ptx} kernels in {time.time() - t0:.1f}s, "
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
                        k.launch([a_, b_, out] + extras, m, n, kk)
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
                            ms = harness.time_fn(lambda: k.launch([a_, b_, out] + extras, m, n, kk), reps)
                            row.update(status="ok", ms=ms, error=err)
                        else:
                            row.update(status="WRONG", ms=None, error=err)
                    except Exception as ex:
                        row.update(status="LAUNCH-FAIL", ms=None, error=str(ex)[:200])
                if row.get("ms"):
                    row["tflops"] = flops / row["ms"] / 1e9
                    # The database records explicit configs: the lowering's
                    # default (a dispatch family for dynamic sizes) is timed
                    # for reference, its members are candidates themselves.
                    if c["config"] and (best is None or row["ms"] < best["ms"]):
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

