#!/usr/bin/env python3
"""A mutation fuzzer for gemm-opt: parse + verify, the lowerings and the
pipelines down to PTX, cubin, AMDGCN and HSACO (docs/robustness.md).

Run (PYTHONPATH=python, from the repository root; scripts/fuzz.sh wraps it):

  python3 -m gemm_mlir.fuzz --seed 1 --count 1000 --out OUT [--jobs N]
      [--timeout 300] [--gemm-opt build/bin/gemm-opt] [--asm-check-fraction 1.0]
  python3 -m gemm_mlir.fuzz --show INDEX --seed 1      one input and its command
  python3 -m gemm_mlir.fuzz --self-test --out OUT      the classifier on fake tools
  python3 -m gemm_mlir.fuzz --reduce FINDING_DIR       shrink a reproducer

What one input is. Input i of seed S is made by its own random.Random seeded
with "S:i" (so --seed gives the same inputs in the same order, and --show i
rebuilds one alone). Half the inputs are gentle (a seed its test expects to
pass, 0-2 mutations that mostly keep it valid, plausible options: these
reach the assemblers); the others are not.

- a base: a seed of the corpus (every test/**/*.mlir split at `// -----`,
  examples/*.mlir, every case gemm_mlir.cases generates for every set; full
  line comments stripped) or a gemm.matmul generated from scratch
  (gen_matmul: random layout, types, static boundary sizes, strides, extras,
  broadcasts, epilogue math, config, target);
- 0 to 5 mutations (MUTATORS): integers to boundary values (anywhere, inside
  #gemm.config, in memref shapes, one dimension everywhere), element types
  (one memref type, all of a type, acc(...), epilogue block arguments),
  memref layouts and memory spaces, layouts, config kinds/smem/raster/
  stages/group/split_k/list lengths, configs added or removed, lines/tokens
  dropped or duplicated, the op repeated, extras and broadcasts added,
  changed or removed, epilogue math inserted (math.* and arith.* on f32/f64),
  the op wrapped in gpu.launch / scf.for / scf.if / scf.parallel /
  scf.execute_region or the input in a nested module / gpu.module / another
  function, gemm.target with real and fake chips, functions renamed to
  awkward symbols, foreign gpu.module/gpu.binary ops, a gemm.kernels module
  attribute, two inputs spliced;
- a command (choose_command): parse+verify, --convert-gemm-to-nvgpu,
  --convert-gemm-to-amdgpu, --gemm-select-config (optionally with the H200
  tuning database or a mutated copy: wrong types, deep nesting, truncation),
  select-config followed by a lowering, --gemm-to-ptx/-cubin/-amdgcn/-hsaco,
  a lowering followed by a pipeline, with chips real and bad and every
  option value mutated (ptx-version, kernel-module, output-dir with
  spaces/braces/quotes, cuda-path without libdevice, lld-path=/bin/true,
  allow-tf32, pack-unaligned, transpose-operands, select-config, unknown
  options).

Each run happens in a fresh folder four levels below a private box (relative
paths only, TMPDIR inside it) and is classified (classify):

  ok                          exit 0 and the output checks pass
  diagnosed                   exit != 0 with an `error:` line at a location
  diagnosed-without-location  exit != 0, every `error:` line at <unknown>,
                              :0:0 or no location
  crash                       killed by a signal, or stderr has LLVM ERROR,
                              Assertion, PLEASE submit a bug report, Stack
                              dump, AddressSanitizer or runtime error:
  hang                        past --timeout
  undiagnosed-failure         exit != 0 without any `error:` line
  broken-output               exit 0 but: the -o output does not re-parse
                              with `gemm-opt -`, or is empty; an `error:` was
                              printed; a file was written outside the run
                              folder, outside output-dir or without one; an
                              artifact (ptx/cubin/s/hsaco) is empty, a
                              cubin/hsaco is no ELF, a .ptx is rejected by
                              `ptxas -arch=<chip>`, a .s by `llvm-mc
                              -triple=amdgcn-amd-amdhsa -mcpu=<chip>` (the
                              input's own gpu.binary objects are not
                              assembled); output-dir given but manifest.json
                              missing from exactly that folder (or not
                              JSON), a manifest object missing, or a kernel
                              of the manifest not defined in its artifact

The first two are fine; the rest are findings. OUT gets summary.json (counts
per class and per pipeline, signatures, timing), runs.jsonl (one line per
input) and findings/<class>/<index>-<pipeline>/ per finding
(diagnosed-without-location: the first few of each signature): input.mlir,
command.sh (re-runs it: GEMM_OPT overrides the binary), stderr.txt (head
and tail), info.json, the auxiliary files. The exit status is 1 when a class
of --fail-on occurred (default: crash, hang, undiagnosed-failure,
broken-output).
"""
import argparse
import concurrent.futures
import datetime
import glob
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from . import cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------

BOUNDARY_INTS = [0, 1, -1, 2, 3, 7, 8, 15, 17, 31, 4095, 4097, 65535, 65537,
                 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 16,
                 2**62, 2**63 - 1, -2**63, -2**31, 1000003, 999999999989,
                 2**53 + 1, 12345678901]
SMALL_INTS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
SIZES = [1, 2, 3, 7, 8, 16, 17, 64, 127, 128, 1000, 4095, 4096, 4097, 65536,
         2**31 - 1, 2**31, 2**32 + 16, 2**62, 2**63 - 1]
VALID_AB = ["f16", "bf16", "f32", "f64", "i8", "f8E4M3FN", "f8E5M2"]
ELEM_TYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64",
              "index", "f8E4M3FN", "f8E5M2", "tf32", "f80", "f128",
              "complex<f32>", "vector<4xf32>"]
DEFAULT_ACC = {"f16": "f32", "bf16": "f32", "f32": "f32", "f64": "f64",
               "i8": "i32", "f8E4M3FN": "f32", "f8E5M2": "f32"}
FLOAT_WIDTH = {"f8E4M3FN": 8, "f8E5M2": 8, "f16": 16, "bf16": 16, "tf32": 19,
               "f32": 32, "f64": 64, "f80": 80, "f128": 128}
INT_WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
LAYOUT_NAMES = ["nn", "nt", "tn", "tt"]
BAD_LAYOUTS = ["NN", "xx", "nnn", "t", ""]
NV_CHIPS = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
AMD_CHIPS = ["gfx90a", "gfx942", "gfx950"]
BAD_CHIPS = ["sm_99", "sm_70", "sm_", "", "SM_90", "sm_90b", "gfx000",
             "gfx1100", "gfx9", "x" * 300, "sm_90,sm_80", "\u00fcnknown"]
KINDS = ["mma_sync", "wgmma", "simt", "mfma", "gemv"]
BAD_KINDS = ["tensor", "dp4a", "MMA_SYNC", ""]
SMEMS = ["swizzle", "pad", "plain"]
BAD_SMEMS = ["padded", "xor", "swizzle128"]
RASTERS = ["row", "column"]
BAD_RASTERS = ["diag", "col", ""]
BCASTS = ["scalar", "row", "col", "full"]
BAD_BCASTS = ["diag", "none", ""]
UNARY_MATH = ["math.sin", "math.cos", "math.tan", "math.sinh", "math.cosh",
              "math.tanh", "math.atanh", "math.asin", "math.acos", "math.atan",
              "math.floor", "math.ceil", "math.round", "math.roundeven",
              "math.trunc", "math.exp", "math.exp2", "math.expm1", "math.log",
              "math.log2", "math.log10", "math.log1p", "math.erf", "math.erfc",
              "math.sqrt", "math.rsqrt", "math.cbrt", "math.absf", "arith.negf"]
BINARY_FLOAT = ["arith.remf", "arith.divf", "arith.maximumf", "arith.minimumf",
                "arith.maxnumf", "arith.minnumf", "arith.addf", "arith.subf",
                "arith.mulf", "math.powf", "math.atan2", "math.copysign"]
BINARY_INT = ["arith.remsi", "arith.remui", "arith.divsi", "arith.divui",
              "arith.ceildivsi", "arith.floordivsi", "arith.shli",
              "arith.shrsi", "arith.maxsi", "arith.minui", "arith.xori",
              "arith.muli"]
UNARY_INT = ["math.absi", "math.ctlz", "math.cttz", "math.ctpop"]
EPILOGUE_FLOATS = ["f32", "f64"]

FAIL_CLASSES = ["crash", "hang", "undiagnosed-failure", "broken-output"]
CLASSES = ["ok", "diagnosed", "diagnosed-without-location"] + FAIL_CLASSES
PIPELINES = ["verify", "nvgpu", "amdgpu", "select", "select+lower", "ptx",
             "cubin", "amdgcn", "hsaco", "chain"]
CRASH_MARKERS = ["LLVM ERROR", "Assertion", "PLEASE submit a bug report",
                 "Stack dump", "AddressSanitizer", "runtime error:", "LeakSanitizer"]
ARTIFACT_EXTS = (".ptx", ".cubin", ".s", ".hsaco")


def pick(rng, common, rare=(), p_rare=0.15):
    """A value of `common`, or of `rare` with probability p_rare."""
    if rare and rng.random() < p_rare:
        return rng.choice(list(rare))
    return rng.choice(list(common))


def fresh(text, stem):
    """An SSA/symbol suffix not yet in `text` (deterministic given text)."""
    i = 0
    while f"{stem}{i}" in text:
        i += 1
    return f"{stem}{i}"


# ---------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------

def strip_comments(text):
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//")) + "\n"


def split_input(text):
    """The parts of a file between `// -----` lines (--split-input-file)."""
    parts, cur = [], []
    for line in text.splitlines():
        if re.match(r"^\s*// -----\s*$", line):
            parts.append("\n".join(cur))
            cur = []
        else:
            cur.append(line)
    parts.append("\n".join(cur))
    return [p for p in parts if p.strip()]


def file_seeds(root):
    out = []
    files = sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"), recursive=True))
    files += sorted(glob.glob(os.path.join(root, "examples", "*.mlir")))
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        rel = os.path.relpath(path, root)
        for k, part in enumerate(split_input(text)):
            body = strip_comments(part)
            if body.strip():
                # negative: an input its test expects to be rejected
                positive = "expected-error" not in part and "invalid" not in os.path.basename(rel)
                out.append((f"{rel}#{k}", body, positive))
    return out


def case_text(case):
    """The module text gemm_mlir.cases writes for one entry of case_list
    (the naming and config rules of cases.main)."""
    d, l, e = case[:3]
    name = f"g_{d}_{l}_{e}"
    config, batched = None, False
    if len(case) == 4 and case[3] == "batched":
        name += "_batched"
        batched = True
    elif len(case) == 5 and case[3] == "wg":
        dt, block, warps, n, stages = cases.WGMMA_VARIANTS[case[4]]
        name += f"_wg{case[4]}"
        config = (f"#gemm.config<kind = wgmma, block = {block}, warps = {warps}, "
                  f"instr = [64, {n}, {cases.WGMMA_K[dt]}], stages = {stages}, group = 8>")
    elif len(case) == 5:
        name += f"_odd{case[4]}"
        config = cases.ODD_CONFIGS[case[4]][1]
    elif len(case) == 4:
        block, warps, stages, *smem = cases.F16_VARIANTS[case[3]]
        name += f"_v{case[3]}"
        smem = f", smem = {smem[0]}" if smem else ""
        config = (f"#gemm.config<kind = mma_sync, block = {block}, warps = {warps}, "
                  f"instr = [16, 8, 16], stages = {stages}{smem}, group = 8>")
    text, _ = cases.build_case(name, d, l, e, config, batched)
    return name, text


def generated_seeds():
    out, seen = [], set()
    for which in ["smoke", "matrix", "perf", "wgmma"]:
        for case in cases.case_list(which):
            name, text = case_text(case)
            if name not in seen:
                seen.add(name)
                out.append((f"cases:{which}:{name}", text, True))
    return out


def collect_seeds(root):
    """Every seed: (name, text, positive), in a fixed order; positive when
    its test does not expect a diagnostic."""
    return file_seeds(root) + generated_seeds()


def harvest_configs(seeds):
    found = set()
    for _, text, _ in seeds:
        found.update(re.findall(r"#gemm\.config<[^<>]*>", text))
    return sorted(found)


# ---------------------------------------------------------------------------
# Generated ops
# ---------------------------------------------------------------------------

def convert(lines, v, frm, to, text_hint=""):
    """Emits ops converting %v from `frm` to `to` where arith can; returns
    the value's name (unchanged when no conversion exists: the verifier
    then has a type mismatch to report)."""
    if frm == to:
        return v
    name = fresh(text_hint + "\n".join(lines), "%fzv")
    if frm in FLOAT_WIDTH and to in FLOAT_WIDTH:
        wf, wt = FLOAT_WIDTH[frm], FLOAT_WIDTH[to]
        if wf == wt:
            mid = convert(lines, v, frm, "f32" if wf < 32 else "f128", text_hint)
            return convert(lines, mid, "f32" if wf < 32 else "f128", to, text_hint)
        op = "arith.extf" if wt > wf else "arith.truncf"
        lines.append(f"{name} = {op} {v} : {frm} to {to}")
    elif frm in INT_WIDTH and to in FLOAT_WIDTH:
        op = "arith.uitofp" if frm == "i1" else "arith.sitofp"
        lines.append(f"{name} = {op} {v} : {frm} to {to}")
    elif frm in FLOAT_WIDTH and to in INT_WIDTH:
        lines.append(f"{name} = arith.fptosi {v} : {frm} to {to}")
    elif frm in INT_WIDTH and to in INT_WIDTH:
        op = "arith.extsi" if INT_WIDTH[to] > INT_WIDTH[frm] else "arith.trunci"
        lines.append(f"{name} = {op} {v} : {frm} to {to}")
    elif "index" in (frm, to) and (frm in INT_WIDTH or to in INT_WIDTH):
        lines.append(f"{name} = arith.index_cast {v} : {frm} to {to}")
    else:
        return v
    return name


def epilogue_ops(rng, lines, v, t, others, text_hint=""):
    """Appends 1-3 ops on %v of type t (float or int); `others` are (name,
    type) values usable as second operands. Returns the result name."""
    for _ in range(rng.randint(1, 3)):
        name = fresh(text_hint + "\n".join(lines), "%fze")
        same = [o for o, ot in others if ot == t]
        if t in FLOAT_WIDTH:
            r = rng.random()
            if r < 0.55:
                op = rng.choice(UNARY_MATH)
                lines.append(f"{name} = {op} {v} : {t}")
            elif r < 0.9:
                op = rng.choice(BINARY_FLOAT)
                if same and rng.random() < 0.5:
                    w = rng.choice(same)
                else:
                    w = fresh(text_hint + "\n".join(lines) + name, "%fzk")
                    lines.append(f"{w} = arith.constant {rng.choice(['0.0', '1.0', '-2.5', '3.0e+38', '1.0e-40'])} : {t}")
                lines.append(f"{name} = {op} {v}, {w} : {t}")
            elif r < 0.93:
                k = fresh(text_hint + "\n".join(lines) + name, "%fzk")
                lines.append(f"{k} = arith.constant {rng.choice([0, 3, -1, 31])} : i32")
                lines.append(f"{name} = math.fpowi {v}, {k} : {t}, i32")
            elif r < 0.96:
                lines.append(f"{name} = math.fma {v}, {v}, {v} : {t}")
            else:
                # What the lowerings reject at the op (either vendor's
                # intrinsics, llvm.intr, conversions the AMDGPU back-end
                # cannot select): each once aborted LLVM.
                k = fresh(text_hint + "\n".join(lines) + name, "%fzk")
                foreign, itype = rng.choice([
                    (f"{k} = nvvm.read.ptx.sreg.tid.x : i32", "i32"),
                    (f"{k} = rocdl.workitem.id.x : i32", "i32"),
                    (f"{k} = llvm.intr.lround({v}) : ({t}) -> i32", "i32"),
                    (f"{k} = arith.fptoui {v} : {t} to i1", "i1"),
                    (f"{k} = arith.fptosi {v} : {t} to i32", "i32"),
                ])
                lines.append(foreign)
                lines.append(f"{name} = arith.uitofp {k} : {itype} to {t}")
        elif t in INT_WIDTH or t == "index":
            if rng.random() < 0.7:
                op = rng.choice(BINARY_INT)
                w = fresh(text_hint + "\n".join(lines) + name, "%fzk")
                lines.append(f"{w} = arith.constant {rng.choice([0, 1, -1, 7, 31, 32, 2**31 - 1])} : {t}")
                lines.append(f"{name} = {op} {v}, {w} : {t}")
            else:
                lines.append(f"{name} = {rng.choice(UNARY_INT)} {v} : {t}")
        else:
            return v
        v = name
    return v


def operand_shapes(layout, m, n, k):
    """(A dims, B dims) of a layout per docs/dialect.md."""
    a = [m, k] if layout in ("nn", "tn") else [k, m]
    b = [k, n] if layout in ("nn", "nt") else [n, k]
    return a, b


def memref(dims, t, strided=None):
    shape = "x".join(str(d) for d in dims)
    return f"memref<{shape}x{t}{', ' + strided if strided else ''}>"


def random_config(rng, configs):
    if configs and rng.random() < 0.6:
        return rng.choice(configs)
    kind = pick(rng, KINDS, BAD_KINDS, 0.1)
    lists = []
    for _ in range(3):
        lists.append([pick(rng, SMALL_INTS, BOUNDARY_INTS, 0.2) for _ in range(3)])
    warps = lists[1][:2] if rng.random() > 0.1 else lists[1]
    parts = [f"kind = {kind}", f"block = {lists[0]}", f"warps = {warps}", f"instr = {lists[2]}"]
    for key, vals in (("stages", [1, 2, 3, 4, 8]), ("group", [1, 2, 8]), ("split_k", [1, 2])):
        if rng.random() < 0.4:
            parts.append(f"{key} = {pick(rng, vals, BOUNDARY_INTS, 0.3)}")
    if rng.random() < 0.3:
        parts.append(f"smem = {pick(rng, SMEMS, BAD_SMEMS, 0.1)}")
    if rng.random() < 0.3:
        parts.append(f"raster = {pick(rng, RASTERS, BAD_RASTERS, 0.1)}")
    return "#gemm.config<" + ", ".join(parts) + ">"


def gen_matmul(rng, configs):
    """A func with one gemm.matmul built from scratch: a plausible one
    (legal types, sizes, broadcasts) or, 40% of the time, a wild one."""
    wild = rng.random() < 0.4
    pr = 0.15 if wild else 0.0
    layout = pick(rng, LAYOUT_NAMES)
    ab = pick(rng, VALID_AB, ELEM_TYPES, pr)
    ab2 = ab if rng.random() < 1 - pr else pick(rng, VALID_AB, ELEM_TYPES)
    acc = DEFAULT_ACC.get(ab, "f32") if rng.random() < 1 - pr else pick(rng, ["f32", "f16", "f64", "i32"], ELEM_TYPES)
    if wild:
        c = pick(rng, [ab if ab in FLOAT_WIDTH else "i32", acc, "f16", "f32", "bf16", "i8"], ELEM_TYPES, 0.1)
    else:
        c = rng.choice(["i32", "i8"] if acc == "i32" else [acc, "f16", "bf16", "f32"] if acc == "f32" else [acc])
    sizes = SIZES if wild else [1, 3, 16, 64, 127, 128, 1000, 4095, 4096, 4097]
    dyn = lambda: "?" if rng.random() < 0.55 else pick(rng, sizes)
    m, n, k = dyn(), dyn(), dyn()
    a_dims, b_dims = operand_shapes(layout, m, n, k)
    c_dims = [m, n]
    if rng.random() < 0.15:
        bt = pick(rng, ["?", 1, 4, 2**31])
        a_dims, b_dims, c_dims = [bt] + a_dims, [bt] + b_dims, [bt] + c_dims
    strided = None
    r = rng.random()
    if r < 0.1:
        strided = "strided<[?, 1], offset: ?>" if len(a_dims) == 2 else "strided<[?, ?, 1], offset: ?>"
    elif r < 0.15:
        strided = f"strided<[{pick(rng, SIZES)}, {pick(rng, [1, 2, 3])}]>" if len(a_dims) == 2 else None
    ta, tb, tc = memref(a_dims, ab, strided), memref(b_dims, ab2), memref(c_dims, c)
    args = [f"%a: {ta}", f"%b: {tb}", f"%c: {tc}"]
    extras, bcasts, block_args = [], [], []
    for i in range(rng.choice([0, 0, 1, 1, 2, 3])):
        kind = pick(rng, BCASTS, BAD_BCASTS, pr / 3)
        et = pick(rng, [acc, "f32", "f16", "f64", "i32"], ELEM_TYPES, pr) if wild else acc
        if kind == "scalar":
            xt = et
        elif kind == "row":
            xt = memref([m], et)
        elif kind == "col":
            xt = memref([n], et)
        elif kind == "full":
            xt = memref(c_dims, et)
        else:
            xt = memref(["?"], et)
        if rng.random() < pr / 3:  # rank or broadcast that does not fit
            xt = memref(["?", "?", "?"], et)
        extras.append((f"%x{i}", xt))
        bcasts.append(kind)
        block_args.append((f"%e{i}", et))
    args += [f"{x}: {t}" for x, t in extras]
    attrs = []
    if bcasts and rng.random() < 1 - pr / 3:
        attrs.append("broadcast = [" + ", ".join(f"#gemm.bcast<{b}>" for b in bcasts) + "]")
    if rng.random() < (0.5 if wild else 0.2):
        attrs.append(f"config = {random_config(rng, configs)}")
    op = (f"  gemm.matmul {layout} ins(%a, %b : {ta}, {tb}) outs(%c : {tc})")
    if extras:
        op += f" extras({', '.join(x for x, _ in extras)} : {', '.join(t for _, t in extras)})"
    op += f" acc({acc})"
    if attrs:
        op += " attributes {" + ", ".join(attrs) + "}"
    lines = []
    if extras or rng.random() < 0.6:
        body = []
        f = acc if acc in FLOAT_WIDTH and rng.random() < 0.5 else pick(rng, EPILOGUE_FLOATS)
        if acc in INT_WIDTH and rng.random() < 0.4:
            f = acc
        v = convert(body, "%acc", acc, f)
        others = [(nm, t) for nm, t in block_args]
        if rng.random() < 0.5:
            others.append((convert(body, "%cin", c, f), f))
        v = epilogue_ops(rng, body, v, f, others)
        v = convert(body, v, f, c)
        body.append(f"gemm.yield {v} : {c}")
        bb = ", ".join([f"%acc: {acc}", f"%cin: {c}"] + [f"{nm}: {t}" for nm, t in block_args])
        op += " {\n  ^bb0(" + bb + "):\n" + "".join(f"    {l}\n" for l in body) + "  }"
    lines.append(f"func.func @fzgen({', '.join(args)}) {{")
    lines.append(op)
    lines += ["  return", "}"]
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.25:
        text = mut_target(rng, text, None) or text
    return text


# ---------------------------------------------------------------------------
# Mutators: (rng, text, ctx) -> new text, or None when not applicable
# ---------------------------------------------------------------------------

INT_RE = re.compile(r"(?<![\w%#^.\-])(-?\d+)(?![\w.])")


def matmul_spans(text):
    """(start, end) of each gemm.matmul op: from the start of its line to the
    end of its last line (region included), by bracket depth."""
    spans = []
    for m in re.finditer(r"gemm\.matmul\b", text):
        start = text.rfind("\n", 0, m.start()) + 1
        if "//" in text[start:m.start()] or '"' in text[start:m.start()]:
            continue
        depth, i = 0, m.end()
        while i < len(text):
            ch = text[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif ch == '"':
                j = text.find('"', i + 1)
                i = j if j >= 0 else len(text)
            elif ch == "\n" and depth == 0:
                rest = text[i + 1:].lstrip()
                if not re.match(r"(outs|ins|extras|acc|attributes|\{|\^bb)", rest):
                    break
            i += 1
        spans.append((start, i))
    return spans


def pick_span(rng, text):
    spans = matmul_spans(text)
    return rng.choice(spans) if spans else None


def replace_match(rng, text, regex, repl_fn, region=None):
    """Replaces one random match of `regex` (inside region=(start, end) when
    given) by repl_fn(match)."""
    lo, hi = region or (0, len(text))
    ms = [m for m in regex.finditer(text, lo, hi)]
    if not ms:
        return None
    m = rng.choice(ms)
    return text[:m.start()] + repl_fn(m) + text[m.end():]


def boundary(rng):
    v = rng.choice(BOUNDARY_INTS)
    if rng.random() < 0.1:
        v = rng.randrange(3, 2**63, 2)  # a large odd number
    return v


def mut_int_boundary(rng, text, ctx):
    region = pick_span(rng, text) if rng.random() < 0.6 else None
    return replace_match(rng, text, INT_RE, lambda m: str(boundary(rng)), region)


def config_spans(text):
    return [(m.start(), m.end()) for m in re.finditer(r"#gemm\.config<[^<>]*>", text)]


def mut_config_int(rng, text, ctx):
    spans = config_spans(text)
    if not spans:
        return None
    return replace_match(rng, text, INT_RE, lambda m: str(boundary(rng)), rng.choice(spans))


def memref_dims(text):
    """(start, end) of every memref shape dimension (a number or ?)."""
    out = []
    for m in re.finditer(r"memref<((?:(?:\?|\d+)x)+)", text):
        pos = m.start(1)
        for d in m.group(1).split("x")[:-1]:
            out.append((pos, pos + len(d)))
            pos += len(d) + 1
    return out


MEMREF_TYPE_RE = re.compile(r"memref<(?:[^<>]|<[^<>]*>)*>")


def mut_shape_dim(rng, text, ctx):
    """One dimension of one memref type, in every occurrence of that type
    (the function's signature and the op agree) or, now and then, in one."""
    types = [m for m in MEMREF_TYPE_RE.finditer(text)]
    if not types:
        return None
    m = rng.choice(types)
    t = m.group(0)
    dims = memref_dims(t)
    if not dims:
        return None
    s, e = rng.choice(dims)
    v = "?" if rng.random() < 0.15 else str(abs(boundary(rng)) if rng.random() < 0.9 else boundary(rng))
    nt = t[:s] + v + t[e:]
    if rng.random() < 0.8:
        return text.replace(t, nt)
    return text[:m.start()] + nt + text[m.end():]


def mut_shape_dim_everywhere(rng, text, ctx):
    """One static size replaced everywhere (keeps M/N/K consistent)."""
    dims = memref_dims(text)
    values = sorted({text[s:e] for s, e in dims if text[s:e] != "?"})
    if not values:
        return None
    old = rng.choice(values)
    new = str(pick(rng, SIZES, [0, 2**32, 2**63 - 1, 2**64 + 1], 0.3))
    out, last = [], 0
    for s, e in dims:
        if text[s:e] == old:
            out += [text[last:s], new]
            last = e
    out.append(text[last:])
    return "".join(out)


def type_regex(t):
    return re.compile(r"(?:(?<=x)|(?<![\w.<]))" + re.escape(t) + r"(?![\w.])")


TYPE_TOKEN_RE = re.compile(r"(?:(?<=x)|(?<![\w.%]))(f8E4M3FN|f8E5M2|bf16|f16|f32|f64|tf32|i1|i8|i16|i32|i64|index)(?![\w.])")


# Linalg named ops whose region builder MLIR 22.1 cannot fail gracefully:
# parsing one with a non-numeric element type (vector<4xf32>) reaches an
# llvm_unreachable, a segfault in release builds, in mlir-opt as in gemm-opt
# (llvm/llvm-project#179677, fixed by #181616 after 22.1;
# docs/robustness.md). The type mutations keep vectors out of inputs that
# hold them.
UPSTREAM_CRASHING_OPS = ("linalg.batch_matmul", "linalg.batch_reduce_matmul")


def elem_types_for(text):
    """The element types a mutation may put into `text`."""
    if any(op in text for op in UPSTREAM_CRASHING_OPS):
        return [t for t in ELEM_TYPES if not t.startswith("vector")]
    return ELEM_TYPES


def mut_type_one(rng, text, ctx):
    """The element type of one memref type (every occurrence of it), or one
    type token anywhere."""
    types_ok = elem_types_for(text)
    if rng.random() < 0.6:
        types = sorted(set(m.group(0) for m in MEMREF_TYPE_RE.finditer(text)))
        if types:
            t = rng.choice(types)
            et = TYPE_TOKEN_RE.search(t)
            if et:
                nt = t[:et.start()] + rng.choice(types_ok) + t[et.end():]
                return text.replace(t, nt)
    region = pick_span(rng, text) if rng.random() < 0.7 else None
    return replace_match(rng, text, TYPE_TOKEN_RE, lambda m: rng.choice(types_ok), region)


def mut_type_all(rng, text, ctx):
    found = sorted(set(m.group(1) for m in TYPE_TOKEN_RE.finditer(text)))
    if not found:
        return None
    old = rng.choice(found)
    new = rng.choice([t for t in (VALID_AB + ["i32"] if ctx.get("gentle") else elem_types_for(text))
                      if t != old])
    return type_regex(old).sub(new, text)


def mut_acc(rng, text, ctx):
    return replace_match(rng, text, re.compile(r"acc\(([^()]*)\)"),
                         lambda m: f"acc({rng.choice(ELEM_TYPES + ['', 'f32, f32'])})")


def mut_block_arg(rng, text, ctx):
    bb = [m for m in re.finditer(r"\^bb0\(([^()]*)\)", text)]
    if not bb:
        return None
    m = rng.choice(bb)
    args = m.group(1).split(",")
    i = rng.randrange(len(args))
    nm = args[i].split(":")[0]
    r = rng.random()
    if r < 0.7:
        args[i] = f"{nm}: {rng.choice(ELEM_TYPES)}"
    elif r < 0.85:
        del args[i]
    else:
        args.insert(i, f" %fzarg: {rng.choice(ELEM_TYPES)}")
    return text[:m.start(1)] + ",".join(args) + text[m.end(1):]


def mut_layout(rng, text, ctx):
    return replace_match(rng, text, re.compile(r"(?<=gemm\.matmul )(nn|nt|tn|tt)\b"),
                         lambda m: pick(rng, LAYOUT_NAMES, BAD_LAYOUTS, 0 if ctx.get("gentle") else 0.1))


def mut_config_field(rng, text, ctx):
    spans = config_spans(text)
    if not spans:
        return None
    s, e = rng.choice(spans)
    cfg = text[s:e]
    r = rng.random()
    if r < 0.2:
        cfg = re.sub(r"kind = \w*", f"kind = {pick(rng, KINDS, BAD_KINDS, 0.2)}", cfg)
    elif r < 0.3:
        new = f"smem = {pick(rng, SMEMS, BAD_SMEMS, 0.2)}"
        cfg = re.sub(r"smem = \w*", new, cfg) if "smem" in cfg else cfg[:-1] + f", {new}>"
    elif r < 0.35:
        new = f"raster = {pick(rng, RASTERS, BAD_RASTERS, 0.2)}"
        cfg = re.sub(r"raster = \w*", new, cfg) if "raster" in cfg else cfg[:-1] + f", {new}>"
    elif r < 0.45:
        # The Hopper fields: how tiles load, which tiles a block computes,
        # how K slices meet, blocks sharing a multicast load (with split_k
        # for a reduction, which needs one).
        key, values = rng.choice([
            ("load", ["cp_async", "tma", "tma_ws", "tmaws"]),
            ("schedule", ["tile", "persistent", "pingpong", "stream"]),
            ("reduction", ["workspace", "cluster", "fixup", "atomic"]),
            ("multicast", [1, 2, 4, 3, 0, 2**31])])
        new = f"{key} = {rng.choice(values)}"
        cfg = re.sub(key + r" = [\w-]+", new, cfg) if key in cfg else cfg[:-1] + f", {new}>"
        if key == "reduction" and "split_k" not in cfg:
            cfg = cfg[:-1] + f", split_k = {rng.choice([2, 4, 16, 17])}>"
    elif r < 0.6:
        key = rng.choice(["stages", "group", "split_k"])
        new = f"{key} = {pick(rng, [1, 2, 3, 4, 8, 9], BOUNDARY_INTS, 0.5)}"
        cfg = re.sub(key + r" = -?\d+", new, cfg) if key in cfg else cfg[:-1] + f", {new}>"
    elif r < 0.75:  # a list one longer or shorter, or empty
        lists = list(re.finditer(r"\[([^\[\]]*)\]", cfg))
        if not lists:
            return None
        m = rng.choice(lists)
        items = [x for x in m.group(1).split(",") if x.strip()]
        q = rng.random()
        if q < 0.4 and items:
            del items[rng.randrange(len(items))]
        elif q < 0.8:
            items.insert(rng.randrange(len(items) + 1), f" {pick(rng, SMALL_INTS, BOUNDARY_INTS)}")
        else:
            items = []
        cfg = cfg[:m.start(1)] + ",".join(items).strip() + cfg[m.end(1):]
    elif r < 0.85:  # drop a parameter
        params = cfg[len("#gemm.config<"):-1].split(", ")
        if len(params) > 1:
            del params[rng.randrange(len(params))]
        cfg = "#gemm.config<" + ", ".join(params) + ">"
    elif r < 0.95:  # duplicate or reorder parameters
        params = cfg[len("#gemm.config<"):-1].split(", ")
        if rng.random() < 0.5:
            params.append(rng.choice(params))
        else:
            rng.shuffle(params)
        cfg = "#gemm.config<" + ", ".join(params) + ">"
    else:
        cfg = cfg[:-1] + f", {rng.choice(['frob = 1', 'block = [1]', 'kind'])}>"
    return text[:s] + cfg + text[e:]


def mut_config_insert(rng, text, ctx):
    span = pick_span(rng, text)
    if not span:
        return None
    s, e = span
    op = text[s:e]
    cfg = random_config(rng, ctx["configs"])
    if "config = #gemm.config" in op:
        new = re.sub(r"#gemm\.config<[^<>]*>", cfg, op, count=1)
    elif re.search(r"attributes\s*\{", op):
        new = tidy(re.sub(r"attributes\s*\{", lambda m: m.group(0) + f"config = {cfg}, ", op, count=1))
    else:
        new = re.sub(r"acc\([^()]*\)", lambda m: m.group(0) + f" attributes {{config = {cfg}}}", op, count=1)
    return text[:s] + new + text[e:]


def tidy(text):
    """Commas and attribute dictionaries left over by a removal."""
    text = re.sub(r"\{\s*,\s*", "{", text)
    text = re.sub(r",\s*\}", "}", text)
    text = re.sub(r"\[\s*,\s*", "[", text)
    text = re.sub(r",\s*\]", "]", text)
    return re.sub(r"\s*attributes\s*\{\s*\}", "", text)


def mut_config_remove(rng, text, ctx):
    new = replace_match(rng, text, re.compile(r"config = #gemm\.config<[^<>]*>(,\s*)?"), lambda m: "")
    return tidy(new) if new else None


def token_spans(text, region=None):
    lo, hi = region or (0, len(text))
    return [(m.start(), m.end()) for m in re.finditer(r"[%#^@]?[\w.$-]+|[^\s\w]", text[lo:hi])], lo


def mut_token(rng, text, ctx):
    region = pick_span(rng, text) if rng.random() < 0.7 else None
    toks, base = token_spans(text, region)
    if not toks:
        return None
    s, e = rng.choice(toks)
    s, e = s + base, e + base
    if rng.random() < 0.5:
        return text[:s] + text[e:]
    return text[:e] + " " + text[s:e] + text[e:]


def mut_line(rng, text, ctx):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        lines.insert(i, lines[i])
    return "\n".join(lines)


def enclosing_func(text, pos):
    """(index after '(' of the signature, name) of the func.func before pos."""
    ms = [m for m in re.finditer(r"func\.func (?:private )?@([\w$.]+)\(", text) if m.start() < pos]
    return (ms[-1].end(), ms[-1].group(1)) if ms else (None, None)


def mut_extras_add(rng, text, ctx):
    span = pick_span(rng, text)
    if not span:
        return None
    s, e = span
    op = text[s:e]
    argpos, _ = enclosing_func(text, s)
    if argpos is None:
        return None
    gentle = ctx.get("gentle")
    kind = pick(rng, BCASTS, BAD_BCASTS, 0 if gentle else 0.1)
    et = pick(rng, ["f32", "f16", "f64", "i32"], ELEM_TYPES, 0 if gentle else 0.2)
    xt = {"scalar": et, "row": f"memref<?x{et}>", "col": f"memref<?x{et}>",
          "full": f"memref<?x?x{et}>"}.get(kind, f"memref<?x?x?x{et}>")
    if not gentle and rng.random() < 0.1:
        xt = rng.choice(["memref<4x4xf32>", "vector<4xf32>", "index", "memref<*xf32>"])
    x = fresh(text, "%fzx")
    a = fresh(text + x, "%fza")
    if "extras(" in op:
        op = op.replace("extras(", f"extras({x}, ", 1)
        op = re.sub(r"(extras\([^:]*:)", lambda m: m.group(1) + f" {xt},", op, count=1)
    else:
        op = re.sub(r"\s*acc\(", f" extras({x} : {xt}) acc(", op, count=1)
    if rng.random() < 0.9:
        bc = f"#gemm.bcast<{kind}>"
        if "broadcast = [" in op:
            op = op.replace("broadcast = [", f"broadcast = [{bc}, ", 1).replace(", ]", "]")
        elif re.search(r"attributes\s*\{", op):
            op = re.sub(r"attributes\s*\{", lambda m: m.group(0) + f"broadcast = [{bc}], ", op, count=1)
        else:
            op = re.sub(r"acc\([^()]*\)", lambda m: m.group(0) + f" attributes {{broadcast = [{bc}]}}", op, count=1)
    m = re.search(r"\^bb0\(([^()]*)\)", op)
    if m:  # the new extra's block argument right after acc and C
        args = m.group(1).split(",")
        at = et if rng.random() < 0.9 else rng.choice(ELEM_TYPES)
        args.insert(min(2, len(args)), f" {a}: {at}")
        op = op[:m.start(1)] + ",".join(args).lstrip() + op[m.end(1):]
    text = text[:s] + op + text[e:]
    return text[:argpos] + f"{x}: {xt}, " + text[argpos:]


def mut_extras_remove(rng, text, ctx):
    new = replace_match(rng, text, re.compile(r"\s*extras\([^()]*\)"), lambda m: "")
    if new and rng.random() < 0.7:  # and the broadcast list with it
        new = tidy(re.sub(r"broadcast = \[[^\[\]]*\](,\s*)?", "", new, count=1))
    return new


def mut_bcast(rng, text, ctx):
    r = rng.random()
    if r < 0.6:
        return replace_match(rng, text, re.compile(r"#gemm\.bcast<\w*>"),
                             lambda m: f"#gemm.bcast<{pick(rng, BCASTS, BAD_BCASTS, 0.2)}>")
    if r < 0.8:
        new = replace_match(rng, text, re.compile(r"#gemm\.bcast<\w*>(,\s*)?"), lambda m: "")
    else:
        new = replace_match(rng, text, re.compile(r"broadcast = \[[^\[\]]*\](,\s*)?"), lambda m: "")
    return tidy(new) if new else None


def mut_epilogue(rng, text, ctx):
    """Inserts math/arith ops before a gemm.yield (on f32 or f64 through
    conversions), or gives a region-less op an epilogue."""
    span = pick_span(rng, text)
    if not span:
        return None
    s, e = span
    op = text[s:e]
    f = pick(rng, EPILOGUE_FLOATS)
    ym = re.search(r"gemm\.yield (%[\w$.]+) : ([^\s}]+)", op)
    if ym:
        v, t = ym.group(1), ym.group(2)
        body = []
        v2 = convert(body, v, t, f, text)
        v3 = epilogue_ops(rng, body, v2, f, [], text)
        v4 = convert(body, v3, f, t, text + "\n".join(body))
        body.append(f"gemm.yield {v4} : {t}")
        indent = re.match(r"[ \t]*", op[op.rfind("\n", 0, ym.start()) + 1:]).group(0)
        new = op[:ym.start()] + f"\n{indent}".join(body) + op[ym.end():]
        return text[:s] + new + text[e:]
    if "extras(" in op or "^bb0" in op:
        return None
    am = re.search(r"acc\(([^()]*)\)", op)
    cm = re.search(r"outs\([^:]*:\s*memref<(?:[?\d]+x)+([^,>]+)", op)
    if not am or not cm:
        return None
    acc, c = am.group(1).strip(), cm.group(1).strip()
    body = []
    v = convert(body, "%acc", acc, f)
    v = epilogue_ops(rng, body, v, f, [], text)
    v = convert(body, v, f, c)
    body.append(f"gemm.yield {v} : {c}")
    region = " {\n  ^bb0(%acc: " + acc + ", %cin: " + c + "):\n" + "".join(f"    {l}\n" for l in body) + "  }"
    return text[:s] + op.rstrip() + region + text[e:]


def mut_wrap(rng, text, ctx):
    """The gemm.matmul inside gpu.launch / scf.for / scf.if / scf.parallel /
    scf.execute_region, or the whole input inside a nested module, a
    gpu.module (functions as they are or as gpu.func kernels) or another
    function."""
    r = rng.random()
    if r < 0.2:
        name = fresh(text, "fzm")
        q = rng.random()
        if q < 0.35:
            return f"module @{name} {{\n{text}\n}}\n"
        if q < 0.6:
            return f"module attributes {{gpu.container_module}} {{\ngpu.module @{name} {{\n{text}\n}}\n}}\n"
        if q < 0.8:  # the functions as gpu.func kernels of a gpu.module
            body = re.sub(r"func\.func (@[\w$.]+\([^{]*\))\s*\{", r"gpu.func \1 kernel {", text)
            body = re.sub(r"(?m)^(\s*)return\s*$", r"\1gpu.return", body)
            return f"module attributes {{gpu.container_module}} {{\ngpu.module @{name} {{\n{body}\n}}\n}}\n"
        return f"func.func @{name}() {{\n{text}\n  return\n}}\n"  # a function in a function
    span = pick_span(rng, text)
    if not span:
        return None
    s, e = span
    op = text[s:e]
    c = fresh(text, "%fzc")
    kind = rng.choice(["gpu.launch", "scf.for", "scf.if", "scf.parallel", "scf.execute_region"])
    if kind == "gpu.launch":
        pre = f"  {c} = arith.constant {rng.choice([1, 1, 2, 128])} : index\n"
        head = (f"  gpu.launch blocks({c}bx, {c}by, {c}bz) in ({c}gx = {c}, {c}gy = {c}, {c}gz = {c}) "
                f"threads({c}tx, {c}ty, {c}tz) in ({c}sx = {c}, {c}sy = {c}, {c}sz = {c}) {{\n")
        tail = "\n    gpu.terminator\n  }"
    elif kind == "scf.for":
        ub = rng.choice([0, 1, 3, 2**31 - 1])
        pre = (f"  {c}lb = arith.constant 0 : index\n  {c}ub = arith.constant {ub} : index\n"
               f"  {c}st = arith.constant 1 : index\n")
        head = f"  scf.for {c}i = {c}lb to {c}ub step {c}st {{\n"
        tail = "\n  }"
    elif kind == "scf.if":
        pre = f"  {c} = arith.constant {rng.choice(['true', 'false'])}\n"
        head = f"  scf.if {c} {{\n"
        tail = "\n  }"
    elif kind == "scf.parallel":
        pre = f"  {c}0 = arith.constant 0 : index\n  {c}1 = arith.constant 2 : index\n"
        head = f"  scf.parallel ({c}i) = ({c}0) to ({c}1) step ({c}1) {{\n"
        tail = "\n    scf.reduce\n  }"
    else:
        pre = ""
        head = "  scf.execute_region {\n"
        tail = "\n    scf.yield\n  }"
    return text[:s] + pre + head + op + tail + text[e:]


TARGET_CHIPS_FAKE = ["sm_99", "sm_70", "", "SM_90", "gfx1100", "gfx000", "x" * 200, "sm_90a\\00"]


def mut_target(rng, text, ctx):
    gentle = bool(ctx and ctx.get("gentle"))
    chip = pick(rng, NV_CHIPS + AMD_CHIPS, TARGET_CHIPS_FAKE, 0 if gentle else 0.25)
    attr = f'#gemm.target<"{chip}">'
    if not gentle and rng.random() < 0.05:
        attr = rng.choice(["#gemm.target<sm_90>", '#gemm.target<"sm_90", "x">', "#gemm.target<>",
                           "#gemm.target<90>", '"sm_90"', "unit"])
    if "gemm.target = " in text and rng.random() < 0.7:
        return re.sub(r'gemm\.target = (#gemm\.target<[^<>]*>|"[^"]*"|\w+)', lambda m: f"gemm.target = {attr}", text, count=1)
    if rng.random() < 0.1:  # on a function instead of the module
        m = re.search(r"(func\.func @[\w$.]+\([^{]*\))\s*\{", text)
        if m:
            return text[:m.end(1)] + f" attributes {{gemm.target = {attr}}}" + text[m.end(1):]
    m = re.match(r"\s*module attributes \{", text)
    if m:
        return text[:m.end()] + f"gemm.target = {attr}, " + text[m.end():]
    return f"module attributes {{gemm.target = {attr}}} {{\n{text}\n}}\n"


def mut_splice(rng, text, ctx):
    other = rng.choice(ctx["seeds"])[1]
    r = rng.random()
    if r < 0.4:  # two inputs in one module, the other's symbols renamed
        tag = fresh(text, "_fz")
        other = re.sub(r"@([\w$.]+)", lambda m: f"@{m.group(1)}{tag}", other)
        return text + "\n" + other
    if r < 0.7:  # this op replaced by the other's
        a, b = pick_span(rng, text), pick_span(rng, other)
        if not a or not b:
            return None
        return text[:a[0]] + other[b[0]:b[1]] + text[a[1]:]
    la, lb = text.split("\n"), other.split("\n")
    i, j = rng.randrange(len(la) + 1), rng.randrange(len(lb) + 1)
    return "\n".join(la[:i] + lb[j:])


WEIRD_SYMBOLS = ['"a b"', "a.b", "a$b", '"0abc"', '"\\C3\\BC"', "x" * 3000, '"a/b"',
                 '"../x"', '"../../up"', '"a\\"q"', '"<>"', "_", "gemm_pack_f16", '"a-b"',
                 '"%"', "gemm_kernels", '"a\\0Ab"']


def symbol_re(name):
    return re.compile(r"@" + re.escape(name) + r"(?![\w$.])")


def mut_rename_func(rng, text, ctx):
    """A function renamed (everywhere) to a symbol kernels and files are
    named after: spaces, dots, quotes, slashes, a leading digit, 3000
    characters, the name of a pack kernel or of the kernel module."""
    names = func_names(text)
    if not names:
        return None
    old = rng.choice(names)
    return symbol_re(old).sub(lambda m: "@" + rng.choice(WEIRD_SYMBOLS), text)


def in_container_module(text, extra):
    """`extra` added at the top level of a gpu.container_module."""
    m = re.match(r"\s*module( @[\w$.\"]+)? attributes \{", text)
    if m:
        end = text.rstrip().rfind("}")
        body = text[:m.end()] + "gpu.container_module, " + text[m.end():end]
        return body + extra + "\n" + text[end:]
    return f"module attributes {{gpu.container_module}} {{\n{text}\n{extra}\n}}\n"


def mut_foreign_module(rng, text, ctx):
    """A gpu.module or gpu.binary the pipelines did not make, named like a
    path, like the kernel module, or holding a kernel named like ours."""
    names = func_names(text)
    name = rng.choice(['"../mod"', '"../../esc"', '"a/b"', "gemm_kernels", "other", '"a b"', "x" * 300])
    nv = rng.random() < 0.6
    # (no malformed chips in #nvvm.target: upstream's verifier of those reads
    # uninitialized memory, "x" or "sm_" pass or fail at random, in mlir-opt too)
    chip = rng.choice(NV_CHIPS if nv else AMD_CHIPS) if rng.random() < 0.9 else \
        rng.choice(["sm_99", "sm_9", "gfx90a"] if nv else ["../x", "sm_90", "", "gfx9999"])
    target = f'#nvvm.target<chip = "{chip}">' if nv else f'#rocdl.target<chip = "{chip}">'
    if rng.random() < 0.6:
        kname = rng.choice(["k", "gemm_pack_f16"] + [f"{n}_gemm" for n in names[:1]])
        extra = (f"gpu.module @{name} [{target}] {{\n  gpu.func @{kname}() kernel {{\n"
                 f"    gpu.return\n  }}\n}}")
    else:
        fmt = rng.choice(["assembly", "bin", "offload", ""])
        payload = rng.choice(["", "// not a ptx", "\\7FELF", "x" * 100])
        obj = f'{fmt} = "{payload}"' if fmt else f'"{payload}"'
        extra = f"gpu.binary @{name} [#gpu.object<{target}, {obj}>]"
    return in_container_module(text, extra)


def mut_module_attr(rng, text, ctx):
    """A module attribute the lowerings and the writer read or write
    (gemm.kernels, the launch facts), set by the input."""
    value = rng.choice(["5", '"x"', "[1, 2]", "[{name = 3 : i64}]", "{}", "unit", "[[[1]]]",
                        '[{name = "k", module = "../x", chip = "sm_90", block = [1, 2]}]',
                        '[{a = {b = {c = [1.5, "s", @sym]}}}]', "dense<1> : tensor<2xi32>",
                        '#gemm.target<"sm_90">', "[" + ", ".join(["{}"] * 100) + "]"])
    attr = f"gemm.kernels = {value}"
    m = re.match(r"\s*module( @[\w$.\"]+)? attributes \{", text)
    if m:
        return text[:m.end()] + attr + ", " + text[m.end():]
    return f"module attributes {{{attr}}} {{\n{text}\n}}\n"


def mut_dup_op(rng, text, ctx):
    """The gemm.matmul repeated 2 to 4 times in its block (one kernel each;
    more would time out on legal but slow kernels: an f8 HSACO kernel takes
    up to 9 s)."""
    span = pick_span(rng, text)
    if not span:
        return None
    s, e = span
    op = text[s:e]
    return text[:e] + ("\n" + op) * rng.choice([1, 2, 3]) + text[e:]


def mut_memref_layout(rng, text, ctx):
    """A layout or memory space on one memref type (every occurrence):
    dynamic or static strides (boundary values, zero, non-unit inner),
    affine maps (strided or not), memory spaces host code cannot have."""
    types = sorted(set(m.group(0) for m in MEMREF_TYPE_RE.finditer(text)))
    if not types:
        return None
    t = rng.choice(types)
    dims = memref_dims(t)
    rank = len(dims)
    if rank == 0:
        return None
    inner = t[len("memref<"):-1]
    shape_end = dims[-1][1] + 1 - len("memref<")
    et_and_rest = inner[shape_end:]
    et = re.split(r",\s*", et_and_rest, maxsplit=1)[0] if not et_and_rest.startswith(("complex<", "vector<")) else \
        et_and_rest[:et_and_rest.find(">") + 1]
    shape = inner[:shape_end]
    v = lambda: str(abs(boundary(rng))) if rng.random() < 0.5 else "?"  # noqa: E731
    d = [f"d{i}" for i in range(rank)]
    r = rng.random()
    if r < 0.3:
        strides = [v() for _ in range(rank - 1)] + [rng.choice(["1", "1", "2", "?", "0"])]
        layout = f"strided<[{', '.join(strides)}]" + (f", offset: {v()}>" if rng.random() < 0.6 else ">")
    elif r < 0.45:
        layout = f"affine_map<({', '.join(d)}) -> ({', '.join(reversed(d))})>"
    elif r < 0.55:
        layout = f"affine_map<({', '.join(d)}) -> ({d[0]} floordiv 2{''.join(', ' + x for x in d[1:])})>"
    elif r < 0.65:
        layout = f"strided<[{', '.join(['0'] * rank)}]>"
    else:
        layout = None
    if layout:
        nt = f"memref<{shape}{et}, {layout}>"
    else:
        space = rng.choice(["1", "3", "#gpu.address_space<workgroup>", "#gpu.address_space<private>", '"x"'])
        nt = f"memref<{shape}{et}, {space}>"
    return text.replace(t, nt)


# (weight, name, function)
MUTATORS = [
    (3, "int-boundary", mut_int_boundary),
    (3, "config-int", mut_config_int),
    (2, "shape-dim", mut_shape_dim),
    (2, "shape-dim-everywhere", mut_shape_dim_everywhere),
    (2, "type-one", mut_type_one),
    (2, "type-all", mut_type_all),
    (1.5, "acc-type", mut_acc),
    (1, "block-arg", mut_block_arg),
    (1.5, "layout", mut_layout),
    (3, "config-field", mut_config_field),
    (2, "config-insert", mut_config_insert),
    (0.5, "config-remove", mut_config_remove),
    (1, "token", mut_token),
    (1, "line", mut_line),
    (1.5, "extras-add", mut_extras_add),
    (0.7, "extras-remove", mut_extras_remove),
    (1, "bcast", mut_bcast),
    (3, "epilogue-math", mut_epilogue),
    (1.5, "wrap", mut_wrap),
    (2, "target", mut_target),
    (1.5, "splice", mut_splice),
    (1, "rename-func", mut_rename_func),
    (1, "foreign-module", mut_foreign_module),
    (0.5, "module-attr", mut_module_attr),
    (0.7, "dup-op", mut_dup_op),
    (1.5, "memref-layout", mut_memref_layout),
]
MAX_INPUT = 256 * 1024


# Mutators that mostly keep a valid input valid (the gentle inputs: deep
# into the lowerings and assemblers rather than into the verifier).
GENTLE = {"epilogue-math", "shape-dim-everywhere", "extras-add", "wrap",
          "target", "config-insert", "type-all", "splice", "layout",
          "rename-func", "foreign-module", "dup-op", "memref-layout"}


def mutate(rng, text, ctx, gentle=False):
    """0-5 mutations (0-2 gentle ones when gentle); returns (text, names of
    those applied)."""
    if gentle:
        n = rng.choice([0, 1, 1, 1, 2])
        pool = [m for m in MUTATORS if m[1] in GENTLE]
    else:
        n = rng.choice([0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5])
        pool = MUTATORS
    applied = []
    weights = [w for w, _, _ in pool]
    for _ in range(n):
        for _attempt in range(4):
            _, name, fn = rng.choices(pool, weights)[0]
            new = fn(rng, text, ctx)
            if new is not None and new != text and len(new) <= MAX_INPUT:
                text = new
                applied.append(name)
                break
    return text, applied


# ---------------------------------------------------------------------------
# Options: the command of one run
# ---------------------------------------------------------------------------

OUTPUT_DIR_NAMES = ["out", "out dir", "o{b}", "{br}", "o'q", 'o"q', "o,c", "o=d",
                    "\u00fcn\u00ef", "deep/a/b/c", ".", "a b'c", "o}x", "o(p"]


def find_char(s, i, c):
    """MLIR's pass-option scanner (PassRegistry.cpp, findChar): the index of
    c at or after i, skipping {...}, (...), [...] and quoted strings; -1
    when there is none."""
    closers = {"{": "}", "(": ")", "[": "]"}
    while i < len(s):
        ch = s[i]
        if ch == c:
            return i
        if ch in closers:
            i = find_char(s, i + 1, closers[ch])
        elif ch in "\"'":
            i = s.find(ch, i + 1)
        if i < 0:
            return -1
        i += 1
    return -1


def option_intent(rendered):
    """The string MLIR's pass-option parser makes of a value rendered alone
    (an enclosing pair of quotes or braces stripped); None when the value is
    ambiguous (a space at the top level, an unbalanced quote or bracket)."""
    closers = {"{": "}", "(": ")", "[": "]"}
    i = 0
    while i < len(rendered):  # every bracket and quote must close
        ch = rendered[i]
        if ch == " ":
            return None
        if ch in closers:
            i = find_char(rendered, i + 1, closers[ch])
        elif ch in "\"'":
            i = rendered.find(ch, i + 1)
        elif ch in ")]}":
            return None
        if i < 0:
            return None
        i += 1
    if len(rendered) > 2 and ((rendered[0] == rendered[-1] and rendered[0] in "\"'")
                              or (rendered[0] == "{" and rendered[-1] == "}")):
        return rendered[1:-1].strip()
    return rendered


def render_value(rng, name):
    """Renders a string option value: plain, quoted or braced; returns
    (rendered, intended value or None)."""
    forms = [name, f'"{name}"', f"'{name}'", "{" + name + "}"]
    rendered = rng.choice(forms)
    return rendered, option_intent(rendered)


def mutate_db(rng, base):
    """Text of a tuning database: the H200 one (or a test input) as is or
    broken in one way."""
    kind = rng.choice(["same", "same", "field-type", "field-type", "drop-key",
                       "boundary", "boundary", "deep", "truncate", "schema",
                       "entries-type", "empty", "chip", "duplicate", "garbage"])
    obj = json.loads(base)
    entries = obj.get("entries") if isinstance(obj, dict) else None
    wrong = [None, True, "x", 3.5, -1, [], {}, [1, 2], {"a": 1}, 2**64, "128", 1e308]

    def some_entry():
        return rng.choice(entries) if entries else None

    if kind == "field-type" and entries:
        e = some_entry()
        tgt = e["config"] if isinstance(e.get("config"), dict) and rng.random() < 0.5 else e
        key = rng.choice(sorted(tgt))
        tgt[key] = rng.choice(wrong)
    elif kind == "field-type":
        obj[rng.choice(["version", "schema", "entries"])] = rng.choice(wrong)
    elif kind == "drop-key" and entries:
        e = some_entry()
        tgt = e["config"] if isinstance(e.get("config"), dict) and rng.random() < 0.5 else e
        tgt.pop(rng.choice(sorted(tgt)), None)
    elif kind == "boundary" and entries:
        e = some_entry()
        if rng.random() < 0.5 or not isinstance(e.get("config"), dict):
            e[rng.choice(["m", "n", "k", "tflops"])] = boundary(rng)
        else:
            c = e["config"]
            key = rng.choice(["block", "warps", "instr", "stages", "group"])
            if isinstance(c.get(key), list) and c[key]:
                c[key][rng.randrange(len(c[key]))] = boundary(rng)
            else:
                c[key] = boundary(rng)
    elif kind == "deep":
        depth = rng.choice([64, 1000, 10000, 100000])
        opener, closer = ("[", "]") if rng.random() < 0.5 else ('{"a":', "}")
        nest = opener * depth + "1" + closer * depth
        if entries and rng.random() < 0.7:
            e = some_entry()
            e[rng.choice(["config", "m", "dtype", "extra"])] = "@@DEEP@@"
            return json.dumps(obj, indent=1).replace('"@@DEEP@@"', nest)
        return nest
    elif kind == "truncate":
        text = json.dumps(obj, indent=1)
        return text[:rng.randrange(len(text))]
    elif kind == "schema":
        obj[rng.choice(["schema", "version"])] = rng.choice(["gemm-mlir-tuning-db", "x", 0, 2, -1, 2**63])
    elif kind == "entries-type":
        obj["entries"] = rng.choice([{}, "x", None, [1, 2], [[]], [{}]])
    elif kind == "empty":
        return rng.choice(["", " ", "{}", "[]", "null", "\x00"])
    elif kind == "chip" and entries:
        some_entry()["arch"] = pick(rng, NV_CHIPS + AMD_CHIPS, BAD_CHIPS, 0.7)
    elif kind == "duplicate" and entries:
        obj["entries"] = entries * rng.choice([2, 50])
    elif kind == "garbage":
        text = json.dumps(obj)
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(["\x00", "\xff", "NaN", "}", "\\u0000", "\ud800"]) + text[i:]
    return json.dumps(obj, indent=1)


class Command:
    """One gemm-opt invocation: argv (relative to the run folder), files and
    folders to create there, what its output should look like."""

    def __init__(self, pipeline):
        self.pipeline = pipeline
        self.passes = []           # [(pass name, [(key, rendered value)])]
        self.flags = []            # extra global flags
        self.files = {}            # relative path -> text
        self.dirs = []             # relative folders to create
        self.output_dir = False    # an output-dir option was given
        self.expected_dir = None   # where manifest.json must be (None: unknown)

    def argv(self, gemm_opt="gemm-opt"):
        args = [gemm_opt, "input.mlir"]
        for name, opts in self.passes:
            if opts is None:
                args.append(f"--{name}")
            else:
                args.append(f"--{name}=" + " ".join(k if v is None else f"{k}={v}" for k, v in opts))
        return args + self.flags + ["-o", "out.mlir"]

    def to_json(self):
        return {"pipeline": self.pipeline, "argv": self.argv(), "files": sorted(self.files),
                "dirs": self.dirs, "expected_dir": self.expected_dir}


def any_chip_for(rng, vendor, gentle=False):
    good = NV_CHIPS if vendor == "nv" else AMD_CHIPS
    if gentle:
        return rng.choice(good)
    other = AMD_CHIPS if vendor == "nv" else NV_CHIPS
    r = rng.random()
    if r < 0.85:
        return rng.choice(good)
    if r < 0.92:
        return rng.choice(other)
    return rng.choice(BAD_CHIPS)


def add_db(rng, cmd, opts, key="tuning-db", gentle=False):
    r = 1.0 if gentle else rng.random()
    if r < 0.1:
        opts.append((key, rng.choice(["nonexistent.json", "nocuda", "", "/dev/null"])))
        cmd.dirs.append("nocuda")
        return
    src = os.path.join(ROOT, "tuning", "h200.json")
    if r < 0.2:
        inputs = sorted(glob.glob(os.path.join(ROOT, "test", "Dialect", "Gemm", "Transforms", "Inputs", "*.json")))
        if inputs:
            src = rng.choice(inputs)
    with open(src, encoding="utf-8") as f:
        base = f.read()
    try:
        text = base if gentle else mutate_db(rng, base)
    except (ValueError, KeyError, TypeError, AttributeError):
        text = base
    cmd.files["db.json"] = text
    opts.append((key, "db.json"))


def odd_options(rng, opts, allowed, gentle=False):
    """Now and then: an unknown option, a repeated one, an empty value."""
    if gentle:
        return
    r = rng.random()
    if r < 0.03:
        opts.append(("frobnicate", "1"))
    elif r < 0.06 and opts:
        opts.append(rng.choice(opts))
    elif r < 0.08:
        opts.append((rng.choice(allowed), ""))
    elif r < 0.09:
        opts.append((rng.choice(allowed), None))


def ptx_version(rng, gentle=False):
    if gentle:
        return str(rng.choice([0, 80, 84, 87]))
    return str(pick(rng, [0, 78, 80, 84, 85, 87], [70, 60, 999, -1, "abc", 2**32 + 80, 2**31, "8.0"], 0.4))


def bool_value(rng, gentle=False):
    return pick(rng, ["true", "false", "1", "0"], ["maybe", "2"], 0 if gentle else 0.05)


def func_names(text):
    return re.findall(r"func\.func (?:private )?@([\w$.]+)", text)


def kernel_module(rng, text):
    names = func_names(text)
    cands = ["", "k", '"gemm kernels"', "1abc", "x" * 500, "@k", "a.b", "kern-mod", "gemm_kernels",
             "../up", "a/b", "'../../esc'"]
    if names:
        cands += [names[0]] * 3  # the kernel module named like a function
    return rng.choice(cands)


def output_dir_option(rng, cmd, opts, gentle=False):
    name = rng.choice(OUTPUT_DIR_NAMES[:1] if gentle else OUTPUT_DIR_NAMES)
    r = 1.0 if gentle else rng.random()
    if r < 0.05:
        rendered, intent = "input.mlir", None   # an existing file
    elif r < 0.08:
        rendered, intent = "/proc/fuzz-out", None  # not writable
    elif gentle:
        rendered, intent = rng.choice([(name, name), (f'"{name}"', name)])
    else:
        rendered, intent = render_value(rng, name)
    opts.append(("output-dir", rendered))
    cmd.output_dir = True
    cmd.expected_dir = intent


def choose_command(rng, text, gentle=False):
    """The pipeline and its options for one input (plausible ones when
    gentle: real chips of the right vendor, well-formed values)."""
    weights = [14, 14, 10, 8, 6, 16, 8, 14, 10, 6]
    if gentle:  # deep: the pipelines to artifacts
        weights = [6, 8, 6, 4, 4, 20, 10, 18, 12, 8]
    tm = re.search(r'gemm\.target<"([\w]+)">', text)
    module_chip = tm.group(1) if tm and tm.group(1) in NV_CHIPS + AMD_CHIPS else None
    kinds = set(re.findall(r"kind = (\w+)", text))
    if module_chip is None and "wgmma" in kinds and rng.random() < 0.7:
        module_chip = "sm_90a"
    vendor_hint = None
    if module_chip:
        vendor_hint = "nv" if module_chip in NV_CHIPS else "amd"
    elif kinds == {"mfma"}:
        vendor_hint = "amd"
    elif kinds and "mfma" not in kinds:
        vendor_hint = "nv"
    if vendor_hint and rng.random() < 0.7:  # mostly the vendor the module names
        nv = vendor_hint == "nv"
        keep = {"verify", "select", "select+lower", "chain"} | ({"nvgpu", "ptx", "cubin"} if nv else {"amdgpu", "amdgcn", "hsaco"})
        weights = [w if p in keep else 0 for p, w in zip(PIPELINES, weights)]
    pipeline = rng.choices(PIPELINES, weights)[0]
    cmd = Command(pipeline)

    def chip_for(rng, vendor):
        if module_chip and (module_chip in NV_CHIPS) == (vendor == "nv") and rng.random() < 0.7:
            return module_chip
        return any_chip_for(rng, vendor, gentle)

    if pipeline == "verify":
        pass
    elif pipeline in ("nvgpu", "amdgpu"):
        vendor = "nv" if pipeline == "nvgpu" else "amd"
        opts = [("chip", chip_for(rng, vendor))] if rng.random() < 0.95 else []
        allowed = ["chip", "kernel-module", "pack-unaligned"]
        if vendor == "nv":
            allowed += ["ptx-version", "allow-tf32", "transpose-operands"]
            if rng.random() < 0.3:
                opts.append(("ptx-version", ptx_version(rng, gentle)))
            if rng.random() < 0.3:
                opts.append(("allow-tf32", bool_value(rng, gentle)))
            if rng.random() < 0.2:
                opts.append(("transpose-operands", bool_value(rng, gentle)))
        if rng.random() < 0.2:
            opts.append(("pack-unaligned", bool_value(rng, gentle)))
        if rng.random() < 0.15:
            opts.append(("kernel-module", kernel_module(rng, text)))
        odd_options(rng, opts, allowed, gentle)
        rng.shuffle(opts)
        cmd.passes.append((f"convert-gemm-to-{'nvgpu' if vendor == 'nv' else 'amdgpu'}", opts))
    elif pipeline in ("select", "select+lower"):
        opts = []
        if rng.random() < 0.85:
            opts.append(("target", chip_for(rng, rng.choice(["nv", "nv", "amd"]))))
        if rng.random() < 0.5:
            add_db(rng, cmd, opts, gentle=gentle)
        if rng.random() < 0.2:
            opts.append(("allow-tf32", bool_value(rng, gentle)))
        if rng.random() < 0.3:
            opts.append(("report", bool_value(rng, gentle)))
        odd_options(rng, opts, ["target", "tuning-db", "allow-tf32", "report"], gentle)
        cmd.passes.append(("gemm-select-config", opts))
        if pipeline == "select+lower":
            target = dict(opts).get("target") or ""
            amd = target.startswith("gfx")
            cmd.passes.append((f"convert-gemm-to-{'amdgpu' if amd else 'nvgpu'}",
                               [("chip", target or chip_for(rng, "amd" if amd else "nv"))]))
    elif pipeline == "chain":  # a lowering, then a pipeline (or another lowering)
        vendor = rng.choice(["nv", "amd"])
        first = [("chip", chip_for(rng, vendor))]
        if rng.random() < 0.6:
            first.append(("kernel-module", kernel_module(rng, text)))
        cmd.passes.append((f"convert-gemm-to-{'nvgpu' if vendor == 'nv' else 'amdgpu'}", first))
        if rng.random() < 0.2:
            second = "nvgpu" if vendor == "amd" else "amdgpu"
            cmd.passes.append((f"convert-gemm-to-{second}", [("chip", chip_for(rng, "nv" if second == "nvgpu" else "amd"))]))
        else:
            nv2 = vendor == "nv" if rng.random() < 0.85 else vendor != "nv"
            step = rng.choice(["ptx", "cubin"] if nv2 else ["amdgcn", "hsaco"])
            opts = [("chip", chip_for(rng, "nv" if nv2 else "amd"))]
            output_dir_option(rng, cmd, opts, gentle)
            cmd.passes.append((f"gemm-to-{step}", opts))
    else:
        vendor = "nv" if pipeline in ("ptx", "cubin") else "amd"
        opts = [("chip", chip_for(rng, vendor))] if rng.random() < 0.97 else []
        allowed = ["chip", "output-dir", "select-config", "tuning-db", "pack-unaligned"]
        if rng.random() < 0.85:
            output_dir_option(rng, cmd, opts, gentle)
        if rng.random() < 0.2:
            opts.append(("select-config", bool_value(rng, gentle)))
        if rng.random() < 0.15:
            add_db(rng, cmd, opts, gentle=gentle)
        if rng.random() < 0.15:
            opts.append(("pack-unaligned", bool_value(rng, gentle)))
        if vendor == "nv":
            allowed += ["ptx-version", "allow-tf32", "cuda-path", "transpose-operands"]
            if rng.random() < 0.3:
                opts.append(("ptx-version", ptx_version(rng, gentle)))
            if rng.random() < 0.2:
                opts.append(("allow-tf32", bool_value(rng, gentle)))
            if rng.random() < 0.15:
                opts.append(("transpose-operands", bool_value(rng, gentle)))
            if not gentle and rng.random() < 0.1:
                path = rng.choice(["nocuda", "nocuda", "/nonexistent", "/usr/local/cuda", "input.mlir"])
                cmd.dirs.append("nocuda")
                opts.append(("cuda-path", path))
        else:
            allowed += ["lld-path"]
            if not gentle and rng.random() < 0.1:
                opts.append(("lld-path", rng.choice(["/bin/true", "/bin/true", "/bin/false",
                                                     "/nonexistent/ld.lld", "/usr/lib/llvm-22/bin/ld.lld",
                                                     "nocuda"])))
                cmd.dirs.append("nocuda")
        if not gentle and rng.random() < 0.03:
            opts.append(("kernel-module", "k"))  # not an option of the pipelines
        odd_options(rng, opts, allowed, gentle)
        rng.shuffle(opts)
        cmd.passes.append((f"gemm-to-{pipeline}", opts))
    r = rng.random()
    if r < 0.08:
        cmd.flags.append("--mlir-print-op-generic")
    elif r < 0.12:
        cmd.flags.append("--emit-bytecode")
    elif r < 0.14:
        cmd.flags.append("--mlir-print-debuginfo")
    return cmd


class Input:
    def __init__(self, index, base, mutations, text, cmd, asm_check):
        self.index, self.base, self.mutations = index, base, mutations
        self.text, self.cmd, self.asm_check = text, cmd, asm_check


def make_input(seed, index, seeds, configs, asm_fraction):
    """Input `index` of `seed`: deterministic, independent of the others."""
    rng = random.Random(f"gemm-fuzz:{seed}:{index}")
    gentle = rng.random() < 0.5
    if rng.random() < 0.3:
        base, text = "generated", gen_matmul(rng, configs)
    else:
        base, text, _ = rng.choice([s for s in seeds if s[2]] if gentle else seeds)
    text, applied = mutate(rng, text, {"seeds": seeds, "configs": configs, "gentle": gentle}, gentle)
    if gentle:
        applied = ["gentle"] + applied
    cmd = choose_command(rng, text, gentle)
    asm_check = rng.random() < asm_fraction
    return Input(index, base, applied, text, cmd, asm_check)


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def find_ptxas():
    for p in ["/usr/local/cuda/bin/ptxas", shutil.which("ptxas")]:
        if p and os.path.exists(p):
            return p
    return None


def find_llvm_mc():
    for p in ["/usr/lib/llvm-22/bin/llvm-mc", shutil.which("llvm-mc-22"), shutil.which("llvm-mc")]:
        if p and os.path.exists(p):
            return p
    return None


class Outcome:
    def __init__(self):
        self.rc = None
        self.timed_out = False
        self.stderr = ""
        self.seconds = 0.0
        self.problems = []      # broken-output reasons
        self.asm = []           # assembler checks done
        self.cls = None
        self.signature = ""


def run_process(argv, cwd, timeout, env, stdin=None):
    """(rc, stdout, stderr, timed_out); the whole process group is killed on
    timeout."""
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=stdin or subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return p.returncode, out, err, True


def tail(data, n=60):
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return "\n".join(text.splitlines()[-n:])


def head_tail(text, n=40):
    """The first and last n lines (the first error and the stack dump)."""
    lines = text.splitlines()
    if len(lines) <= 2 * n:
        return text
    return "\n".join(lines[:n] + [f"... ({len(lines) - 2 * n} lines) ..."] + lines[-n:])


# MLIR 22's nvvm.barrier parser reads an optional reduction attribute after
# its operands and takes a trailing `loc(...)` for it ("attribute
# 'reductionOp' failed to satisfy constraint", or a parse error on the next
# line): IR printed with --mlir-print-debuginfo does not parse back when it
# holds a named barrier (the custom parser of llvm/llvm-project#167036;
# docs/robustness.md). check_reparse parses such output once more with
# those locations dropped, and counts it as re-parsing if that succeeds.
UPSTREAM_BARRIER_LOC_RE = re.compile(rb"^(\s*nvvm\.barrier\b[^\n]*?) loc\([^\n]*\)$", re.M)


def reparse(path, rundir, tools, timeout, env):
    """(rc, stderr, timed out) of gemm-opt parsing `path`."""
    with open(path, "rb") as f:
        rc, _, err, to = run_process([tools["gemm-opt"], "-", "-o", os.devnull], rundir, timeout, env, stdin=f)
    return rc, err, to


def check_reparse(rundir, outcome, tools, timeout, env):
    """The -o output is there and parses back (text or bytecode)."""
    out_ir = os.path.join(rundir, "out.mlir")
    if not os.path.exists(out_ir) or os.path.getsize(out_ir) == 0:
        outcome.problems.append("the -o output is empty")
        return
    rc, err, to = reparse(out_ir, rundir, tools, timeout, env)
    if rc != 0 and not to:
        with open(out_ir, "rb") as f:
            text = f.read()
        stripped, n = UPSTREAM_BARRIER_LOC_RE.subn(rb"\1", text)
        if n:
            alt = os.path.join(rundir, "out.barrier-locs-dropped.mlir")
            with open(alt, "wb") as f:
                f.write(stripped)
            rc, err, to = reparse(alt, rundir, tools, timeout, env)
    if to:
        outcome.problems.append("re-parse of the output hangs")
    elif rc != 0:
        first = next((l for l in tail(err, 400).splitlines() if "error" in l), tail(err, 1))
        outcome.problems.append("output does not re-parse: " + first)


def check_stray_files(inp, box, rundir, outcome):
    """Files written outside the run folder (a path in a symbol name), or
    outside output-dir, or without one."""
    cmd = inp.cmd
    # out.barrier-locs-dropped.mlir: check_reparse's own copy of the
    # output (the upstream barrier-location workaround), not the tool's.
    allowed = {"input.mlir", "out.mlir", "out.barrier-locs-dropped.mlir"} | set(cmd.files)
    inside = [os.path.join(rundir, d) for d in set(cmd.dirs) | {"tmp"}]
    if cmd.expected_dir is not None:
        inside.append(os.path.normpath(os.path.join(rundir, cmd.expected_dir)))
    for d, _, fs in os.walk(box):
        for f in fs:
            path = os.path.join(d, f)
            rel = os.path.relpath(path, rundir)
            if rel.startswith(".."):
                outcome.problems.append(f"file written outside the working folder: {os.path.relpath(path, box)}")
                return
            if cmd.output_dir and cmd.expected_dir is None:
                continue  # output-dir ambiguous: anything inside the run folder goes
            if rel in allowed or any(path.startswith(i + os.sep) for i in inside):
                continue
            where = "outside output-dir" if cmd.output_dir else "without output-dir"
            outcome.problems.append(f"file written {where}: {rel}")
            return


def kernel_in_artifact(name, path):
    """Whether the artifact defines the kernel the manifest names."""
    with open(path, "rb") as f:
        data = f.read()
    ext = os.path.splitext(path)[1]
    raw = name.encode("utf-8", errors="surrogateescape")
    if ext == ".ptx":
        return re.search(rb"\.entry\s+" + re.escape(raw) + rb"\s*\(", data) is not None
    if ext == ".s":
        return re.search(rb"\.amdhsa_kernel\s+" + re.escape(raw) + rb"\s*$", data, re.M) is not None
    return raw in data  # ELF: the symbol's name in its string table


def assemble(inp, path, rundir, outcome, tools, timeout, env):
    """ptxas / llvm-mc on one .ptx / .s artifact."""
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1]
    parts = base.split(".")
    chip = parts[-2] if len(parts) >= 3 else ""
    if ext == ".ptx" and tools.get("ptxas"):
        argv, tool = [tools["ptxas"], f"-arch={chip}", path, "-o", os.devnull], "ptxas"
    elif ext == ".s" and tools.get("llvm-mc"):
        argv = [tools["llvm-mc"], "-triple=amdgcn-amd-amdhsa", f"-mcpu={chip}", "-filetype=obj", path, "-o", os.devnull]
        tool = "llvm-mc"
    else:
        return
    rc, _, err, to = run_process(argv, rundir, timeout, env)
    outcome.asm.append(tool)
    if to:
        outcome.problems.append(f"{tool} hangs on {ext}")
    elif rc != 0:
        text = tail(err, 200).splitlines()
        lines = [l for l in text if "error" in l] + [l for l in text if "rror" in l] + text[-1:] + ["(no output)"]
        outcome.problems.append(f"{tool} rejects {ext}: {lines[0]}")
        outcome.asm_stderr = tail(err, 40)


def check_artifacts(inp, box, rundir, outcome, tools, timeout, env):
    """The exit-0 checks: the -o output, stray files, the output folder
    (manifest, every artifact non-empty, ELF where binary, assembled where
    text, every kernel of the manifest defined in its artifact)."""
    check_reparse(rundir, outcome, tools, timeout, env)
    errs = error_lines(outcome.stderr)
    if errs:
        outcome.problems.append("exit 0 after an error: " + errs[0].strip())
    check_stray_files(inp, box, rundir, outcome)
    cmd = inp.cmd
    if not cmd.output_dir:
        return
    manifest = {}
    if cmd.expected_dir is not None:
        folder = os.path.normpath(os.path.join(rundir, cmd.expected_dir))
        path = os.path.join(folder, "manifest.json")
        if not os.path.isfile(path):
            outcome.problems.append(f"manifest.json missing from output-dir {cmd.expected_dir!r}")
            return
        try:
            with open(path, encoding="utf-8") as f:
                manifest = json.load(f)
            if not isinstance(manifest, dict):
                raise ValueError("not an object")
        except (ValueError, OSError) as e:
            outcome.problems.append(f"manifest.json is not JSON: {e}")
            manifest = {}
        files = [os.path.join(folder, f) for f in os.listdir(folder)]
    else:
        files = [os.path.join(d, f) for d, _, fs in os.walk(rundir) for f in fs
                 if not d.startswith(os.path.join(rundir, "tmp"))]
    arts = sorted(f for f in files if f.endswith(ARTIFACT_EXTS) and os.path.isfile(f))
    # gpu.binary ops of the input are written as they are: not assembled
    foreign = {m.group(1) or m.group(2) for m in re.finditer(r'gpu\.binary @(?:"([^"]*)"|([\w$.]+))', inp.text)}
    for a in arts:
        ext = os.path.splitext(a)[1]
        if any(os.path.basename(a).startswith(f + ".") for f in foreign):
            continue
        if os.path.getsize(a) == 0:
            outcome.problems.append(f"empty artifact {ext}")
        elif ext in (".cubin", ".hsaco"):
            with open(a, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    outcome.problems.append(f"{ext} is not ELF")
        elif inp.asm_check:
            assemble(inp, a, rundir, outcome, tools, timeout, env)
    # the manifest against the folder: objects present, kernels defined
    objects = manifest.get("objects", []) if isinstance(manifest.get("objects"), list) else []
    by_name = {os.path.basename(a): a for a in arts}
    for obj in objects:
        if isinstance(obj, dict) and obj.get("file") not in by_name and \
                str(obj.get("file", "")).endswith(ARTIFACT_EXTS):
            outcome.problems.append(f"manifest object {obj.get('file')!r} not in output-dir")
            break
    kernels = manifest.get("kernels", []) if isinstance(manifest.get("kernels"), list) else []
    for k in kernels:
        if not isinstance(k, dict):
            continue
        mine = [by_name[o["file"]] for o in objects if isinstance(o, dict) and o.get("module") == k.get("module")
                and o.get("chip") == k.get("chip") and o.get("file") in by_name]
        if not mine:
            outcome.problems.append(f"manifest kernel {k.get('name')!r} without an artifact")
            break
        if not any(os.path.getsize(m) and kernel_in_artifact(str(k.get("name")), m) for m in mine):
            outcome.problems.append(f"manifest kernel {str(k.get('name'))[:60]!r} not defined in "
                                    f"{os.path.basename(mine[0])[-40:]}")
            break


def execute(inp, tools, timeout, workroot, keep_dir=False):
    """Runs one input in a fresh folder four levels below a private box (a
    path in a symbol name that climbs out of it is still seen); returns
    (Outcome, rundir)."""
    box = tempfile.mkdtemp(prefix=f"fz{inp.index:06d}-", dir=workroot)
    rundir = os.path.join(box, "w", "x", "y", "run")
    try:
        os.makedirs(rundir)
        with open(os.path.join(rundir, "input.mlir"), "w", encoding="utf-8") as f:
            f.write(inp.text)
        for rel, text in inp.cmd.files.items():
            with open(os.path.join(rundir, rel), "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(text)
        for d in set(inp.cmd.dirs) | {"tmp"}:
            os.makedirs(os.path.join(rundir, d), exist_ok=True)
        env = dict(os.environ)
        env["TMPDIR"] = os.path.join(rundir, "tmp")
        o = Outcome()
        t0 = time.monotonic()
        rc, _, err, to = run_process(inp.cmd.argv(tools["gemm-opt"]), rundir, timeout, env)
        o.seconds = time.monotonic() - t0
        o.rc, o.timed_out, o.stderr = rc, to, err.decode("utf-8", errors="replace")
        if not to and rc == 0 and not crash_marker(o.stderr):
            check_artifacts(inp, box, rundir, o, tools, timeout, env)
        classify(o)
        return o, rundir
    finally:
        if not keep_dir:
            shutil.rmtree(box, ignore_errors=True)


# ---------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------

ERROR_RE = re.compile(r"^(?P<loc>.*?):?\s*error:", re.M)
LOCATED_RE = re.compile(r"^(?!<unknown>)[^:\n]+:(\d+):(\d+):")


def crash_marker(stderr):
    for m in CRASH_MARKERS:
        if m in stderr:
            return m
    return None


def error_lines(stderr):
    return [l for l in stderr.splitlines() if re.search(r"(^|\s|:)error:", l)]


def located(line):
    m = LOCATED_RE.match(line)
    return bool(m) and (int(m.group(1)), int(m.group(2))) != (0, 0)


def classify(o):
    if o.timed_out:
        o.cls = "hang"
    elif (o.rc is not None and o.rc < 0) or crash_marker(o.stderr):
        o.cls = "crash"
    elif o.rc != 0:
        errs = error_lines(o.stderr)
        if not errs:
            o.cls = "undiagnosed-failure"
        elif any(located(l) for l in errs):
            o.cls = "diagnosed"
        else:
            o.cls = "diagnosed-without-location"
    elif o.problems:
        o.cls = "broken-output"
    else:
        o.cls = "ok"
    o.signature = signature(o)
    return o.cls


def normalize(line):
    line = re.sub(r"^\S*?(input\.mlir|<stdin>|-):\d+:\d+:\s*", "", line.strip())
    line = re.sub(r"/[\w./+-]*/", "", line)
    line = re.sub(r"0x[0-9a-fA-F]+", "H", line)
    line = re.sub(r"\d+", "N", line)
    return line[:160]


def crash_frames(stderr):
    """The first frames of a stack dump past the signal handler: the first
    gemm frame, else the first two with a symbol."""
    frames = []
    for m in re.finditer(r"^\s*#\d+ 0x[0-9a-f]+ (?:in )?(.*)$", stderr, re.M):
        f = m.group(1).strip()
        if re.match(r"^\(", f) or any(x in f for x in ("PrintStackTrace", "RunSignalHandlers", "SignalHandler")):
            continue
        f = re.sub(r"\s*\(/[^)]*\)$", "", f)   # the (module+offset) tail
        f = re.sub(r"\(.*\)", "()", f)        # argument lists
        frames.append(f)
    gemm = [f for f in frames if "gemm" in f.lower()]
    if gemm:
        return gemm[0]
    return " <- ".join(frames[:2]) if frames else "?"


def signature(o):
    """A short grouping key for findings of the same root cause."""
    if o.cls == "hang":
        return "timeout"
    if o.cls == "crash":
        for l in o.stderr.splitlines():
            for m in ("LLVM ERROR", "Assertion", "runtime error:", "AddressSanitizer", "LeakSanitizer"):
                if m in l:
                    return normalize(l[l.find(m):])
        sig = "signal %d" % -o.rc if o.rc and o.rc < 0 else "crash"
        return normalize(f"{sig} at {crash_frames(o.stderr)}")
    if o.cls == "broken-output":
        return normalize(o.problems[0])
    if o.cls == "undiagnosed-failure":
        lines = [l for l in o.stderr.splitlines() if l.strip()]
        return normalize(lines[0]) if lines else "(no stderr)"
    errs = error_lines(o.stderr)
    return normalize(errs[0]) if errs else ""


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------

def write_reproducer(out, inp, o, tools, rundir=None):
    folder = os.path.join(out, "findings", o.cls, f"{inp.index:06d}-{inp.cmd.pipeline}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "input.mlir"), "w", encoding="utf-8") as f:
        f.write(inp.text)
    for rel, text in inp.cmd.files.items():
        with open(os.path.join(folder, rel), "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
    argv = inp.cmd.argv("GEMM_OPT_PLACEHOLDER")
    quoted = " ".join(shlex.quote(a) for a in argv[1:])
    copies = " ".join(shlex.quote(r) for r in ["input.mlir"] + sorted(inp.cmd.files))
    mkdirs = " ".join(shlex.quote(d) for d in sorted(set(inp.cmd.dirs) | {"tmp"}))
    script = f"""#!/bin/sh
# gemm-fuzz finding: {o.cls} ({inp.cmd.pipeline}), input {inp.index}
# signature: {o.signature}
# Re-runs the command in a fresh run/ folder next to this script;
# GEMM_OPT overrides the gemm-opt binary.
set -e
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$here/run" && mkdir "$here/run"
cd "$here" && cp {copies} run/
cd run && mkdir -p {mkdirs}
export TMPDIR="$PWD/tmp"
set +e
"${{GEMM_OPT:-{tools['gemm-opt']}}}" {quoted}
echo "exit status: $?" >&2
"""
    path = os.path.join(folder, "command.sh")
    with open(path, "w", encoding="utf-8") as f:
        f.write(script)
    os.chmod(path, 0o755)
    with open(os.path.join(folder, "stderr.txt"), "w", encoding="utf-8") as f:
        f.write(head_tail(o.stderr) + "\n")
        if getattr(o, "asm_stderr", None):
            f.write("\n--- assembler ---\n" + o.asm_stderr + "\n")
    info = {"index": inp.index, "class": o.cls, "signature": o.signature, "rc": o.rc,
            "seconds": round(o.seconds, 3), "base": inp.base, "mutations": inp.mutations,
            "problems": o.problems, "command": inp.cmd.to_json()}
    with open(os.path.join(folder, "info.json"), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=1)
    return os.path.relpath(folder, out)


def git_commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def summarize(args, results, seconds, tools):
    classes = {c: 0 for c in CLASSES}
    pipelines = {p: {c: 0 for c in CLASSES} for p in PIPELINES}
    sigs = {}
    asm = {"ptxas": 0, "llvm-mc": 0}
    for inp, o, where in results:
        classes[o.cls] += 1
        pipelines[inp.cmd.pipeline][o.cls] += 1
        for t in o.asm:
            asm[t] += 1
        if o.cls in ("ok", "diagnosed"):
            continue
        key = (o.cls, o.signature)
        s = sigs.setdefault(key, {"class": o.cls, "signature": o.signature, "count": 0,
                                  "pipelines": [], "reproducers": []})
        s["count"] += 1
        if inp.cmd.pipeline not in s["pipelines"]:
            s["pipelines"].append(inp.cmd.pipeline)
        if where and len(s["reproducers"]) < 10:
            s["reproducers"].append(where)
    order = {c: i for i, c in enumerate(CLASSES)}
    return {
        "tool": "gemm_mlir.fuzz",
        "date": datetime.date.today().isoformat(),
        "commit": git_commit(),
        "gemm_opt": tools["gemm-opt"],
        "ptxas": tools.get("ptxas"),
        "llvm_mc": tools.get("llvm-mc"),
        "seed": args.seed,
        "inputs": len(results),
        "jobs": args.jobs,
        "timeout_s": args.timeout,
        "asm_check_fraction": args.asm_check_fraction,
        "total_seconds": round(seconds, 1),
        "classes": classes,
        "failing": sum(classes[c] for c in args.fail_on),
        "fail_on": args.fail_on,
        "assembler_checks": asm,
        "pipelines": pipelines,
        "signatures": sorted(sigs.values(), key=lambda s: (order[s["class"]], -s["count"], s["signature"])),
    }


def print_summary(summary, stream=sys.stdout):
    p = lambda *a: print(*a, file=stream)
    p(f"gemm-fuzz: seed {summary['seed']}, {summary['inputs']} inputs, "
      f"{summary['total_seconds']} s, {summary['jobs']} jobs, commit {summary['commit']}")
    for c in CLASSES:
        p(f"  {c:28s} {summary['classes'][c]}")
    p(f"  classified: {sum(summary['classes'].values())}")
    p(f"  assembler checks: ptxas {summary['assembler_checks']['ptxas']}, "
      f"llvm-mc {summary['assembler_checks']['llvm-mc']}")
    for s in summary["signatures"]:
        if s["class"] != "diagnosed-without-location":
            first = s["reproducers"][0] if s["reproducers"] else ""
            p(f"  [{s['class']}] x{s['count']} {s['signature']} ({', '.join(s['pipelines'])}) {first}")
    p(f"  failing ({', '.join(summary['fail_on'])}): {summary['failing']}")


# ---------------------------------------------------------------------------
# The run, the self-test, the reducer
# ---------------------------------------------------------------------------

def resolve_tool(path, what, prog="gemm-fuzz"):
    """The absolute path of the tool `path` names (a bare name is looked up
    on PATH); exits with a message when there is none."""
    found = shutil.which(path) if os.sep not in path else path
    if not found or not os.path.exists(found):
        sys.exit(f"{prog}: no {what} at {path!r}")
    return os.path.abspath(found)


def resolve_tools(gemm_opt):
    return {"gemm-opt": resolve_tool(gemm_opt, "gemm-opt"), "ptxas": find_ptxas(), "llvm-mc": find_llvm_mc()}


def run_all(count, jobs, one):
    """one(i) for every input index i < count on `jobs` threads; the first
    exception is raised again."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for f in [pool.submit(one, i) for i in range(count)]:
            f.result()


def write_outputs(out, summary, runs):
    """OUT/summary.json, and OUT/runs.jsonl with one line per run (dicts)."""
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, "runs.jsonl"), "w", encoding="utf-8") as f:
        for run in runs:
            f.write(json.dumps(run) + "\n")


def fuzz(args):
    tools = resolve_tools(args.gemm_opt)
    if args.no_asm:
        tools["ptxas"] = tools["llvm-mc"] = None
    seeds = collect_seeds(ROOT)
    configs = harvest_configs(seeds)
    out = os.path.abspath(args.out)
    if os.path.isdir(os.path.join(out, "findings")):
        shutil.rmtree(os.path.join(out, "findings"))
    os.makedirs(out, exist_ok=True)
    workroot = tempfile.mkdtemp(prefix="gemm-fuzz-")
    per_sig = {}
    lock = threading.Lock()
    results = [None] * args.count
    done = [0]
    t0 = time.monotonic()

    def one(i):
        inp = make_input(args.seed, i, seeds, configs, args.asm_check_fraction)
        o, _ = execute(inp, tools, args.timeout, workroot)
        where = None
        with lock:
            keep = o.cls in FAIL_CLASSES
            if o.cls == "diagnosed-without-location":
                n = per_sig.get(o.signature, 0)
                per_sig[o.signature] = n + 1
                keep = n < args.keep_per_signature
            if keep:
                where = write_reproducer(out, inp, o, tools)
            results[i] = (inp, o, where)
            done[0] += 1
            if args.progress and done[0] % args.progress == 0:
                c = {}
                for r in results:
                    if r:
                        c[r[1].cls] = c.get(r[1].cls, 0) + 1
                print(f"gemm-fuzz: {done[0]}/{args.count} {time.monotonic() - t0:.0f} s {c}", file=sys.stderr)

    try:
        run_all(args.count, args.jobs, one)
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
    summary = summarize(args, results, time.monotonic() - t0, tools)
    write_outputs(out, summary, [
        {"index": inp.index, "pipeline": inp.cmd.pipeline, "class": o.cls, "rc": o.rc,
         "seconds": round(o.seconds, 3), "base": inp.base, "mutations": inp.mutations,
         "signature": o.signature, "reproducer": where} for inp, o, where in results])
    print_summary(summary)
    return 1 if summary["failing"] else 0


FAKES = {
    # mode: (shell body, pipeline to run it under, expected class)
    "ok": ('cat "$1" > out.mlir 2>/dev/null; [ "$1" = - ] && cat >/dev/null; exit 0', "verify", "ok"),
    "diagnosed": ('echo "input.mlir:1:1: error: bad op" >&2; exit 1', "verify", "diagnosed"),
    "no-location": ('echo "<unknown>:0: error: bad option" >&2; exit 1', "verify", "diagnosed-without-location"),
    "signal": ("kill -SEGV $$", "verify", "crash"),
    "llvm-error": ('echo "LLVM ERROR: out of range" >&2; exit 1', "nvgpu", "crash"),
    "assertion": ("echo \"gemm-opt: Foo.cpp:1: Assertion \\`x' failed.\" >&2; exit 1", "verify", "crash"),
    "hang": ("sleep 100", "verify", "hang"),
    "undiagnosed": ("exit 3", "verify", "undiagnosed-failure"),
    "unparsable": ('if [ "$1" = - ]; then echo "<stdin>:1:1: error: custom op \'bogus\' is unknown" >&2; exit 1; fi; '
                   'echo "bogus ir" > out.mlir; exit 0', "verify", "broken-output"),
    "empty-artifact": ('[ "$1" = - ] && exit 0; echo "module {}" > out.mlir; mkdir -p out; '
                       ': > out/gemm_kernels.sm_90.ptx; echo \'{"kernels": []}\' > out/manifest.json; exit 0',
                       "ptx", "broken-output"),
    "no-manifest": ('[ "$1" = - ] && exit 0; echo "module {}" > out.mlir; exit 0', "hsaco", "broken-output"),
    "escape": ('[ "$1" = - ] && exit 0; echo "module {}" > out.mlir; mkdir -p out; echo "{}" > out/manifest.json; '
               'echo x > ../../escaped.ptx; exit 0', "ptx", "broken-output"),
    "undefined-kernel": ('[ "$1" = - ] && exit 0; echo "module {}" > out.mlir; mkdir -p out; '
                         'printf ".visible .entry other(\\n" > out/k.sm_90.ptx; '
                         'echo \'{"objects": [{"module": "k", "chip": "sm_90", "file": "k.sm_90.ptx"}], '
                         '"kernels": [{"name": "f_gemm", "module": "k", "chip": "sm_90"}]}\' > out/manifest.json; exit 0',
                         "ptx-noasm", "broken-output"),
    "bad-ptx": ('[ "$1" = - ] && exit 0; echo "module {}" > out.mlir; mkdir -p out; '
                'echo "this is not ptx" > out/gemm_kernels.sm_90.ptx; echo \'{"kernels": []}\' > out/manifest.json; exit 0',
                "ptx", "broken-output"),
}


def self_test(args):
    """Runs the classifier on fake gemm-opt scripts, one per class."""
    out = os.path.abspath(args.out)
    bindir = os.path.join(out, "fake-bin")
    os.makedirs(bindir, exist_ok=True)
    workroot = tempfile.mkdtemp(prefix="gemm-fuzz-self-")
    failures = 0
    real_ptxas = find_ptxas()
    try:
        for mode, (body, pipeline, expected) in FAKES.items():
            if mode == "bad-ptx" and not real_ptxas:
                print(f"self-test {mode}: skipped (no ptxas)")
                continue
            fake = os.path.join(bindir, f"gemm-opt-{mode}")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\n" + body + "\n")
            os.chmod(fake, 0o755)
            cmd = Command(pipeline)
            if pipeline == "nvgpu":
                cmd.passes.append(("convert-gemm-to-nvgpu", [("chip", "sm_90")]))
            elif pipeline in ("ptx", "hsaco", "ptx-noasm"):
                cmd.passes.append((f"gemm-to-{pipeline[:3] if pipeline != 'hsaco' else pipeline}",
                                   [("chip", "gfx942" if pipeline == "hsaco" else "sm_90"), ("output-dir", "out")]))
                cmd.output_dir, cmd.expected_dir = True, "out"
            inp = Input(0, "self-test", [], "func.func @f() {\n  return\n}\n", cmd, pipeline != "ptx-noasm")
            tools = {"gemm-opt": fake, "ptxas": real_ptxas, "llvm-mc": None}
            o, _ = execute(inp, tools, 2 if mode == "hang" else args.timeout, workroot)
            status = "PASS" if o.cls == expected else f"FAIL (expected {expected})"
            failures += o.cls != expected
            print(f"self-test {mode}: {o.cls} {status}" + (f" ({o.problems[0]})" if o.problems else ""))
        # the fuzzer's own determinism: the same input twice, another seed differs
        seeds = collect_seeds(ROOT)
        configs = harvest_configs(seeds)
        a = [make_input(7, i, seeds, configs, 1.0) for i in range(30)]
        b = [make_input(7, i, seeds, configs, 1.0) for i in range(30)]
        c = [make_input(8, i, seeds, configs, 1.0) for i in range(30)]
        same = all(x.text == y.text and x.cmd.argv() == y.cmd.argv() for x, y in zip(a, b))
        differs = any(x.text != y.text or x.cmd.argv() != y.cmd.argv() for x, y in zip(a, c))
        failures += not (same and differs)
        print(f"self-test determinism: {'PASS' if same and differs else 'FAIL'}")
        print(f"self-test seeds: {len(seeds)} configs: {len(configs)}")
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
    print("self-test:", "FAIL" if failures else "PASS")
    return 1 if failures else 0


def show(args):
    seeds = collect_seeds(ROOT)
    inp = make_input(args.seed, args.show, seeds, harvest_configs(seeds), args.asm_check_fraction)
    print(f"// input {inp.index} of seed {args.seed}: base {inp.base}, mutations {inp.mutations}")
    print("// " + " ".join(shlex.quote(a) for a in inp.cmd.argv()))
    for rel, text in inp.cmd.files.items():
        print(f"// file {rel}: {len(text)} bytes")
    print(inp.text)
    return 0


def reduce_finding(args):
    """Greedy line-chunk removal keeping the class and signature of a
    finding; writes input.reduced.mlir next to it."""
    folder = args.reduce
    with open(os.path.join(folder, "info.json"), encoding="utf-8") as f:
        info = json.load(f)
    with open(os.path.join(folder, "input.mlir"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    tools = resolve_tools(args.gemm_opt)
    files = {}
    for rel in info["command"]["files"]:
        with open(os.path.join(folder, rel), encoding="utf-8", errors="surrogatepass") as f:
            files[rel] = f.read()
    argv = info["command"]["argv"]
    workroot = tempfile.mkdtemp(prefix="gemm-fuzz-reduce-")

    class Fixed(Command):
        def argv(self, gemm_opt="gemm-opt"):
            return [gemm_opt] + argv[1:]

    def still(candidate):
        cmd = Fixed(info["command"]["pipeline"])
        cmd.files, cmd.dirs = files, info["command"]["dirs"]
        cmd.expected_dir = info["command"]["expected_dir"]
        cmd.output_dir = any(a.startswith("--gemm-to-") and "output-dir" in a for a in argv)
        inp = Input(info["index"], "", [], "\n".join(candidate), cmd, True)
        o, _ = execute(inp, tools, args.timeout, workroot)
        return o.cls == info["class"] and o.signature == info["signature"]

    try:
        if not still(lines):
            print("gemm-fuzz reduce: the finding does not reproduce", file=sys.stderr)
            return 1
        chunk = max(1, len(lines) // 2)
        while chunk >= 1:
            i, changed = 0, False
            while i < len(lines):
                cand = lines[:i] + lines[i + chunk:]
                if cand and still(cand):
                    lines, changed = cand, True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
    out = os.path.join(folder, "input.reduced.mlir")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(out)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m gemm_mlir.fuzz", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    # A module of six dynamic-shape GEMMs compiles six 16-kernel families
    # (their wgmma kernels with TMA and the fallback copies): about 30 s on
    # an idle 2-core machine, and past 60 s on a loaded CI one. A real hang
    # still ends at the limit.
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per gemm-opt run (a module of 21 dynamic families compiles about 600 kernels to cubin: 146 s on 2 cores)")
    p.add_argument("--out", default="fuzz-out")
    p.add_argument("--gemm-opt", default=os.path.join(ROOT, "build", "bin", "gemm-opt"))
    p.add_argument("--asm-check-fraction", type=float, default=1.0,
                   help="fraction of runs whose PTX/AMDGCN is assembled (ptxas, llvm-mc)")
    p.add_argument("--no-asm", action="store_true", help="no ptxas/llvm-mc checks")
    p.add_argument("--fail-on", default=",".join(FAIL_CLASSES),
                   help="classes that make the exit status 1 (comma-separated)")
    p.add_argument("--keep-per-signature", type=int, default=3,
                   help="reproducers kept per signature of diagnosed-without-location")
    p.add_argument("--progress", type=int, default=0, help="a progress line every N inputs")
    p.add_argument("--show", type=int, default=None, metavar="INDEX", help="print one input and its command")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("--reduce", metavar="FINDING_DIR")
    args = p.parse_args(argv)
    args.fail_on = [c for c in args.fail_on.split(",") if c]
    bad = [c for c in args.fail_on if c not in CLASSES]
    if bad:
        p.error(f"unknown classes {bad}")
    if args.show is not None:
        return show(args)
    if args.self_test:
        return self_test(args)
    if args.reduce:
        return reduce_finding(args)
    return fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
