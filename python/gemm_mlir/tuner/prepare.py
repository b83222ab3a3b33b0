"""The local half of the tuner (where gemm-opt and gemm-tune-space are
built): `prepare` asks gemm-tune-space for each problem class's candidates,
writes one gemm.matmul per (class, candidate) through the case generator,
compiles each with gemm-opt to PTX + manifest and writes OUT/plan.json;
`picks` prints the configs the model picks for a class."""
import json
import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

from .. import cases
from .space import (broad_grid, compact_grid, config_mlir, skinny_grid, tune_space,
                    tune_space_tool)
from .suites import (DB_CLASSES, DB_SHAPES, DECODE_CLASSES, DECODE_LARGE_SHAPES, DECODE_SHAPES,
                     EVERY_CLASSES, EVERY_SHAPES,
                     VALIDATION_CLASSES, VALIDATION_SHAPES, class_key)


def cmd_prepare(a):
    tool = tune_space_tool(a.build)
    opt = os.path.join(a.build, "bin", "gemm-opt")
    os.makedirs(a.out, exist_ok=True)
    classes = []
    if a.suite in ("validation", "all"):
        classes += [(c, VALIDATION_SHAPES, True) for c in VALIDATION_CLASSES]
    if a.suite in ("db", "all"):
        classes += [(c, DB_SHAPES, False) for c in DB_CLASSES]
    if a.suite == "every":
        classes += [(c, EVERY_SHAPES, False) for c in EVERY_CLASSES]
    if a.suite == "decode":
        classes += [(c, DECODE_SHAPES, False) for c in DECODE_CLASSES]
    if a.suite == "decode-large":
        classes += [(c, DECODE_LARGE_SHAPES, False) for c in DECODE_CLASSES]
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
        if a.dispatch:
            # The dispatch family's members (decode, split-K in clusters or
            # through the workspace, tiny-k, short-k, ...) with the slices
            # their policy runs on each shape: the kinds the rules choose
            # from, as static configs.
            fam = tune_space(tool, a.chip, cls, shapes, "dispatch")
            for prob in fam["problems"]:
                for p in prob["points"]:
                    c = dict(p["config"])
                    if c.get("split_k", 1) > 1:
                        c["split_k"] = p["slices"]
                        if p["slices"] == 1:
                            c.pop("split_k")
                            c.pop("reduction", None)
                    add(c, "dispatch-chosen" if p["chosen"] else "dispatch")
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



def cmd_picks(a):
    """Configs (JSON, one per line) the model picks for a class's shapes:
    what a validation run must measure."""
    tool = tune_space_tool(a.build)
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

