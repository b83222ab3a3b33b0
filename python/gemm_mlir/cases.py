#!/usr/bin/env python3
"""Generates gemm.matmul test kernels: one .mlir module per (dtype, layout,
epilogue) case, with dynamic M/N/K so that one kernel serves every shape, and
a cases.json the harness reads to build its float64 reference.

Usage: python3 -m gemm_mlir.cases OUT_DIR [--set smoke|matrix|perf|wgmma|every]
(PYTHONPATH=python; or run python/gemm_mlir/cases.py by path)
"""
import argparse
import json
import os

# dtype name -> (A/B element, accumulator, C element, config or None)
DTYPES = {
    "f16": ("f16", "f32", "f16", None),
    "f16acc16": ("f16", "f16", "f16", None),
    "bf16": ("bf16", "f32", "bf16", None),
    "tf32": ("f32", "f32", "f32",
             "#gemm.config<kind = mma_sync, block = [128, 128, 32], warps = [2, 4], "
             "instr = [16, 8, 8], stages = 3, group = 8>"),
    "f32": ("f32", "f32", "f32", None),
    "f64": ("f64", "f64", "f64", None),
    "i8": ("i8", "i32", "i32", None),
    # fp8 e4m3 into f32, stored as f16: wgmma only (sm_90a, tn).
    "f8": ("f8E4M3FN", "f32", "f16", None),
    "i8sat": ("i8", "i32", "i8", None),
    # SIMT kinds explicitly (DP4A for i8, FMA for f16).
    "i8simt": ("i8", "i32", "i32",
               "#gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], "
               "instr = [4, 8, 1], stages = 3>"),
    "f16simt": ("f16", "f32", "f16",
                "#gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], "
                "instr = [4, 8, 1], stages = 3>"),
}
LAYOUTS = ["nn", "nt", "tn", "tt"]
FLOAT_EPILOGUES = ["none", "linear", "bias_col_relu", "bias_row_gelu_tanh",
                   "gelu_erf", "silu", "clamp", "residual",
                   # The fused epilogues of LLM layers (issue 15's rows):
                   # a bias per output column, in C's type, as PyTorch has it.
                   "bias_silu_residual", "bias_gelu_tanh"]
INT_EPILOGUES = ["none", "bias_col_relu", "scale_f16"]


def epilogues_for(dtype):
    if dtype == "i8":
        return INT_EPILOGUES
    if dtype in ("i8sat", "i8simt", "f16simt"):
        return ["none"]
    if dtype == "f16acc16":
        return ["none", "linear", "bias_col_relu", "clamp", "residual"]
    return FLOAT_EPILOGUES


def conv(v, frm, to, lines):
    """Emits a float conversion of %v from `frm` to `to`; returns the name."""
    if frm == to:
        return v
    width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
    op = "arith.extf" if width[to] > width[frm] else "arith.truncf"
    name = f"%cv{len(lines)}"
    lines.append(f"{name} = {op} {v} : {frm} to {to}")
    return name


def f64_quotient(x, y, out, t):
    """Lines computing `out` = x / y (f32) as the f64 quotient rounded to
    f32: the same bits as IEEE f32 division (rounding twice is innocuous for
    division when 53 >= 2 * 24 + 2). The numerator is doubled and the
    quotient halved (both exact) so that LLVM does not shrink the division
    back to f32 (InstCombine turns fptrunc(fdiv(fpext, fpext)) into fdiv)."""
    return [f"%w0 = arith.extf {x} : {t} to f64",
            "%w2c = arith.constant 2.0 : f64",
            "%w5c = arith.constant 0.5 : f64",
            "%w1 = arith.mulf %w0, %w2c : f64",
            f"%w2 = arith.extf {y} : {t} to f64",
            "%w3 = arith.divf %w1, %w2 : f64",
            "%w4 = arith.mulf %w3, %w5c : f64",
            f"{out} = arith.truncf %w4 : f64 to {t}"]


def gelu_tanh_lines(x, t):
    """The region lines of GELU's tanh form of `x` (type t), ending in %g8."""
    return [
        f"%g0 = arith.mulf {x}, {x} : {t}",
        f"%g1 = arith.mulf %g0, {x} : {t}",
        f"%k1 = arith.constant 0.044715 : {t}",
        f"%g2 = arith.mulf %g1, %k1 : {t}",
        f"%g3 = arith.addf {x}, %g2 : {t}",
        f"%k2 = arith.constant 0.7978845608028654 : {t}",
        f"%g4 = arith.mulf %g3, %k2 : {t}",
        f"%g5 = math.tanh %g4 : {t}",
        f"%one = arith.constant 1.0 : {t}",
        f"%g6 = arith.addf %g5, %one : {t}",
        f"%half = arith.constant 0.5 : {t}",
        f"%g7 = arith.mulf {x}, %half : {t}",
        f"%g8 = arith.mulf %g7, %g6 : {t}",
    ]


def build_case(name, dtype, layout, epi, config_override=None, batched=False):
    ab, acc, c, config = DTYPES[dtype]
    # config_override "" drops the type's own config (the default family).
    config = config if config_override is None else (config_override or None)
    if epi == "scale_f16":
        c = "f16"
    a_shape = "?x?"
    mem = lambda t: f"memref<?x?x{t}>"
    extras, types, bcast, args = [], [], [], []
    scalar_t = "f64" if acc == "f64" else "f32"
    body = []
    x = "%acc"
    if epi == "none":
        region = None
    else:
        if epi == "linear":
            extras += ["%alpha", "%beta"]; types += [scalar_t, scalar_t]
            bcast += ["scalar", "scalar"]; args += [f"%al: {scalar_t}", f"%be: {scalar_t}"]
            xa = conv(x, acc, scalar_t, body)
            cin = conv("%cin", c, scalar_t, body)
            body.append(f"%t0 = arith.mulf {xa}, %al : {scalar_t}")
            body.append(f"%t1 = arith.mulf {cin}, %be : {scalar_t}")
            body.append(f"%t2 = arith.addf %t0, %t1 : {scalar_t}")
            x, xt = "%t2", scalar_t
        elif epi in ("bias_col_relu", "bias_row_gelu_tanh"):
            bt = acc
            extras += ["%bias"]; types += [f"memref<?x{bt}>"]
            bcast += ["col" if epi == "bias_col_relu" else "row"]; args += [f"%bi: {bt}"]
            if acc == "i32":
                body.append("%t0 = arith.addi %acc, %bi : i32")
                body.append("%z = arith.constant 0 : i32")
                body.append("%t1 = arith.maxsi %t0, %z : i32")
                x, xt = "%t1", "i32"
            else:
                body.append(f"%t0 = arith.addf %acc, %bi : {acc}")
                x, xt = "%t0", acc
                if epi == "bias_col_relu":
                    body.append(f"%z = arith.constant 0.0 : {acc}")
                    body.append(f"%t1 = arith.maximumf %t0, %z : {acc}")
                    x = "%t1"
                else:
                    t = acc
                    body += gelu_tanh_lines("%t0", t)
                    x = "%g8"
        elif epi == "gelu_erf":
            t = acc
            body += [
                f"%k = arith.constant 0.7071067811865476 : {t}",
                f"%e0 = arith.mulf %acc, %k : {t}",
                f"%e1 = math.erf %e0 : {t}",
                f"%one = arith.constant 1.0 : {t}",
                f"%e2 = arith.addf %e1, %one : {t}",
                f"%half = arith.constant 0.5 : {t}",
                f"%e3 = arith.mulf %acc, %half : {t}",
                f"%e4 = arith.mulf %e3, %e2 : {t}",
            ]
            x, xt = "%e4", t
        elif epi == "silu":
            t = acc
            body += [
                f"%s0 = arith.negf %acc : {t}",
                f"%s1 = math.exp %s0 : {t}",
                f"%one = arith.constant 1.0 : {t}",
                f"%s2 = arith.addf %s1, %one : {t}",
                f"%s3 = arith.divf %acc, %s2 : {t}",
            ]
            x, xt = "%s3", t
        elif epi == "clamp":
            extras += ["%lo", "%hi"]; types += [scalar_t, scalar_t]
            bcast += ["scalar", "scalar"]; args += [f"%l: {scalar_t}", f"%h: {scalar_t}"]
            xa = conv(x, acc, scalar_t, body)
            body.append(f"%c0 = arith.maximumf {xa}, %l : {scalar_t}")
            body.append(f"%c1 = arith.minimumf %c0, %h : {scalar_t}")
            x, xt = "%c1", scalar_t
        elif epi == "residual":
            extras += ["%res"]; types += [mem(c)]
            bcast += ["full"]; args += [f"%r: {c}"]
            rr = conv("%r", c, acc, body)
            body.append(f"%t0 = arith.addf %acc, {rr} : {acc}")
            x, xt = "%t0", acc
        elif epi in ("bias_silu_residual", "bias_silu_residual_afn", "bias_silu_residual_f64",
                     "bias_gelu_tanh"):
            t = acc
            extras += ["%bias"]; types += [f"memref<?x{c}>"]
            bcast += ["col"]; args += [f"%bi: {c}"]
            bb = conv("%bi", c, t, body)
            body.append(f"%t0 = arith.addf %acc, {bb} : {t}")
            if epi.startswith("bias_silu_residual"):
                extras += ["%res"]; types += [mem(c)]
                bcast += ["full"]; args += [f"%r: {c}"]
                rr = conv("%r", c, t, body)
                # _afn: the region allows approximate functions (exp, and
                # division as div.approx; docs/performance.md).
                fm = " fastmath<afn>" if epi.endswith("_afn") else ""
                body += [
                    f"%s0 = arith.negf %t0 : {t}",
                    f"%s1 = math.exp %s0{fm} : {t}",
                    f"%one = arith.constant 1.0 : {t}",
                    f"%s2 = arith.addf %s1, %one : {t}",
                ]
                if epi.endswith("_f64"):
                    # _f64: the f32 quotient as the f64 one rounded to f32
                    # (the same bits: division rounded twice, 53 >= 2 * 24 + 2).
                    body += f64_quotient("%t0", "%s2", "%s3", t)
                else:
                    body.append(f"%s3 = arith.divf %t0, %s2{fm} : {t}")
                body.append(f"%s4 = arith.addf %s3, {rr} : {t}")
                x, xt = "%s4", t
            else:
                body += gelu_tanh_lines("%t0", t)
                x, xt = "%g8", t
        elif epi in ("divide", "divide_f64"):
            # C / R, the accumulator unused: the harness's `divide` command
            # feeds C and R bit patterns (NaNs, infinities, subnormals) and
            # compares the quotients bit for bit with PyTorch's IEEE division.
            extras += ["%den"]; types += [mem(c)]
            bcast += ["full"]; args += [f"%r: {c}"]
            if epi == "divide_f64":
                body += f64_quotient("%cin", "%r", "%q", c)
            else:
                body.append(f"%q = arith.divf %cin, %r : {c}")
            x, xt = "%q", c
        elif epi == "scale_f16":
            extras += ["%scale"]; types += ["f32"]
            bcast += ["scalar"]; args += ["%sc: f32"]
            body.append("%f0 = arith.sitofp %acc : i32 to f32")
            body.append("%f1 = arith.mulf %f0, %sc : f32")
            x, xt = "%f1", "f32"
        else:
            raise ValueError(epi)
        if xt != c:
            if xt == "i32":
                pass
            else:
                x = conv(x, xt, c, body)
        body.append(f"gemm.yield {x} : {c}")
        region = body
    if batched:
        mem = lambda t: f"memref<?x?x?x{t}>"
    ext_decl = "".join(f", {e}: {t}" for e, t in zip(extras, types))
    ext_use = ""
    attrs = []
    if extras:
        ext_use = f" extras({', '.join(extras)} : {', '.join(types)})"
        attrs.append("broadcast = [" + ", ".join(f"#gemm.bcast<{b}>" for b in bcast) + "]")
    if config:
        attrs.append(f"config = {config}")
    attr = f" attributes {{{', '.join(attrs)}}}" if attrs else ""
    lines = [
        f"func.func @{name}(%a: {mem(ab)}, %b: {mem(ab)}, %c: {mem(c)}{ext_decl}) {{",
        f"  gemm.matmul {layout} ins(%a, %b : {mem(ab)}, {mem(ab)}) outs(%c : {mem(c)}){ext_use} acc({acc}){attr}"
        + (" {" if region else ""),
    ]
    if region:
        lines.append(f"  ^bb0(%acc: {acc}, %cin: {c}" + "".join(", " + a for a in args) + "):")
        lines += ["    " + l for l in region]
        lines.append("  }")
    lines += ["  return", "}"]
    meta = {"name": name, "dtype": dtype, "layout": layout, "epilogue": epi,
            "batched": batched,
            "a_type": ab, "acc_type": acc, "c_type": c,
            "extras": [{"broadcast": b, "type": t} for b, t in zip(bcast, types)]}
    return "\n".join(lines) + "\n", meta


def case_list(which):
    out = []
    if which == "smoke":
        for d in ["f16", "bf16", "tf32", "f32", "f64", "i8", "f16acc16", "i8sat",
                  "i8simt", "f16simt"]:
            for l in LAYOUTS:
                out.append((d, l, "none"))
        for e in FLOAT_EPILOGUES[1:]:
            out.append(("f16", "tn", e))
        # Unusual but legal configs: tiny tiles, deep pipelines, plain and
        # padded tiles, column rasterization with a ragged group.
        for i, _ in enumerate(ODD_CONFIGS):
            for l in LAYOUTS:
                out.append((ODD_CONFIGS[i][0], l, "none", "odd", i))
    elif which == "matrix":
        # (f8 is lowered by wgmma only, sm_90a tn: it is in the wgmma set.)
        for d in (d for d in DTYPES if d != "f8"):
            for l in LAYOUTS:
                for e in epilogues_for(d):
                    out.append((d, l, e))
        for l in LAYOUTS:  # batched (rank-3) operands
            out.append(("f16", l, "none", "batched"))
    elif which == "perf":
        for d in ["f16", "bf16", "tf32", "i8"]:
            for l in LAYOUTS:
                out.append((d, l, "none"))
        out.append(("f16", "tn", "bias_row_gelu_tanh"))
        # Config variants for the sweep (name suffix _v<i>).
        for i, _ in enumerate(F16_VARIANTS):
            for l in ["tn", "nn"]:
                out.append(("f16", l, "none", i))
    elif which == "wgmma":
        # Compiled for sm_90a (CHIP=sm_90a): the defaults there are wgmma for
        # f16/bf16 (all layouts) and tn tf32/i8; plus the wgmma tile sweep.
        for d in ["f16", "bf16", "tf32", "i8"]:
            for l in LAYOUTS:
                out.append((d, l, "none"))
        out.append(("f16", "tn", "bias_row_gelu_tanh"))
        for e in FLOAT_EPILOGUES:
            out.append(("f8", "tn", e))
        for i, v in enumerate(WGMMA_VARIANTS):
            for l in (["tn", "nn"] if v[0] == "f16" else ["tn"]):
                out.append((v[0], l, "none", "wg", i))
    elif which == "every":
        # Compiled for sm_90a: the dispatch families (gemm/Tuning/Dispatch.h)
        # of f16 and bf16 in every layout, batched, with every epilogue on
        # f16 tn (split-K must apply each once, to the reduced value), the
        # integer, f16-accumulating and f8 families, and explicit split-K
        # configs.
        for d in ["f16", "bf16"]:
            for l in LAYOUTS:
                out.append((d, l, "none"))
            for l in ["tn", "nn"]:
                out.append((d, l, "none", "batched"))
        for e in FLOAT_EPILOGUES[1:]:
            out.append(("f16", "tn", e))
        out.append(("bf16", "nn", "residual"))
        for e in INT_EPILOGUES:
            out.append(("i8", "tn", e))
        out.append(("i8", "nn", "none"))
        out.append(("f16acc16", "tn", "none"))
        out.append(("f8", "tn", "linear"))
        for i, (d, l, e, _) in enumerate(SPLIT_CONFIGS):
            out.append((d, l, e, "split", i))
    elif which == "decodetn":
        # Compiled for sm_90a: the f16 and bf16 families on a B stored N x
        # K (tn, tt), whose 3-16-row members are gemv on mma.sync: built
        # twice to compare two versions of those members on decode rows.
        for d in ["f16", "bf16"]:
            for l in ["tn", "tt"]:
                out.append((d, l, "none"))
    elif which == "transpose":
        # Compiled for sm_90a with allow-tf32: the default families of the
        # types wgmma reads K-major only (tf32, i8, f8) in every layout, their
        # MN-major operands copied transposed first (tn beside them, which
        # copies nothing), with epilogues and batched operands.
        for d in ["tf32", "i8", "f8"]:
            for l in LAYOUTS:
                out.append((d, l, "none", "default"))
        out.append(("f8", "nn", "linear", "default"))
        out.append(("tf32", "nt", "bias_col_relu", "default"))
        out.append(("tf32", "nn", "residual", "default"))
        out.append(("i8", "tt", "bias_col_relu", "default"))
        out.append(("i8", "nn", "none", "default_batched"))
        out.append(("tf32", "tt", "none", "default_batched"))
    elif which == "gemv":
        # `kind = gemv` kernels with explicit configs (rows of A and B per
        # warp, loads in flight, f16/bf16/f32, tn and tt), every float
        # epilogue on the dispatched tile, batched operands.
        for i, (d, l, e, _, batched) in enumerate(GEMV_CONFIGS):
            out.append((d, l, e, "gemv", i))
        for e in FLOAT_EPILOGUES[1:]:
            out.append(("f16", "tn", e, "gemv", 0))
            out.append(("f16", "tn", e, "gemv", GEMV_MMA_FIRST))
            out.append(("f16", "nn", e, "gemv", GEMV_COLS_FIRST))
            out.append(("f16", "nn", e, "gemv", GEMV_MMA_COLS_FIRST))
            out.append(("f16", "tn", e, "gemv", GEMV_MMA_PIPELINED_FIRST))
    elif which == "gemvsweep":
        # f16 tn gemv tiles for the timing sweep behind the dispatched one
        # (docs/dispatch.md, "gemv"): rows of A and B per warp, warps,
        # loads in flight.
        for i, _ in enumerate(GEMV_SWEEP):
            out.append(("f16", "tn", "none", "gemvsweep", i))
        for i, _ in enumerate(GEMV_MMA_SWEEP):
            out.append(("f16", "tn", "none", "gemvmma", i))
            out.append(("bf16", "tn", "none", "gemvmma", i))
    elif which == "gemvcols":
        # f16 gemv tiles on an N-contiguous B (nn; nt for the first) for the
        # sweep behind the dispatched ones (docs/dispatch.md, "gemv on an
        # N-contiguous B"): rows of A, columns a block, warps, loads.
        for i, _ in enumerate(GEMV_COLS_SWEEP):
            out.append(("f16", "nn", "none", "gemvcols", i))
        out.append(("f16", "nt", "none", "gemvcols", 0))
    elif which == "gemvmmacols":
        # f16 nn gemv-mma tiles on a B stored K x N for the sweep behind the
        # dispatched ones (docs/dispatch.md, "gemv on mma.sync").
        for i, _ in enumerate(GEMV_MMA_COLS_SWEEP):
            out.append(("f16", "nn", "none", "gemvmmacols", i))
    elif which == "medsweep":
        # Compiled for sm_90a: tiles for 33 to 256 rows of A with N in the
        # thousands (batched decode), timed against each other
        # (docs/dispatch.md, "Wide decode"): MED_SWEEP.
        for i, (l, _) in enumerate(MED_SWEEP):
            out.append(("f16", l, "none", "med", i))
    elif which == "midsweep":
        # Compiled for sm_90a: tiles and K slices for 65 to 512 rows whose
        # 64 x 128 tiles number fewer than a quarter wave (the split-k
        # member's class, docs/dispatch.md): MID_SWEEP.
        for i, (l, _) in enumerate(MID_SWEEP):
            out.append(("f16", l, "none", "mid", i))
    elif which == "inplacesweep":
        # Compiled for sm_90a: wgmma tiles for 17 to 128 rows, with and
        # without a producer warpgroup, timed packed and (manifests with
        # the packing threshold raised) in place on misaligned rows:
        # INPLACE_SWEEP.
        for l in ["tn", "nn", "nt"]:
            for i in range(len(INPLACE_SWEEP)):
                out.append(("f16", l, "none", "ip", i))
    elif which == "pingpong":
        # Compiled for sm_90a: `schedule = pingpong` kernels and the tiles
        # they are measured against (PINGPONG).
        for i, (d, l, e, _, _) in enumerate(PINGPONG):
            out.append((d, l, e, "pp", i))
    elif which == "tma":
        # Compiled for sm_90a: wgmma kernels loading through TMA
        # (`load = tma`) beside their cp.async twins, f16/bf16 in every
        # layout; every epilogue, batched operands, tf32/i8/f8 and split-K
        # with TMA.
        for d in ["f16", "bf16"]:
            for l in LAYOUTS:
                for i in range(len(TMA_VARIANTS)):
                    out.append((d, l, "none", "tma", i))
        for e in FLOAT_EPILOGUES[1:]:
            out.append(("f16", "tn", e, "tma", 0))
        for l in ["tn", "nn"]:
            out.append(("f16", l, "none", "tmab", 0))
            out.append(("f16", l, "none", "tmab", 6))
        for i, (d, l, e, _) in enumerate(TMA_OTHER):
            out.append((d, l, e, "tmao", i))
    elif which == "multicast":
        # Compiled for sm_90a: TMA multicast pairs (`multicast = 2`,
        # MULTICAST_VARIANTS) beside the same tiles loading on their own
        # (t0: the default tile without a producer, t6, t7, t8 with one)
        # and the default families, f16/bf16 in every layout; the default
        # tile in pairs with every epilogue and batched.
        for d in ["f16", "bf16"]:
            for l in LAYOUTS:
                out.append((d, l, "none"))
                for i in (0, 6, 7, 8):
                    out.append((d, l, "none", "tma", i))
                for i in range(len(MULTICAST_VARIANTS)):
                    out.append((d, l, "none", "mc", i))
        for e in FLOAT_EPILOGUES[1:]:
            out.append(("f16", "tn", e, "mc", 0))
        for l in ["tn", "nn"]:
            out.append(("f16", l, "none", "mcb", 0))
    elif which == "slices":
        # Compiled for sm_90a: `schedule = persistent` 128 x 256 with four
        # stages, whose epilogue stages the tile in column slices beside
        # the ring (SLICES), beside the tiles it is measured against: the
        # default families, the default tile alone (t0) and in multicast
        # pairs (mc0), f16/bf16 in every layout; every epilogue and batched.
        # allow-tf32 (gpu_artifacts.sh GEMM_OPTS) for the tf32 families.
        for d in ["f16", "bf16"]:
            for l in LAYOUTS:
                out.append((d, l, "none"))
                out.append((d, l, "none", "tma", 0))
                out.append((d, l, "none", "mc", 0))
                for i in range(2):
                    out.append((d, l, "none", "sl", i))
        for e in FLOAT_EPILOGUES[1:]:
            out.append(("f16", "tn", e, "sl", 0))
        for e in ["bias_silu_residual", "bias_gelu_tanh"]:
            out.append(("f16", "tn", e))
            out.append(("f16", "tn", e, "sl", 1))
        for l in ["tn", "nn"]:
            out.append(("f16", l, "none", "slb", 0))
        out.append(("f8", "tn", "linear", "sl", 2))
        # The default families of issue 15's other rows (tf32, i8, f8 in
        # every layout), timed with the fairer bench.
        for d in ["tf32", "i8", "f8"]:
            for l in LAYOUTS:
                out.append((d, l, "none"))
    elif which == "f8roof":
        # Compiled for sm_90a: the f8 default family and the F8ROOF tiles,
        # with the linear epilogue on the default tile.
        out.append(("f8", "tn", "none"))
        for i in range(len(F8ROOF)):
            out.append(("f8", "tn", "none", "fr", i))
        out.append(("f8", "tn", "linear", "fr", 0))
    elif which == "persist":
        # Compiled for sm_90a: persistent blocks (one team, `persistent`;
        # two, `pingpong`), whose main loop is now versioned per load path
        # too, beside the defaults: f16/bf16 tn and nn, the fused SiLU and
        # GELU epilogues, batched, and the f8 tiles (F8ROOF, PINGPONG).
        for d, l in [("f16", "tn"), ("f16", "nn"), ("bf16", "tn")]:
            out.append((d, l, "none"))
        for i, (d, l, e, _, _) in enumerate(PINGPONG):
            if d in ("f16", "bf16", "f8") and l in ("tn", "nn"):
                out.append((d, l, e, "pp", i))
        for e in ["bias_silu_residual", "bias_gelu_tanh"]:
            out.append(("f16", "tn", e))
        out.append(("f8", "tn", "none"))
        for i in range(len(F8ROOF)):
            out.append(("f8", "tn", "none", "fr", i))
    elif which == "widedec":
        # Compiled for sm_90a: the f16 tn and nn default families and the
        # WIDEDEC tiles in both layouts.
        for l in ["tn", "nn"]:
            out.append(("f16", l, "none"))
            for i in range(len(WIDEDEC)):
                out.append(("f16", l, "none", "wd", i))
    elif which == "fixup":
        # Compiled for sm_90a: the FIXUP configs beside the default families
        # they would join (f16 tn/nn, bf16 tn, f8 tn, i8 tn).
        for d, l in [("f16", "tn"), ("f16", "nn"), ("bf16", "tn"), ("f8", "tn"), ("i8", "tn")]:
            out.append((d, l, "none"))
        for i, (d, l, e, _, _) in enumerate(FIXUP):
            out.append((d, l, e, "fx", i))
    elif which == "div64":
        # Compiled for sm_90a: f32 division through f64 (the quotient
        # rounded twice) beside div.rn: bias + SiLU + residual on the
        # default f16 tn family each way (and with fastmath<afn>), and the
        # staged epilogue's C / R each way for `harness divide`.
        for e in ["bias_silu_residual", "bias_silu_residual_f64", "bias_silu_residual_afn",
                  "bias_gelu_tanh"]:
            out.append(("f16", "tn", e))
        for i, (d, l, e, _) in enumerate(TMA_OTHER):
            if e.startswith("divide"):
                out.append((d, l, e, "tmao", i))
    elif which == "group":
        # Compiled for sm_90a: the f16 tn default tile with grouped
        # rasterization over GROUPS tile rows, beside the default family;
        # the persistent 128 x 256 tile with 4 stages likewise.
        out.append(("f16", "tn", "none"))
        for i in range(len(GROUPS)):
            out.append(("f16", "tn", "none", "grp", i))
    elif which in ("persist4", "wavefit"):
        # Compiled for sm_90a, each tile beside the default family it would
        # join: persist4, the persistent 128 x 256 tile with four stages
        # (PERSIST4: f16 in every layout, bf16 tn, the fused epilogues, a
        # linear one reading C, batched); wavefit, 128 x 192 tiles (WAVEFIT)
        # for grids whose 128 x 256 tiles end in a short last wave.
        tag = "p4" if which == "persist4" else "wf"
        for i, (d, l, e, _, batched) in enumerate(TAGGED_CONFIGS[tag][0]):
            out.append((d, l, e, "batched") if batched else (d, l, e))
            out.append((d, l, e, tag, i))
    elif which == "f8pairs":
        # Compiled for sm_90a: the f8 families (tn, a linear epilogue
        # reading C, nn through the transposing copy), built before and
        # after their persistent-pairs member (merge_old.py joins them).
        out += [("f8", "tn", "none"), ("f8", "tn", "linear"), ("f8", "nn", "none")]
    elif which in ("f8n192", "f8nn2"):
        # Compiled for sm_90a: the F8N192 tiles beside the f8 family.
        out.append(("f8", "tn", "none"))
        # f8nn2: the nn/nt tiles alone, reproducers of the illegal
        # instruction (refused since 75cc651: build them at 35accc5).
        for i, (d, l, e, _, _) in enumerate(F8N192):
            if (which == "f8nn2") != (l != "tn"):
                continue
            out.append((d, l, e, "n192", i))
    elif which == "mcpersist":
        # Compiled for sm_90a: the MCPERSIST tiles beside the default
        # families they would join.
        out += [("f16", "tn", "none"), ("f16", "nn", "none"), ("bf16", "tn", "none"),
                ("f8", "tn", "none"), ("f16", "tn", "bias_gelu_tanh"),
                ("f16", "tn", "bias_silu_residual")]
        for i, (d, l, e, _, _) in enumerate(MCPERSIST):
            out.append((d, l, e, "mcp", i))
    elif which == "wsregs":
        # Compiled for sm_90a: the warp-specialized kernels (setmaxnreg)
        # beside the defaults: f16 tn/nn with TMA with and without a
        # producer warpgroup, and every promoted f8 tile of the tma set.
        for l in ["tn", "nn"]:
            out.append(("f16", l, "none"))
            for i, v in enumerate(TMA_VARIANTS):
                if v[2] in (128, 256) and v[0][:2] in ([128, 256], [128, 128]):
                    out.append(("f16", l, "none", "tma", i))
        out.append(("f8", "tn", "none"))
        out.append(("f8", "tn", "linear"))
        for i, (d, l, e, c) in enumerate(TMA_OTHER):
            if d == "f8" or "tma_ws" in c:
                out.append((d, l, e, "tmao", i))
    return out


# (block, warps, instr N, stages, load) variants of the f16/bf16 wgmma
# kernel for the TMA comparison (the first is the sm_90a default tile).
TMA_VARIANTS = [
    ([128, 256, 64], [2, 1], 256, 4, "tma"),
    ([128, 256, 64], [2, 1], 256, 4, "cp_async"),
    ([128, 256, 64], [2, 1], 256, 3, "tma"),
    ([128, 128, 64], [2, 1], 128, 4, "tma"),
    ([128, 128, 64], [2, 1], 128, 6, "tma"),
    ([256, 128, 64], [4, 1], 128, 4, "tma"),
    # Warp-specialized: a producer warpgroup issues the loads.
    ([128, 256, 64], [2, 1], 256, 4, "tma_ws"),
    ([128, 256, 64], [2, 1], 256, 3, "tma_ws"),
    ([128, 128, 64], [2, 1], 128, 6, "tma_ws"),
]

# (block, warps, instr N, stages) of TMA multicast pairs (`multicast = 2`,
# load = tma_ws, group = 8): the default tile first.
MULTICAST_VARIANTS = [
    ([128, 256, 64], [2, 1], 256, 4),
    ([128, 256, 64], [2, 1], 256, 3),
    ([128, 128, 64], [2, 1], 128, 6),
]

# `schedule = persistent` configs of the `slices` set: the default tile
# with four stages (its epilogue staged in column slices: the whole tile
# does not fit beside four stages), with three (the whole tile of C fits),
# and the f8 default tile (192 x 128, three compute warpgroups).
SLICES = [
    "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], "
    "stages = 4, group = 8, load = tma_ws, schedule = persistent>",
    "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], "
    "stages = 3, group = 8, load = tma_ws, schedule = persistent>",
    "#gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], instr = [64, 128, 32], "
    "stages = 4, group = 8, load = tma_ws, schedule = persistent>",
]

# TMA with the other operand types and with split-K.
TMA_OTHER = [
    ("tf32", "tn", "none", "#gemm.config<kind = wgmma, block = [128, 256, 32], warps = [2, 1], instr = [64, 256, 8], stages = 4, group = 8, load = tma>"),
    ("i8", "tn", "none", "#gemm.config<kind = wgmma, block = [128, 256, 128], warps = [2, 1], instr = [64, 256, 32], stages = 4, group = 8, load = tma>"),
    ("f8", "tn", "linear", "#gemm.config<kind = wgmma, block = [128, 256, 128], warps = [2, 1], instr = [64, 256, 32], stages = 4, group = 8, load = tma>"),
    ("bf16", "tn", "bias_col_relu", "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, split_k = 3, load = tma>"),
    ("f16", "nt", "residual", "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, split_k = 2, reduction = cluster>"),
    ("f16", "tn", "bias_row_gelu_tanh", "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws>"),
    ("bf16", "nn", "bias_col_relu", "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, split_k = 3, load = tma_ws>"),
    ("f16", "tt", "residual", "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 4, group = 8, load = tma_ws>"),
    # f8: promoted partial sums (N = 128, the default, 6 and 4 stages) and
    # the tensor cores' accumulation alone (N = 256).
    ("f8", "tn", "none", "#gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 6, group = 8, load = tma>"),
    ("f8", "tn", "none", "#gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 4, group = 8, load = tma>"),
    ("f8", "tn", "none", "#gemm.config<kind = wgmma, block = [128, 256, 128], warps = [2, 1], instr = [64, 256, 32], stages = 4, group = 8, load = tma>"),
    ("f8", "tn", "linear", "#gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 6, group = 8, load = tma>"),
    # Promoted f8 with a producer warpgroup: the compute warpgroups wait on
    # their stages' barriers, not on each other, so one adds its partial
    # sums while the other's MMAs run.
    ("f8", "tn", "none", "#gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 6, group = 8, load = tma_ws>"),
    ("f8", "tn", "none", "#gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 4, group = 8, load = tma_ws>"),
    ("f8", "tn", "linear", "#gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], instr = [64, 128, 32], stages = 6, group = 8, load = tma_ws>"),
    # Fused epilogues on other tiles: 128 x 128 with 3 stages fits two
    # blocks on an SM (one's epilogue overlaps the other's main loop), and
    # the producer warpgroup of tma_ws.
    ("f16", "tn", "bias_silu_residual", "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 3, group = 8, load = tma>"),
    ("f16", "tn", "bias_silu_residual", "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws>"),
    ("f16", "tn", "bias_gelu_tanh", "#gemm.config<kind = wgmma, block = [128, 128, 64], warps = [2, 1], instr = [64, 128, 16], stages = 3, group = 8, load = tma>"),
    ("f16", "tn", "bias_gelu_tanh", "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma_ws>"),
    # f32 division in the staged epilogue, checked bit for bit
    # (`harness divide`).
    ("tf32", "tn", "divide", "#gemm.config<kind = wgmma, block = [128, 256, 32], warps = [2, 1], instr = [64, 256, 8], stages = 4, group = 8, load = tma>"),
    ("tf32", "tn", "divide_f64", "#gemm.config<kind = wgmma, block = [128, 256, 32], warps = [2, 1], instr = [64, 256, 8], stages = 4, group = 8, load = tma>"),
    # SiLU with approximate exp and division (fastmath<afn>), default tile.
    ("f16", "tn", "bias_silu_residual_afn", "#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], instr = [64, 256, 16], stages = 4, group = 8, load = tma>"),
    # Promoted f8 with three compute warpgroups (192 rows): two keep the
    # tensor cores busy while the third adds its partial sums.
    ("f8", "tn", "none", "#gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], instr = [64, 128, 32], stages = 5, group = 8, load = tma_ws>"),
    ("f8", "tn", "none", "#gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], instr = [64, 128, 32], stages = 4, group = 8, load = tma_ws>"),
    ("f8", "tn", "linear", "#gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], instr = [64, 128, 32], stages = 5, group = 8, load = tma_ws>"),
    ("f16", "tn", "none", "#gemm.config<kind = wgmma, block = [192, 128, 64], warps = [3, 1], instr = [64, 128, 16], stages = 5, group = 8, load = tma_ws>"),
]


def _wgmma(block, n, k, stages, extra=""):
    """A one-warpgroup-per-team wgmma config string (pingpong set)."""
    return (f"#gemm.config<kind = wgmma, block = {block}, warps = [1, 1], "
            f"instr = [64, {n}, {k}], stages = {stages}, group = 8{extra}>")


_PP = ", load = tma_ws, schedule = pingpong"
_PS = ", load = tma_ws, schedule = persistent"
_COOP16 = ("#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], "
           "instr = [64, 256, 16], stages = {}, group = 8" + _PS + ">")
_DEFAULT16 = ("#gemm.config<kind = wgmma, block = [128, 256, 64], warps = [2, 1], "
              "instr = [64, 256, 16], stages = 4, group = 8, load = tma>")
_DEFAULT8 = ("#gemm.config<kind = wgmma, block = [192, 128, 128], warps = [3, 1], "
             "instr = [64, 128, 32], stages = 4, group = 8, load = tma_ws>")

# f8 e4m3 tn tiles of the `f8roof` set (issue 15's f8 row): the default
# tile, two compute warpgroups of 128 x 128, the tensor cores' accumulation
# alone (N = 256), TMA multicast pairs, and persistent 128 x 128 blocks.
_F8_128 = ("#gemm.config<kind = wgmma, block = [128, 128, 128], warps = [2, 1], "
           "instr = [64, 128, 32], stages = {}, group = 8, load = tma_ws{}>")
F8ROOF = [
    _DEFAULT8,
    _F8_128.format(6, ""),
    _F8_128.format(4, ""),
    "#gemm.config<kind = wgmma, block = [128, 256, 128], warps = [2, 1], instr = [64, 256, 32], "
    "stages = 4, group = 8, load = tma>",
    _DEFAULT8[:-1] + ", multicast = 2>",
    _F8_128.format(6, ", multicast = 2"),
    _F8_128.format(6, ", schedule = persistent"),
    _F8_128.format(4, ", schedule = persistent"),
]


# Wide decode on few blocks (33 to 256 rows of A, N in the thousands: the
# every list's decode_wide rows 64x4096x4096 and 96x4096x11008 run 64
# blocks of the dispatched 64 x 64 and 64 x 128 tiles on 132 SMs): the
# dispatched tiles beside narrower ones (more blocks) and K split in two.
_WIDE = ("#gemm.config<kind = wgmma, block = [{}, {}, 64], warps = [{}, 1], "
         "instr = [64, {}, 16], stages = {}{}, load = tma_ws>")
WIDEDEC = [
    _WIDE.format(64, 64, 1, 64, 8, ""),
    _WIDE.format(64, 128, 1, 128, 8, ""),
    _WIDE.format(64, 32, 1, 32, 8, ""),
    _WIDE.format(128, 32, 2, 32, 8, ""),
    _WIDE.format(128, 64, 2, 64, 8, ""),
    _WIDE.format(64, 64, 1, 64, 8, ", split_k = 2"),
    _WIDE.format(128, 64, 2, 64, 8, ", split_k = 2"),
    _WIDE.format(64, 128, 1, 128, 8, ", split_k = 2"),
    # 32 columns through cp.async (TMA boxes of an nn B need 64 of them).
    _WIDE.format(64, 32, 1, 32, 8, "").replace(", load = tma_ws", ""),
    _WIDE.format(128, 32, 2, 32, 6, "").replace(", load = tma_ws", ""),
]


# Grouped rasterization (`group`: tile rows walked together) of the f16
# default tile and of the persistent 128 x 256 tile.
GROUPS = ([_DEFAULT16.replace("group = 8", f"group = {g}") for g in (1, 4, 8, 12, 16, 32)]
          + [_COOP16.format(4).replace("group = 8", f"group = {g}") for g in (8, 16)])


# The persistent 128 x 256 tile with four stages beside the default
# families: (dtype, layout, epilogue, config, batched).
PERSIST4 = [(d, l, e, _COOP16.format(4), b) for d, l, e, b in (
    ("f16", "tn", "none", False), ("f16", "nn", "none", False), ("f16", "nt", "none", False),
    ("f16", "tt", "none", False), ("bf16", "tn", "none", False),
    ("f16", "tn", "bias_gelu_tanh", False), ("f16", "tn", "bias_silu_residual", False),
    ("f16", "tn", "linear", False), ("f16", "tn", "none", True))]


# 128 x 192 tiles of the f16 / bf16 default's kind (two compute warpgroups
# of m64n192, loads through TMA): grids of 128 x 256 tiles that end in a
# short last wave (3072^2: 288 tiles, 2.2 waves of 132) make nearly whole
# waves of them (384 tiles, 2.9 waves): (dtype, layout, epilogue, config,
# batched).
_WF16 = ("#gemm.config<kind = wgmma, block = [128, 192, 64], warps = [2, 1], "
         "instr = [64, 192, 16], stages = {}, group = 8, load = tma>")
WAVEFIT = [
    ("f16", "tn", "none", _WF16.format(4), False),
    ("f16", "tn", "none", _WF16.format(5), False),
    ("bf16", "tn", "none", _WF16.format(4), False),
    ("f16", "nn", "none", _WF16.format(4), False),
    ("f16", "tn", "linear", _WF16.format(4), False),
    ("f16", "tn", "bias_silu_residual", _WF16.format(4), False),
    ("f16", "tt", "none", _WF16.format(4), False),
    ("f16", "tn", "none", _WF16.format(4), True),
    ("f16", "nt", "none", _WF16.format(4), False),
    ("bf16", "nn", "none", _WF16.format(4), False),
    ("f16", "nn", "none", _WF16.format(5), False),
]


# Persistent blocks in multicast pairs (`schedule = persistent`,
# `multicast = 2`: the walk's tiles 2i and 2i + 1 share B's tile): the
# persistent 128 x 256 f16 tile and the f8 tiles cuBLASLt's kernels
# resemble (128 x 128 x 128, 6 stages; the f8 default tile), in every
# layout, bf16, fused epilogues, C read, batched: (dtype, layout,
# epilogue, config, batched).
_PAIRS16 = _COOP16.format(4)[:-1] + ", multicast = 2>"
_PAIRS8 = _F8_128.format(6, ", schedule = persistent, multicast = 2")
MCPERSIST = [(d, l, e, _PAIRS16, b) for d, l, e, b in (
    ("f16", "tn", "none", False), ("f16", "nn", "none", False), ("f16", "nt", "none", False),
    ("f16", "tt", "none", False), ("bf16", "tn", "none", False),
    ("f16", "tn", "bias_gelu_tanh", False), ("f16", "tn", "bias_silu_residual", False),
    ("f16", "tn", "linear", False), ("f16", "tn", "none", True))] + [
    ("f8", "tn", "none", _PAIRS8, False),
    ("f8", "tn", "none", _DEFAULT8[:-1] + ", schedule = persistent, multicast = 2>", False),
    ("f8", "tn", "linear", _PAIRS8, False),
    ("f16", "tn", "none", _COOP16.format(4), False),
]


# f8 e4m3 tiles of N = 192 (promoted since the 192-wide partial sums fit
# two compute warpgroups' registers): 128 x 192 with two compute
# warpgroups, 4 and 5 stages, in multicast pairs and persistent pairs,
# beside the default tile and the f8 family: (dtype, layout, epilogue,
# config, batched).
_F8_N192 = ("#gemm.config<kind = wgmma, block = [128, 192, 128], warps = [2, 1], "
            "instr = [64, 192, 32], stages = {}, group = 8, load = tma_ws{}>")
F8N192 = [
    ("f8", "tn", "none", _DEFAULT8, False),
    ("f8", "tn", "none", _F8_N192.format(4, ""), False),
    ("f8", "tn", "none", _F8_N192.format(5, ""), False),
    ("f8", "tn", "none", _F8_N192.format(4, ", multicast = 2"), False),
    ("f8", "tn", "none", _F8_N192.format(4, ", schedule = persistent, multicast = 2"), False),
    ("f8", "tn", "none", _F8_N192.format(4, ", schedule = persistent"), False),
    ("f8", "tn", "linear", _F8_N192.format(4, ""), False),
    ("f8", "tn", "none", _F8_N192.format(4, ""), True),
    ("f8", "tn", "none", _DEFAULT8[:-1] + ", schedule = persistent, multicast = 2>", False),
    ("f8", "nn", "none", _F8_N192.format(4, ""), False),
    ("f8", "nn", "none", _F8_128.format(6, ""), False),
    ("f8", "nt", "none", _F8_N192.format(4, ""), False),
]


# `reduction = fixup` (the tiles of the grid's last partial wave split in
# K, reduced by the slice that finishes last): the sm_90a defaults of f16,
# bf16, i8 and f8 with it, fused epilogues (one reading C), batched
# operands, nn, and a warp-specialized 128 x 256 tile: (dtype, layout,
# epilogue, config, batched).
_FX = ", split_k = 4, reduction = fixup>"
_I8DEFAULT = ("#gemm.config<kind = wgmma, block = [128, 256, 128], warps = [2, 1], "
              "instr = [64, 256, 32], stages = 4, group = 8, load = tma>")
FIXUP = [
    ("f16", "tn", "none", _DEFAULT16[:-1] + _FX, False),
    ("f16", "nn", "none", _DEFAULT16[:-1] + _FX, False),
    ("bf16", "tn", "none", _DEFAULT16[:-1] + _FX, False),
    ("f16", "tn", "bias_gelu_tanh", _DEFAULT16[:-1] + _FX, False),
    ("f16", "tn", "bias_silu_residual", _DEFAULT16[:-1] + _FX, False),
    ("f16", "tn", "linear", _DEFAULT16[:-1] + _FX, False),
    ("f16", "tn", "none", _DEFAULT16[:-1] + _FX, True),
    ("f16", "tn", "none", _DEFAULT16.replace("load = tma", "load = tma_ws")[:-1] + _FX, False),
    ("f8", "tn", "none", _DEFAULT8[:-1] + _FX, False),
    ("i8", "tn", "none", _I8DEFAULT[:-1] + _FX, False),
    ("f16", "tn", "none", _DEFAULT16[:-1] + ", split_k = 2, reduction = fixup>", False),
    ("f16", "tn", "none", _DEFAULT16[:-1] + ", split_k = 8, reduction = fixup>", False),
]


# `schedule = pingpong` (persistent blocks of two teams taking turns) and
# `persistent` (one team) beside the tiles they are measured against:
# (dtype, layout, epilogue, config, batched). Every layout, the fused
# epilogues, batched operands, and the other operand types.
PINGPONG = [
    ("f16", "tn", "none", _DEFAULT16, False),
    ("f16", "tn", "none", _wgmma([128, 128, 64], 128, 16, 4, _PP), False),
    ("f16", "tn", "none", _wgmma([128, 128, 64], 128, 16, 5, _PP), False),
    ("f16", "tn", "none", _wgmma([64, 256, 64], 256, 16, 4, _PP), False),
    ("f16", "tn", "none", "#gemm.config<kind = wgmma, block = [256, 128, 64], warps = [2, 1], "
     "instr = [64, 128, 16], stages = 4, group = 8, load = tma_ws>", False),
    ("f16", "nn", "none", _DEFAULT16, False),
    ("f16", "nn", "none", _wgmma([128, 128, 64], 128, 16, 5, _PP), False),
    ("f16", "nt", "none", _wgmma([128, 128, 64], 128, 16, 5, _PP), False),
    ("f16", "tt", "none", _wgmma([64, 256, 64], 256, 16, 4, _PP), False),
    ("bf16", "tn", "none", _DEFAULT16, False),
    ("bf16", "tn", "none", _wgmma([128, 128, 64], 128, 16, 5, _PP), False),
    ("bf16", "nn", "none", _wgmma([128, 128, 64], 128, 16, 5, _PP), False),
    ("f16", "tn", "bias_gelu_tanh", _DEFAULT16, False),
    ("f16", "tn", "bias_gelu_tanh", _wgmma([128, 128, 64], 128, 16, 4, _PP), False),
    ("f16", "tn", "bias_silu_residual", _DEFAULT16, False),
    ("f16", "tn", "bias_silu_residual", _wgmma([128, 128, 64], 128, 16, 4, _PP), False),
    ("f16", "tn", "bias_silu_residual", _wgmma([64, 256, 64], 256, 16, 4, _PP), False),
    ("f16", "tn", "linear", _wgmma([128, 128, 64], 128, 16, 4, _PP), False),
    ("f16", "tn", "bias_row_gelu_tanh", _wgmma([64, 256, 64], 256, 16, 4, _PP), False),
    ("f16", "tn", "none", _wgmma([128, 128, 64], 128, 16, 5, _PP), True),
    ("bf16", "nn", "none", _wgmma([64, 128, 64], 128, 16, 6, _PP), True),
    ("f8", "tn", "none", _DEFAULT8, False),
    ("f8", "tn", "none", _wgmma([64, 128, 128], 128, 32, 6, _PP), False),
    ("f8", "tn", "linear", _wgmma([64, 256, 128], 256, 32, 4, _PP), False),
    ("tf32", "tn", "none", _wgmma([128, 128, 32], 128, 8, 5, _PP), False),
    ("i8", "tn", "none", _wgmma([128, 128, 128], 128, 32, 4, _PP), False),
    ("f16", "tn", "none", _COOP16.format(3), False),
    ("f16", "tn", "none", _COOP16.format(4), False),
    ("f16", "nn", "none", _COOP16.format(3), False),
    ("f16", "tn", "bias_gelu_tanh", _COOP16.format(3), False),
    ("f16", "tn", "bias_silu_residual", _COOP16.format(3), False),
    ("bf16", "tn", "none", _COOP16.format(3), True),
    ("f8", "tn", "none", _DEFAULT8.replace(", load = tma_ws>", _PS + ">"), False),
]


def _gemv(bm, rows, warps, unroll, lane=8):
    return (f"#gemm.config<kind = gemv, block = [{bm}, {rows * warps}, {32 * lane * unroll}], "
            f"warps = [1, {warps}], instr = [1, 1, {lane}], stages = 1, smem = plain>")


def _gemv_mma(bm, bn, warps, unroll, stages=1):
    # stages = 2: the 16-byte loads of the next iteration in flight during
    # this one's products (tn, tt).
    return (f"#gemm.config<kind = gemv, block = [{bm}, {bn}, {32 * unroll}], "
            f"warps = [1, {warps}], instr = [8, 16, 16], stages = {stages}, smem = plain>")


def _gemv_cols(bm, bn, warps, unroll, lane=8):
    # gemv on an N-contiguous B (instr [1, lane, 1]): bn / lane lanes a row
    # of B, so warps x 32 / (bn / lane) k rows a block at once.
    rows = warps * 32 * lane // bn
    return (f"#gemm.config<kind = gemv, block = [{bm}, {bn}, {rows * unroll}], "
            f"warps = [1, {warps}], instr = [1, {lane}, 1], stages = 1, smem = plain>")


# `kind = gemv` configs (dtype, layout, epilogue, config, batched): the
# dispatched tile first (gemm/Tuning/Dispatch.cpp, getGemvConfig).
GEMV_CONFIGS = [
    ("f16", "tn", "none", _gemv(1, 2, 8, 2), False),
    ("bf16", "tt", "none", _gemv(2, 4, 4, 1), False),
    ("f16", "tt", "bias_row_gelu_tanh", _gemv(4, 1, 8, 8), False),
    ("bf16", "tn", "residual", _gemv(3, 2, 8, 4), False),
    ("f32", "tn", "linear", _gemv(1, 2, 8, 2, lane=4), False),
    ("f32", "tt", "none", _gemv(4, 4, 4, 1, lane=4), False),
    ("f16", "tn", "none", _gemv(1, 2, 8, 2), True),
    ("bf16", "tt", "none", _gemv(2, 1, 4, 2), True),
    # The dispatch tile in tt, where A's K x 1 column is read in place.
    ("f16", "tt", "none", _gemv(1, 2, 8, 2), False),
    # gemv on mma.sync (GemvMma.cpp): one and two tiles of A and of B, one
    # to eight warps splitting K, every float epilogue on the first.
    ("f16", "tn", "none", _gemv_mma(8, 16, 8, 2), False),
    ("bf16", "tn", "bias_row_gelu_tanh", _gemv_mma(16, 16, 4, 4), False),
    ("f16", "tt", "residual", _gemv_mma(8, 32, 2, 1), False),
    ("bf16", "tt", "none", _gemv_mma(16, 32, 8, 2), False),
    ("f16", "tn", "linear", _gemv_mma(8, 16, 1, 8), False),
    ("f16", "tn", "none", _gemv_mma(8, 16, 8, 2), True),
    ("bf16", "tt", "none", _gemv_mma(16, 16, 4, 1), True),
    # gemv on an N-contiguous B (GemvColumns.cpp): nn and nt, one to four
    # rows of A, 8 to 32 lanes a row, batched, every float epilogue on the
    # first.
    ("f16", "nn", "none", _gemv_cols(1, 32, 8, 4), False),
    ("bf16", "nt", "none", _gemv_cols(2, 64, 4, 2), False),
    ("f16", "nt", "residual", _gemv_cols(4, 16, 8, 8), False),
    ("bf16", "nn", "bias_row_gelu_tanh", _gemv_cols(3, 256, 2, 1), False),
    ("f32", "nn", "linear", _gemv_cols(1, 32, 8, 4, lane=4), False),
    ("f16", "nn", "none", _gemv_cols(1, 32, 8, 4), True),
    ("bf16", "nt", "none", _gemv_cols(2, 16, 4, 2), True),
    # gemv on mma.sync on a B stored K x N (nn, nt): loads of 4, 8 and 16
    # bytes (one, two and four 16-row tiles a load; three tiles take three
    # 4-byte loads), 1-8 warps and loads, batched, every float epilogue on
    # the first.
    ("f16", "nn", "none", _gemv_mma(8, 16, 8, 2), False),
    ("bf16", "nt", "residual", _gemv_mma(16, 32, 4, 4), False),
    ("f16", "nn", "bias_row_gelu_tanh", _gemv_mma(16, 64, 8, 1), False),
    ("bf16", "nn", "none", _gemv_mma(8, 32, 2, 4), False),
    ("f16", "nt", "linear", _gemv_mma(8, 48, 1, 4), False),
    ("f16", "nn", "none", _gemv_mma(8, 16, 8, 2), True),
    ("bf16", "nt", "none", _gemv_mma(16, 64, 8, 2), True),
    # gemv on mma.sync with its 16-byte loads double-buffered (stages = 2;
    # tn, tt): the dispatched tiles, one and four loads a lane and row, two
    # to eight warps, batched, every float epilogue on the first.
    ("f16", "tn", "none", _gemv_mma(16, 32, 8, 2, stages=2), False),
    ("bf16", "tt", "none", _gemv_mma(8, 16, 8, 2, stages=2), False),
    ("f16", "tn", "residual", _gemv_mma(8, 16, 2, 4, stages=2), False),
    ("bf16", "tn", "none", _gemv_mma(16, 16, 4, 1, stages=2), False),
    ("f16", "tt", "none", _gemv_mma(16, 32, 8, 2, stages=2), True),
]
GEMV_MMA_FIRST = 9
GEMV_COLS_FIRST = 16
GEMV_MMA_COLS_FIRST = 23
GEMV_MMA_PIPELINED_FIRST = 30


# (bm, rows of B a warp, warps, loads a lane and row) of the gemv sweep.
GEMV_SWEEP = ([(bm, r, w, u) for bm in (1, 2)
               for (r, w, u) in ((2, 8, 2), (1, 8, 2), (4, 8, 2), (2, 8, 1),
                                 (2, 8, 4), (2, 4, 2), (4, 4, 2), (1, 8, 4))]
              + [(4, r, w, u) for (r, w, u) in ((2, 8, 2), (1, 8, 2), (2, 8, 1),
                                                (2, 4, 2), (1, 8, 4), (1, 4, 2))])

# (bm, rows of B a block, warps, loads a lane and row) of the gemv-mma
# sweep (_gemv_mma).
GEMV_MMA_SWEEP = [(bm, bn, w, u) for bm in (8, 16)
                  for (bn, w, u) in ((16, 8, 2), (16, 8, 4), (16, 4, 4),
                                     (16, 8, 1), (32, 8, 2), (32, 4, 2),
                                     (16, 4, 8), (32, 8, 1))]


# (bm, columns a block, warps, loads a lane and k row) of the sweep of gemv
# on mma.sync on a B stored K x N (_gemv_mma; f16 nn).
GEMV_MMA_COLS_SWEEP = [(8, bn, w, u) for (bn, w, u) in
                       ((16, 8, 2), (16, 8, 4), (32, 8, 2), (32, 4, 2),
                        (64, 8, 1), (64, 8, 2), (64, 4, 2))] + \
                      [(16, bn, w, u) for (bn, w, u) in
                       ((16, 8, 2), (16, 8, 4), (32, 8, 2), (32, 8, 1),
                        (32, 4, 4), (64, 8, 1), (64, 8, 2))] + \
                      [(16, bn, w, u) for (bn, w, u) in
                       ((64, 4, 1), (64, 4, 2))]


# (bm, columns a block, warps, loads a lane) of the sweep of gemv on an
# N-contiguous B (_gemv_cols).
GEMV_COLS_SWEEP = ([(bm, bn, w, u) for bm in (1, 2, 4)
                    for (bn, w, u) in ((32, 8, 4), (32, 8, 8), (16, 8, 4),
                                       (64, 8, 4), (32, 4, 8), (32, 16, 4))]
                   + [(1, 16, 8, 8), (1, 64, 16, 4), (1, 128, 8, 4)])


def _med(kind, block, warps, instr, stages, split, load="", group=1):
    extra = (f", group = {group}" if group > 1 else "") + (f", load = {load}" if load else "")
    return (f"#gemm.config<kind = {kind}, block = {block}, warps = {warps}, "
            f"instr = {instr}, stages = {stages}, split_k = {split}{extra}>")


# (layout, config) of the batched-decode sweep: wgmma tiles of 64 to 192
# rows by 64 to 256 columns, one or two K slices, with a producer
# warpgroup; the decode-64-split member's tile and slices of 2026-12-03
# (64 x 128, 4 stages, 4 slices) as md7.
MED_SWEEP = [
    ("tn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 8, 1, "tma_ws")),
    ("tn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 8, 2, "tma_ws")),
    ("tn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 8, 1, "tma_ws")),
    ("tn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 8, 2, "tma_ws")),
    ("tn", _med("wgmma", [64, 256, 64], [1, 1], [64, 256, 16], 5, 1, "tma_ws")),
    ("tn", _med("wgmma", [128, 128, 64], [2, 1], [64, 128, 16], 6, 1, "tma_ws")),
    ("tn", _med("wgmma", [128, 64, 64], [2, 1], [64, 64, 16], 8, 1, "tma_ws")),
    ("tn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 4, 4, "tma")),
    ("nn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 8, 1, "tma_ws")),
    ("nn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 8, 1, "tma_ws")),
    ("nn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 8, 2, "tma_ws")),
    # md2 with the family's group = 8 (the decode-64x64 member exactly).
    ("tn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 8, 1, "tma_ws", 8)),
    # 129 to 256 rows: taller and wider tiles in one wave (md12, md13).
    ("tn", _med("wgmma", [192, 128, 64], [3, 1], [64, 128, 16], 5, 1, "tma_ws")),
    ("tn", _med("wgmma", [128, 256, 64], [2, 1], [64, 256, 16], 4, 1, "tma_ws")),
]


# Configs of the in-place sweep (all layouts): 64 x 128 and 64 x 64 wgmma
# tiles loading through TMA without a producer warpgroup (shifted copies
# where TMA cannot address a misaligned operand), the same 64 x 128 on
# cp.async, 128 x 128 through TMA, and the decode-64x64 member's
# warp-specialized tile (element copies in place).
INPLACE_SWEEP = [
    _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 4, 1, "tma", 8),
    _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 4, 1, "tma", 8),
    _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 4, 1, "", 8),
    _med("wgmma", [128, 128, 64], [2, 1], [64, 128, 16], 4, 1, "tma", 8),
    _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 8, 1, "tma_ws", 8),
]


# (layout, config) of the mid-size sweep: 64 x 128 and 64 x 64 wgmma tiles
# with 1 to 6 K slices through the workspace, or 2 to 4 reduced in a
# cluster, cp.async, TMA or a producer warpgroup.
MID_SWEEP = (
    [("tn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 4, s, "tma"))
     for s in (2, 3, 4, 6, 9)]
    + [("tn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 8, s, "tma_ws"))
       for s in (1, 2, 3)]
    + [("tn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 8, s, "tma_ws"))
       for s in (1, 2, 3, 4)]
    # mi12-mi16 were these tiles with `load = tma` and reduction = cluster
    # (run1-run3 of docs/perf-data/mid-2026-12-04): refused since.
    + [("tn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 4, s)
        .replace(">", ", reduction = cluster>")) for s in (2, 3, 4)]
    + [("tn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 6, s)
        .replace(">", ", reduction = cluster>")) for s in (2, 4)]
    + [("tn", _med("wgmma", [128, 128, 64], [2, 1], [64, 128, 16], 6, s, "tma_ws"))
       for s in (1, 2)]
    # Cluster reductions loading through cp.async (mi19-mi21) and on
    # mma.sync (mi22), beside the TMA ones above.
    + [("tn", _med("wgmma", [64, 128, 64], [1, 1], [64, 128, 16], 4, 2)
        .replace(">", ", reduction = cluster>")),
       ("tn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 4, 2)
        .replace(">", ", reduction = cluster>")),
       ("tn", _med("wgmma", [64, 64, 64], [1, 1], [64, 64, 16], 4, 4)
        .replace(">", ", reduction = cluster>")),
       ("tn", _med("mma_sync", [64, 64, 64], [2, 2], [16, 8, 16], 4, 2)
        .replace(">", ", reduction = cluster>"))])


# Explicit split-K configs (exactly split_k slices): mma.sync with a
# reading epilogue, wgmma, and SIMT on exact f32.
SPLIT_CONFIGS = [
    ("f16", "nn", "linear", "#gemm.config<kind = mma_sync, block = [64, 64, 64], warps = [2, 2], instr = [16, 8, 16], stages = 3, split_k = 5>"),
    ("bf16", "tn", "bias_col_relu", "#gemm.config<kind = wgmma, block = [64, 128, 64], warps = [1, 1], instr = [64, 128, 16], stages = 4, split_k = 3>"),
    ("f32", "nt", "none", "#gemm.config<kind = simt, block = [64, 64, 16], warps = [2, 2], instr = [4, 8, 1], stages = 3, split_k = 7>"),
]


ODD_CONFIGS = [
    ("f16", "#gemm.config<kind = mma_sync, block = [16, 8, 16], warps = [1, 1], instr = [16, 8, 16], stages = 8>"),
    ("f16", "#gemm.config<kind = mma_sync, block = [64, 32, 32], warps = [2, 1], instr = [16, 8, 16], stages = 2, smem = pad, raster = column, group = 3>"),
    ("bf16", "#gemm.config<kind = mma_sync, block = [32, 64, 64], warps = [1, 2], instr = [16, 8, 16], stages = 5, smem = plain>"),
    ("i8", "#gemm.config<kind = mma_sync, block = [16, 8, 32], warps = [1, 1], instr = [16, 8, 32], stages = 2, smem = plain>"),
    ("f32", "#gemm.config<kind = simt, block = [32, 32, 4], warps = [1, 1], instr = [4, 8, 1], stages = 1, smem = pad, raster = column, group = 2>"),
]

# (block, warps, stages) variants of the f16 mma_sync kernel for the sweep.
F16_VARIANTS = [
    ([128, 128, 64], [2, 2], 3),
    ([128, 256, 32], [2, 4], 4),
    ([256, 128, 32], [4, 2], 4),
    ([128, 256, 64], [2, 4], 3),
    ([128, 128, 32], [2, 2], 3),
    ([64, 256, 32], [1, 4], 4),
    ([128, 128, 64], [2, 4], 3),
    ([128, 128, 32], [2, 4], 4),
    ([256, 128, 64], [4, 4], 3),
    ([128, 256, 64], [2, 8], 3),
    ([256, 128, 32], [4, 4], 4),
    # The default tile with the other shared-memory layouts (bank conflicts).
    ([128, 128, 64], [2, 2], 3, "plain"),
    ([128, 128, 64], [2, 2], 3, "pad"),
]


# (block, warps, instr N, stages) variants of the f16 wgmma kernel (sm_90a).
WGMMA_VARIANTS = [
    ("f16", [128, 256, 64], [2, 1], 256, 4),
    ("f16", [128, 256, 64], [2, 1], 256, 3),
    ("f16", [128, 128, 64], [2, 1], 128, 4),
    ("f16", [128, 128, 64], [2, 1], 128, 6),
    ("f16", [256, 128, 64], [4, 1], 128, 4),
    ("f16", [128, 256, 64], [2, 1], 256, 2),
    ("f16", [128, 192, 64], [2, 1], 192, 4),
    ("tf32", [128, 256, 32], [2, 1], 256, 4),
    ("tf32", [128, 128, 32], [2, 1], 128, 4),
    ("i8", [128, 256, 128], [2, 1], 256, 4),
]
WGMMA_K = {"f16": 16, "tf32": 8, "i8": 32}


# The lists of (dtype, layout, epilogue, config, batched) cases, by the
# tag their case tuples carry, and the suffix of their kernels' names.
TAGGED_CONFIGS = {
    "pp": (PINGPONG, "pp"), "fx": (FIXUP, "fx"), "n192": (F8N192, "n"),
    "mcp": (MCPERSIST, "mcp"), "wf": (WAVEFIT, "wf"), "p4": (PERSIST4, "p4"),
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--set", default="smoke", choices=["smoke", "matrix", "perf", "wgmma", "every", "tma", "transpose",
                            "pingpong", "gemv", "gemvsweep", "gemvcols", "gemvmmacols",
                            "medsweep", "midsweep", "inplacesweep", "wsregs",
                            "multicast", "slices", "decodetn", "f8roof", "persist", "widedec",
                            "fixup", "div64", "group", "persist4",
                            "mcpersist", "f8pairs", "f8n192", "f8nn2",
                            "wavefit"])
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    metas = []
    for case in case_list(a.set):
        d, l, e = case[:3]
        name = f"g_{d}_{l}_{e}"
        config = None
        batched = len(case) == 4 and case[3] in ("batched", "default_batched")
        if len(case) == 4 and case[3].startswith("default"):
            config = ""  # the type's default family, not its own config
        if batched:
            name += "_batched"
        elif len(case) == 5 and case[3] == "split":
            name += f"_split{case[4]}"
            config = SPLIT_CONFIGS[case[4]][3]
        elif len(case) == 5 and case[3] in ("tma", "tmab"):
            block, warps, n, stages, load = TMA_VARIANTS[case[4]]
            batched = case[3] == "tmab"
            name += f"_t{case[4]}" + ("_batched" if batched else "")
            config = (f"#gemm.config<kind = wgmma, block = {block}, warps = {warps}, "
                      f"instr = [64, {n}, 16], stages = {stages}, group = 8, load = {load}>")
        elif len(case) == 5 and case[3] in ("mc", "mcb"):
            block, warps, n, stages = MULTICAST_VARIANTS[case[4]]
            batched = case[3] == "mcb"
            name += f"_mc{case[4]}" + ("_batched" if batched else "")
            config = (f"#gemm.config<kind = wgmma, block = {block}, warps = {warps}, "
                      f"instr = [64, {n}, 16], stages = {stages}, group = 8, "
                      f"load = tma_ws, multicast = 2>")
        elif len(case) == 5 and case[3] in ("sl", "slb"):
            batched = case[3] == "slb"
            name += f"_sl{case[4]}" + ("_batched" if batched else "")
            config = SLICES[case[4]]
        elif len(case) == 5 and case[3] == "gemv":
            _, _, _, config, batched = GEMV_CONFIGS[case[4]]
            name += f"_gv{case[4]}" + ("_batched" if batched else "")
        elif len(case) == 5 and case[3] == "gemvsweep":
            name += f"_gs{case[4]}"
            config = _gemv(*GEMV_SWEEP[case[4]])
        elif len(case) == 5 and case[3] == "gemvcols":
            name += f"_gc{case[4]}"
            config = _gemv_cols(*GEMV_COLS_SWEEP[case[4]])
        elif len(case) == 5 and case[3] == "gemvmmacols":
            name += f"_gq{case[4]}"
            config = _gemv_mma(*GEMV_MMA_COLS_SWEEP[case[4]])
        elif len(case) == 5 and case[3] == "gemvmma":
            name += f"_gm{case[4]}"
            config = _gemv_mma(*GEMV_MMA_SWEEP[case[4]])
        elif len(case) == 5 and case[3] == "med":
            name += f"_md{case[4]}"
            config = MED_SWEEP[case[4]][1]
        elif len(case) == 5 and case[3] == "ip":
            name += f"_ip{case[4]}"
            config = INPLACE_SWEEP[case[4]]
        elif len(case) == 5 and case[3] == "mid":
            name += f"_mi{case[4]}"
            config = MID_SWEEP[case[4]][1]
        elif len(case) == 5 and case[3] in TAGGED_CONFIGS:
            configs, suffix = TAGGED_CONFIGS[case[3]]
            _, _, _, config, batched = configs[case[4]]
            name += f"_{suffix}{case[4]}" + ("_batched" if batched else "")
        elif len(case) == 5 and case[3] == "fr":
            name += f"_fr{case[4]}"
            config = F8ROOF[case[4]]
        elif len(case) == 5 and case[3] == "grp":
            name += f"_gr{case[4]}"
            config = GROUPS[case[4]]
        elif len(case) == 5 and case[3] == "wd":
            name += f"_wd{case[4]}"
            config = WIDEDEC[case[4]]
        elif len(case) == 5 and case[3] == "tmao":
            name += f"_to{case[4]}"
            config = TMA_OTHER[case[4]][3]
        elif len(case) == 5 and case[3] == "wg":
            dt, block, warps, n, stages = WGMMA_VARIANTS[case[4]]
            name += f"_wg{case[4]}"
            config = (f"#gemm.config<kind = wgmma, block = {block}, warps = {warps}, "
                      f"instr = [64, {n}, {WGMMA_K[dt]}], stages = {stages}, group = 8>")
        elif len(case) == 5:
            name += f"_odd{case[4]}"
            config = ODD_CONFIGS[case[4]][1]
        elif len(case) == 4 and isinstance(case[3], int):
            block, warps, stages, *smem = F16_VARIANTS[case[3]]
            name += f"_v{case[3]}"
            smem = f", smem = {smem[0]}" if smem else ""
            config = (f"#gemm.config<kind = mma_sync, block = {block}, warps = {warps}, "
                      f"instr = [16, 8, 16], stages = {stages}{smem}, group = 8>")
        text, meta = build_case(name, d, l, e, config, batched)
        with open(os.path.join(a.out, name + ".mlir"), "w") as f:
            f.write(text)
        metas.append(meta)
    with open(os.path.join(a.out, "cases.json"), "w") as f:
        json.dump(metas, f, indent=1)
    print(len(metas))


if __name__ == "__main__":
    main()
