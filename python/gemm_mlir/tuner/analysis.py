"""The cost model against measurements (local, after `measure`): `report`
(per shape the best measured config, the model pick's ratio to it, Spearman
rank correlation of predicted vs measured time), `calibrate` (a coordinate
search over the model's constants) and `holdout` (fit on half the shapes,
score on the other half)."""
import json
import statistics

from .space import config_mlir, tune_space, tune_space_tool
from .suites import (DB_CLASSES, VALIDATION_CLASSES, VALIDATION_SHAPES, class_key,
                     shape_str)


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
    tool = tune_space_tool(a.build)
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
    tool = tune_space_tool(a.build)
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
    tool = tune_space_tool(a.build)
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

