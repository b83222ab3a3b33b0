#!/usr/bin/env python3
"""A mutation fuzzer for the C runtime (libGemmRuntime), driven through
gemm-runtime-probe: manifests, object files, sizes and launch arguments
(docs/robustness.md, "The runtime").

Run (PYTHONPATH=python, from the repository root; scripts/fuzz.sh --runtime
wraps it):

  python3 -m gemm_mlir.fuzz_runtime --seed 1 --count 1000 --out OUT
      [--jobs N] [--timeout 60] [--probe build/bin/gemm-runtime-probe]
      [--gemm-opt build/bin/gemm-opt]
  python3 -m gemm_mlir.fuzz_runtime --show INDEX --seed 1 --out OUT
                                       one input: its mutations and command

What one input is. The artifact folders gemm-opt writes for a few inputs
(test/Runtime/Inputs: the dispatch families on sm_90a and gfx942, split-K,
operand packing and transposing copies; the README's example) are made
once into OUT/seeds. Input i of seed S (its own random.Random("S:i")) takes
one of them and:

- mutates its manifest.json 0 to 4 times (MUTATORS): an integer to a
  boundary value (0, -1, 2^31, 2^63-1, -2^63, 2^64, 1e300, ...), a value to
  another JSON kind, a key removed or an unknown one added, an array
  emptied, cut, repeated or reversed, a string to another name of the
  manifest (kernels, modules, functions, files, types) or to an awkward one
  (empty, a path out of the folder, 2000 characters, a NUL), two kernels'
  fields swapped, a kernel entry duplicated or dropped, the text cut or a
  byte changed, or deep nesting;
- sometimes damages an object file (removed, emptied, garbage, a folder);
- runs one command of gemm-runtime-probe on the copy: `describe`,
  `choose` with lines of sizes (boundary and random M, N, K, batch and
  alignment bits, names of the families or not, malformed lines), `plan`
  with arguments for a family (sizes consistent with its layout and
  parameters or not, strides, addresses, scalars of every type, the
  `--no-pack` flag), `api-errors`, or the python command: the Python
  module gemm_mlir._gemm_runtime (when --runtime-python holds it) loads the
  folder parse-only and takes function(), choose() and plan() calls with
  ints past 64 bits, floats, None, strings, short or long tuples
  (python_driver runs them in a process of its own).

Classes (classify):

  ok                   exit 0
  diagnosed            exit 1 with an `error (<status>): <message>` line, or
                       exit 2 with the probe's own usage message (python:
                       every exception a ValueError, TypeError,
                       OverflowError or RuntimeError)
  crash                killed by a signal, or a sanitizer report
  hang                 past --timeout
  undiagnosed-failure  any other exit (python: an exception of another type)
  divergence           `choose` exited 0, but for some line the rules of
                       python/gemm_mlir/dispatch.py on the same (mutated)
                       manifest pick another kernel or other K slices (lines
                       the Python rules reject are skipped)

The last four are findings (--fail-on). OUT gets summary.json, runs.jsonl
and findings/<class>/<index>-<command>/ with the artifact folder
(`artifacts/`), command.sh (re-runs it; PROBE overrides the binary),
stdin.txt, stdout.txt, stderr.txt and info.json.
"""

import argparse
import copy
import datetime
import glob
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from gemm_mlir.dispatch import choose_entry, split_slices
from gemm_mlir.fuzz import (CRASH_MARKERS, ROOT, git_commit, normalize, operand_shapes, resolve_tool, run_all,
                            run_process, write_outputs)

FAIL_CLASSES = ["crash", "hang", "undiagnosed-failure", "divergence"]
CLASSES = ["ok", "diagnosed"] + FAIL_CLASSES
COMMANDS = ["describe", "choose", "plan", "api-errors", "python"]

# (name, gemm-opt input relative to ROOT, pipeline option). The folder
# test/Runtime/Inputs/base is a seed as it is.
SEED_SOURCES = [
    ("families-sm90a", "test/Runtime/Inputs/families.mlir", "--gemm-to-ptx=chip=sm_90a output-dir={out}"),
    ("families-gfx942", "test/Runtime/Inputs/families.mlir", "--gemm-to-amdgcn=chip=gfx942 output-dir={out}"),
    ("split-k", "test/Runtime/Inputs/split-k-nvidia.mlir", "--gemm-to-ptx=chip=sm_90a output-dir={out}"),
    ("pack", "test/Runtime/Inputs/pack-operands.mlir", "--gemm-to-ptx=chip=sm_90a dispatch=false output-dir={out}"),
    ("transpose", "test/Runtime/Inputs/transpose-operands.mlir",
     "--gemm-to-ptx=chip=sm_90a output-dir={out}"),
    ("example", "examples/gemm_f16_tn.mlir", "--gemm-to-ptx=chip=sm_90a output-dir={out}"),
]

INT_BOUNDARY = [0, 1, -1, 2, 3, 7, 8, 16, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 1024,
                65535, 65536, 2**31 - 1, 2**31, 2**32, 2**32 + 1, 2**53 + 1, 2**62, 2**63 - 1,
                -2**63, -2**31]
# JSON number literals beyond what an int64 or a double keeps exactly.
NUMBER_TEXTS = ["18446744073709551616", "-9223372036854775809", "1e300", "-1e300", "1.5", "0.0",
                "-0.0", "1e-320", "4096.0", "1E3", "123456789012345678901234567890"]
SIZES = [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
         511, 512, 513, 1000, 1023, 1024, 2047, 2048, 4095, 4096, 4097, 8192, 11008, 65535, 65536,
         65537, 2**20, 2**31 - 1, 2**31, 2**32, 2**40, 2**62, 2**63 - 1, -1, -2**63]
DTYPES = ["f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "f8E4M3FN", "f8E5M2", "tf32",
          "i1", "x", "", "F16"]
AWKWARD_STRINGS = ["", " ", "x" * 2000, "../manifest.json", "/etc/passwd", ".", "..", "a/b",
                   "nul\u0000byte", "\u00fc", "%s%n%s", "gemm_kernels", "gemm_pack_f16"]


# ---------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------

def make_seeds(out, gemm_opt, timeout, only=None):
    """OUT/seeds/<name>/: artifact folders, made by gemm-opt (reused when
    already there and newer than gemm-opt); `only`: these names alone."""
    seeds_dir = os.path.join(out, "seeds")
    os.makedirs(seeds_dir, exist_ok=True)
    made = []
    base = os.path.join(seeds_dir, "base")
    shutil.rmtree(base, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "test", "Runtime", "Inputs", "base"), base)
    made.append("base")
    for name, source, option in SEED_SOURCES:
        if only and name not in only:
            continue
        folder = os.path.join(seeds_dir, name)
        manifest = os.path.join(folder, "manifest.json")
        if os.path.exists(manifest) and os.path.getmtime(manifest) > os.path.getmtime(gemm_opt):
            made.append(name)
            continue
        shutil.rmtree(folder, ignore_errors=True)
        argv = [gemm_opt, os.path.join(ROOT, source), option.format(out=folder), "-o", os.devnull]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0 or not os.path.exists(manifest):
            sys.exit(f"gemm-fuzz-runtime: cannot make the seed {name}: {' '.join(argv)}\n{r.stderr[-2000:]}")
        made.append(name)
    return seeds_dir, made


def describe_seed(probe, folder):
    """{family: {"layout": str, "params": [(name, kind, dtype, shape)]}}
    from `describe` on an unmutated seed."""
    r = subprocess.run([probe, "describe", folder], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        sys.exit(f"gemm-fuzz-runtime: describe failed on the seed {folder}:\n{r.stdout}{r.stderr}")
    fams, cur = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r"function (\S+) layout (\S+) chip (\S+)", line)
        if m:
            cur = fams[m.group(1)] = {"layout": m.group(2), "chip": m.group(3), "params": [], "kernels": []}
            continue
        m = re.match(r"\s+param (\S+) memref<(.*)x(\w+)>$", line)
        if m and cur is not None:
            shape = [None if d == "?" else int(d) for d in m.group(2).split("x")] if m.group(2) else []
            cur["params"].append((m.group(1), "memref", m.group(3), shape))
            continue
        m = re.match(r"\s+param (\S+) scalar (\w+)$", line)
        if m and cur is not None:
            cur["params"].append((m.group(1), "scalar", m.group(2), []))
            continue
        m = re.match(r"\s+kernel (\S+)$", line)
        if m and cur is not None:
            cur["kernels"].append(m.group(1))
    return fams


# ---------------------------------------------------------------------------
# Manifest mutations
# ---------------------------------------------------------------------------

def nodes(value, path=()):
    """Every (path, value) of a JSON tree, the root first."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, path + (i,))


def get_at(root, path):
    for p in path:
        root = root[p]
    return root


def set_at(root, path, value):
    if not path:
        return value
    get_at(root, path[:-1])[path[-1]] = value
    return root


def strings_of(m):
    return sorted({v for _, v in nodes(m) if isinstance(v, str) and len(v) < 200})


class Raw:
    """A JSON number written as given (beyond Python's int/float reach in
    json.dumps, e.g. 1e300 kept as text)."""

    def __init__(self, text):
        self.text = text


def dump(value):
    """json.dumps that writes Raw values verbatim."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + dump(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(dump(v) for v in value) + "]"
    return json.dumps(value)


def mut_int(rng, m, ctx):
    ints = [p for p, v in nodes(m) if isinstance(v, int) and not isinstance(v, bool)]
    if not ints:
        return m, None
    p = rng.choice(ints)
    if rng.random() < 0.2:
        v = Raw(rng.choice(NUMBER_TEXTS))
        shown = v.text
    else:
        old = get_at(m, p)
        v = rng.choice(INT_BOUNDARY + [old + 1, old - 1, old * 2, -old])
        shown = v
    return set_at(m, p, v), f"int {'/'.join(map(str, p))} = {shown}"


def other_kind(rng, value, strings):
    return rng.choice([None, True, False, 0, -1, 2**63 - 1, 1.5, "", rng.choice(strings) if strings else "x",
                       [], [1, 2], {}, {"x": 1}])


def mut_kind(rng, m, ctx):
    p, v = rng.choice(list(nodes(m))[1:] or [((), m)])
    nv = other_kind(rng, v, strings_of(m))
    return set_at(m, p, nv), f"kind {'/'.join(map(str, p))} = {json.dumps(nv)[:40]}"


def mut_remove_key(rng, m, ctx):
    objs = [(p, v) for p, v in nodes(m) if isinstance(v, dict) and v]
    if not objs:
        return m, None
    p, v = rng.choice(objs)
    k = rng.choice(list(v))
    del v[k]
    return m, f"remove {'/'.join(map(str, p + (k,)))}"


def mut_add_key(rng, m, ctx):
    objs = [(p, v) for p, v in nodes(m) if isinstance(v, dict)]
    p, v = rng.choice(objs)
    # A key another object of the manifest has (it may mean something
    # here too), or an unknown one.
    keys = sorted({k for _, o in nodes(m) if isinstance(o, dict) for k in o} - set(v))
    k = rng.choice(keys) if keys and rng.random() < 0.7 else rng.choice(["x", "", "when ", "K_MIN"])
    others = [o[k] for _, o in nodes(m) if isinstance(o, dict) and k in o]
    v[k] = copy.deepcopy(rng.choice(others)) if others and rng.random() < 0.6 else other_kind(rng, None, [])
    return m, f"add {'/'.join(map(str, p + (k,)))}"


def mut_array(rng, m, ctx):
    arrs = [(p, v) for p, v in nodes(m) if isinstance(v, list)]
    if not arrs:
        return m, None
    p, v = rng.choice(arrs)
    op = rng.choice(["empty", "cut", "repeat", "reverse", "drop", "dup"])
    if op == "empty":
        v[:] = []
    elif op == "cut" and v:
        del v[rng.randrange(len(v)):]
    elif op == "repeat":
        v[:] = v * rng.choice([2, 3, 40])
    elif op == "reverse":
        v.reverse()
    elif op == "drop" and v:
        del v[rng.randrange(len(v))]
    elif op == "dup" and v:
        i = rng.randrange(len(v))
        v.insert(i, copy.deepcopy(v[i]))
    return m, f"array {'/'.join(map(str, p))} {op}"


def mut_string(rng, m, ctx):
    strs = [p for p, v in nodes(m) if isinstance(v, str)]
    if not strs:
        return m, None
    p = rng.choice(strs)
    if rng.random() < 0.6:
        nv = rng.choice(strings_of(m) + DTYPES)
    else:
        nv = rng.choice(AWKWARD_STRINGS)
    return set_at(m, p, nv), f"string {'/'.join(map(str, p))} = {json.dumps(nv)[:40]}"


def mut_swap_field(rng, m, ctx):
    ks = m.get("kernels") if isinstance(m, dict) else None
    if not isinstance(ks, list) or len(ks) < 2:
        return m, None
    a, b = rng.sample(range(len(ks)), 2)
    if not isinstance(ks[a], dict) or not isinstance(ks[b], dict):
        return m, None
    common = sorted(set(ks[a]) & set(ks[b]))
    if not common:
        return m, None
    k = rng.choice(common)
    ks[a][k], ks[b][k] = ks[b][k], ks[a][k]
    return m, f"swap kernels/{a}/{k} kernels/{b}/{k}"


def mut_when(rng, m, ctx):
    """A bound of a kernel's `when` (the dispatch rules) changed, added or
    dropped."""
    ks = [k for k in (m.get("kernels") or []) if isinstance(k, dict)] if isinstance(m, dict) else []
    if not ks:
        return m, None
    e = rng.choice(ks)
    when = e.setdefault("when", {}) if isinstance(e.get("when", {}), dict) else e.get("when")
    if not isinstance(when, dict):
        return m, None
    key = rng.choice([f"{s}_{b}" for s in ("m", "n", "k", "batch", "blocks") for b in ("min", "max")]
                     + ["a_aligned", "b_aligned", "c_aligned", "m_mid", "wave_fit", "whole_tiles"])
    if key.endswith("_aligned") or key == "whole_tiles":
        v = rng.choice([True, False, True, 0, 1, "true", None])
    elif key == "wave_fit":
        v = {"wave": 132, "versus": [128, 256], "weight": 75, "versus_weight": 94}
        sub = rng.choice(["wave", "versus", "weight", "versus_weight", "extra", None])
        if sub == "versus":
            v[sub] = rng.choice([[rng.choice(INT_BOUNDARY), 256], [128], "128x256", None])
        elif sub == "extra":
            v["waves"] = 1
        elif sub:
            v[sub] = rng.choice(INT_BOUNDARY + [None, 1.5])
        v = rng.choice([v, v, v, [], 0])
    else:
        v = rng.choice(INT_BOUNDARY)
    when[key] = v
    return m, f"when {e.get('name')} {key} = {json.dumps(v)}"


def mut_kernel_entry(rng, m, ctx):
    ks = m.get("kernels") if isinstance(m, dict) else None
    if not isinstance(ks, list) or not ks:
        return m, None
    i = rng.randrange(len(ks))
    op = rng.choice(["drop", "dup", "move-last", "rename-function"])
    if op == "drop":
        del ks[i]
    elif op == "dup":
        ks.insert(rng.randrange(len(ks) + 1), copy.deepcopy(ks[i]))
    elif op == "move-last":
        ks.append(ks.pop(i))
    elif isinstance(ks[i], dict):
        ks[i]["function"] = rng.choice(strings_of(m) + ["nope"])
    return m, f"kernel {i} {op}"


def mut_nest(rng, m, ctx):
    p, _ = rng.choice(list(nodes(m)))
    depth = rng.choice([2, 50, 127, 128, 129, 5000])
    v = Raw("[" * depth + "1" + "]" * depth)  # text: no recursion here
    return set_at(m, p, v), f"nest {'/'.join(map(str, p))} {depth}"


MUTATORS = [
    ("int", mut_int, 5), ("kind", mut_kind, 3), ("remove-key", mut_remove_key, 3),
    ("add-key", mut_add_key, 2), ("array", mut_array, 3), ("string", mut_string, 3),
    ("swap-field", mut_swap_field, 2), ("when", mut_when, 4), ("kernel-entry", mut_kernel_entry, 2),
    ("nest", mut_nest, 1),
]


def mutate_manifest(rng, m, count):
    names = [n for n, _, w in MUTATORS for _ in range(w)]
    fns = dict((n, f) for n, f, _ in MUTATORS)
    done = []
    for _ in range(count):
        n = rng.choice(names)
        try:
            m, what = fns[n](rng, m, None)
        except (TypeError, AttributeError, KeyError, IndexError, ValueError):
            what = None  # an earlier mutation left no place for this one
        if what:
            done.append(what)
    return m, done


def text_damage(rng, text):
    op = rng.choice(["cut", "byte", "bom", "utf8"])
    if op == "cut":
        i = rng.randrange(len(text) + 1)
        return text[:i], f"text cut at {i}"
    if op == "byte":
        i = rng.randrange(len(text)) if text else 0
        c = rng.choice(['"', "{", "}", "[", "]", ",", ":", "\\", "\u0000", "\n", "9", "-", "\u00ff"])
        return text[:i] + c + text[i + 1:], f"text byte {i} = {c!r}"
    if op == "bom":
        return "\ufeff" + text, "text bom"
    return text.replace('"', '"\udcff', 1) if rng.random() < 0.5 else text + "\u00e9", "text utf8"


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------

def rand_size(rng):
    if rng.random() < 0.6:
        return rng.choice(SIZES)
    return rng.choice([rng.randrange(1, 300), rng.randrange(1, 20000), rng.randrange(1, 2**20)])


def choose_lines(rng, fams):
    lines = []
    names = list(fams) or ["nope"]
    for _ in range(rng.randrange(1, 40)):
        r = rng.random()
        name = rng.choice(names) if r < 0.99 else rng.choice(["nope", "#0", names[0] + "#9", "x" * 300])
        m, n, k = rand_size(rng), rand_size(rng), rand_size(rng)
        fields = [name, m, n, k]
        if rng.random() < 0.6:
            fields.append(rng.choice([1, 1, 2, 3, 8, 64, 65535, 65536, 0, -1, 2**31, 2**63 - 1]))
            if rng.random() < 0.5:
                fields.append(rng.choice([0, 1, 2, 3]) if rng.random() < 0.99 else rng.choice([4, 7, 2**32 + 3, -1]))
        line = " ".join(str(f) for f in fields)
        if rng.random() < 0.02:
            line = rng.choice(["", "   ", name, f"{name} 1 2", f"{name} a b c", f"{name} 1 2 3 x",
                               f"{name} 0x10 1e3 7", f"{name} 99999999999999999999 1 1"])
        lines.append(line)
    return lines


def operand_dims(layout, role, m, n, k):
    """A, B, C dims of a layout (docs/dialect.md; as fuzz.operand_shapes)."""
    if role == "C":
        return [m, n]
    a, b = operand_shapes(layout, m, n, k)
    return a if role == "A" else b


ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
                 "f8E4M3FN": 1, "f8E5M2": 1}


def memref_address(rng, dtype, wild=lambda p: False):
    """A memref's address: 16-byte aligned or off by whole elements (wild:
    by one byte, or null, or near 2^64)."""
    addr = rng.choice([0x1000, 0x100000, 0x7f0000000000])
    addr += rng.choice([0, 0, 16, ELEMENT_BYTES.get(dtype, 1), 3 * ELEMENT_BYTES.get(dtype, 1)])
    if wild(0.05):
        addr = rng.choice([0, 1, 0x1001, 2**64 - 16])
    return addr


def row_major(sizes):
    strides = [1] * len(sizes)
    for d in range(len(sizes) - 1, 0, -1):
        strides[d - 1] = strides[d] * sizes[d]
    return strides


def probe_arg(a):
    """memref:DTYPE:ADDRESS:SIZES[:STRIDES] or scalar:DTYPE:VALUE."""
    if a["kind"] == "scalar":
        return f"scalar:{a['dtype']}:{a['value']}"
    text = f"memref:{a['dtype']}:{hex(a['address'])}:" + "x".join(str(d) for d in a["sizes"])
    if a["strides"] is not None:
        text += ":" + "x".join(str(x) for x in a["strides"])
    return text


def python_arg(rng, a):
    """The Python module's form: a float or int for a scalar, a tuple
    (data_ptr, sizes, strides[, dtype]) for a memref (as JSON lists)."""
    if a["kind"] == "scalar":
        v = a["value"]
        for conv in (lambda x: int(x, 0), float):
            try:
                return conv(v)
            except ValueError:
                pass
        return v  # a string: the module must reject it
    strides = a["strides"] if a["strides"] is not None else row_major(a["sizes"])
    out = [a["address"], a["sizes"], strides]
    if rng.random() < 0.3:
        out.append(a["dtype"])
    return out


def plan_args(rng, fam):
    """Arguments for `plan` on a family: mostly (careful) ones its checks
    accept, so that the choice, packing and workspaces are reached;
    otherwise with a wrong type, size, stride or count here and there.
    Returns (args, no_pack): dicts of kind "memref" (dtype, address,
    sizes, strides or None for row-major) or "scalar" (dtype, value)."""
    careful = rng.random() < 0.6
    wild = (lambda p: False) if careful else (lambda p: rng.random() < p)
    layout = fam["layout"] if len(fam["layout"]) == 2 else "tn"
    m, n, k = rand_size(rng), rand_size(rng), rand_size(rng)
    if rng.random() < 0.7:  # mostly sizes a GPU could hold
        m, n, k = [rng.choice([1, 2, 3, 7, 8, 16, 17, 64, 100, 128, 255, 256, 1000, 4095, 4096, 4097])
                   for _ in range(3)]
    batch = rng.choice([1, 2, 3, 7, 64])
    args = []
    for name, kind, dtype, shape in fam["params"]:
        if kind == "scalar":
            if dtype in ("f32", "f64"):
                v = rng.choice(["0.5", "-3", "1e38", "inf", "nan", "0", "-0"])
            else:
                v = rng.choice(["0", "1", "-1", "127", "-128", "0x3c00"])
            if wild(0.15):
                v = rng.choice(["32767", "2147483647", "9223372036854775807", "x", "", "1e400"])
            args.append({"kind": "scalar", "dtype": rng.choice(DTYPES) if wild(0.1) else dtype, "value": v})
            continue
        if name in ("A", "B", "C"):
            dims = operand_dims(layout, name, m, n, k)
        else:
            dims = rng.choice([[n], [m], [m, n], [1], [n, m]])[: len(shape) or 1]
            if len(shape) == 2 and len(dims) == 1:
                dims = [m, n]
        if len(shape) == len(dims) + 1:
            dims = [batch] + dims
        dims = [s if s is not None and rng.random() < 0.9 else d
                for s, d in zip(shape + [None] * (len(dims) - len(shape)), dims)] if shape else dims
        if wild(0.08):
            i = rng.randrange(len(dims)) if dims else 0
            if dims:
                dims[i] = rng.choice(SIZES)
        strides = None
        r = rng.random()
        if r < 0.15 and dims:
            # Row-major with a padded leading dimension.
            strides = [1] * len(dims)
            pad = rng.choice([0, 1, 8, 64, 7]) if not careful or rng.random() < 0.5 else 8
            for d in range(len(dims) - 1, 0, -1):
                strides[d - 1] = strides[d] * (dims[d] + (pad if d == len(dims) - 1 else 0))
        elif r < 0.22 and dims and not careful:
            strides = [rng.choice([0, 1, 2, -1, 8, 4096, 2**31, 2**62, 2**63 - 1]) for _ in dims]
        elif r < 0.27 and len(dims) >= 2 and not careful:
            # Transposed strides (column-major).
            strides = [1] * len(dims)
            strides[-2] = 1
            strides[-1] = dims[-2]
        t = rng.choice(DTYPES[:10] + ["99", "-1"]) if wild(0.07) else dtype
        args.append({"kind": "memref", "dtype": t, "address": memref_address(rng, t, wild), "sizes": dims,
                     "strides": strides})
    if args and wild(0.05):
        del args[rng.randrange(len(args))]
    if wild(0.03):
        args.append(copy.deepcopy(rng.choice(args)) if args else
                    {"kind": "memref", "dtype": "f16", "address": 4096, "sizes": [1], "strides": None})
    return args, rng.random() < 0.2


# Python values the module's arguments must reject with an exception.
PY_WILD = [None, "x", "", 1.5, float("nan"), -1, 2**70, -2**70, 2**64, True, [], [1, 2], {"a": 1}]


def python_calls(rng, fams):
    """Calls of the Python module on one loaded folder: function(), its
    description, choose() and plan(), with ints past 64 bits, floats,
    None, strings, short or long tuples here and there."""
    calls = []
    names = list(fams) or ["nope"]
    for _ in range(rng.randrange(1, 12)):
        name = rng.choice(names) if rng.random() < 0.95 else rng.choice(["nope", "", "x" * 300, None, 3])
        op = rng.choices(["describe", "choose", "plan"], weights=[1, 4, 4])[0]
        c = {"fn": name, "op": op}
        if op == "choose":
            args, kw = [rand_size(rng) for _ in range(3)], {}
            if rng.random() < 0.5:
                kw["batch"] = rng.choice([1, 2, 3, 64, 65535, 65536, 0, -1, 2**63 - 1])
            for key in ("a_aligned", "b_aligned"):
                if rng.random() < 0.4:
                    kw[key] = rng.choice([True, False])
            if rng.random() < 0.1:
                if kw and rng.random() < 0.5:
                    kw[rng.choice(list(kw))] = rng.choice(PY_WILD)
                else:
                    args[rng.randrange(3)] = rng.choice(PY_WILD)
            if rng.random() < 0.03:
                args = args[:rng.randrange(3)] if rng.random() < 0.5 else args + [1, 1, 1, 1]
            c["args"], c["kwargs"] = args, kw
        elif op == "plan":
            args, no_pack = plan_args(rng, fams[name]) if name in fams else ([], False)
            py = [python_arg(rng, a) for a in args]
            if py and rng.random() < 0.15:
                i = rng.randrange(len(py))
                r = rng.random()
                if r < 0.4 or not isinstance(py[i], list):
                    py[i] = rng.choice(PY_WILD)
                elif r < 0.7:
                    py[i] = py[i][:rng.randrange(len(py[i]))] + ([] if rng.random() < 0.5 else [1, 2, 3])
                else:
                    j = rng.randrange(3)
                    py[i][j] = rng.choice(PY_WILD)
            if rng.random() < 0.03:
                py = rng.choice(PY_WILD[:4])
            c["args"] = py
            if no_pack or rng.random() < 0.1:
                c["pack"] = False if rng.random() < 0.9 else rng.choice(PY_WILD)
        calls.append(c)
    return calls


class Input:
    def __init__(self, index):
        self.index = index
        self.seed_name = None
        self.mutations = []
        self.command = None
        self.argv_tail = []
        self.stdin = None
        self.manifest_text = None
        self.object_damage = None
        self.calls = None           # the python command's calls


def make_input(seed, index, seed_names, fams_by_seed, seeds_dir, python_ok=False):
    rng = random.Random(f"{seed}:{index}")
    inp = Input(index)
    inp.seed_name = rng.choice(seed_names)
    with open(os.path.join(seeds_dir, inp.seed_name, "manifest.json"), encoding="utf-8") as f:
        text = f.read()
    r = rng.random()
    if r < 0.25:
        pass  # the manifest as gemm-opt wrote it: the sizes and arguments are fuzzed
    elif r < 0.9:
        m, done = mutate_manifest(rng, json.loads(text), rng.randrange(1, 5))
        inp.mutations = done
        text = dump(m)
    else:
        text, what = text_damage(rng, text)
        inp.mutations = [what]
    inp.manifest_text = text
    if rng.random() < 0.05:
        inp.object_damage = rng.choice(["remove", "empty", "garbage", "folder"])
    fams = fams_by_seed[inp.seed_name]
    inp.command = rng.choices(COMMANDS, weights=[15, 40, 38, 7, 20 if python_ok else 0])[0]
    if inp.command == "choose":
        inp.stdin = "\n".join(choose_lines(rng, fams)) + "\n"
    elif inp.command == "plan":
        names = list(fams)
        name = rng.choice(names) if names and rng.random() < 0.97 else "nope"
        args, no_pack = plan_args(rng, fams[name]) if name in fams else ([], False)
        tail = [probe_arg(a) for a in args]
        if no_pack:
            tail.insert(rng.randrange(len(tail) + 1), "--no-pack")
        inp.argv_tail = [name] + tail
    elif inp.command == "python":
        inp.calls = python_calls(rng, fams)
    return inp


# ---------------------------------------------------------------------------
# Running and classifying
# ---------------------------------------------------------------------------

class Outcome:
    def __init__(self):
        self.rc = None
        self.timed_out = False
        self.stdout = ""
        self.stderr = ""
        self.seconds = 0.0
        self.divergence = None
        self.compared = 0       # choose lines checked against dispatch.py
        self.cls = None
        self.signature = ""


def write_artifacts(inp, seeds_dir, folder):
    shutil.copytree(os.path.join(seeds_dir, inp.seed_name), folder)
    with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(inp.manifest_text)
    if inp.object_damage:
        objs = sorted(f for f in os.listdir(folder) if f != "manifest.json")
        if objs:
            path = os.path.join(folder, objs[0])
            os.remove(path)
            if inp.object_damage == "empty":
                open(path, "w").close()
            elif inp.object_damage == "garbage":
                with open(path, "wb") as f:
                    f.write(bytes(range(256)) * 4)
            elif inp.object_damage == "folder":
                os.mkdir(path)


def argv_of(inp, probe, folder, python=None):
    if inp.command == "python":
        return [python or sys.executable, "-m", "gemm_mlir.fuzz_runtime", "--python-driver", folder, "calls.json"]
    if inp.command in ("describe", "choose", "api-errors"):
        return [probe, inp.command, folder]
    return [probe, "plan", folder] + inp.argv_tail


def choose_key(fields):
    """(name, m, n, k, batch, aligned) of a choose request: a choose line's
    fields as text, or the python command's values (ints only; batch 1 and
    aligned 3 when absent); None when malformed."""
    def integer(x):
        if isinstance(x, str):
            return int(x, 10)
        if type(x) is not int:
            raise ValueError(x)
        return x
    try:
        sizes = [integer(x) for x in fields[1:6]]
    except ValueError:
        return None
    if len(sizes) < 3:
        return None
    return (fields[0], *sizes[:3], sizes[3] if len(sizes) > 3 else 1, sizes[4] if len(sizes) > 4 else 3)


def python_choices(manifest_text, keys):
    """What python/gemm_mlir/dispatch.py picks for each choose_key, or None
    where it rejects the manifest or the key."""
    try:
        manifest = json.loads(manifest_text)
        fams = {}
        for e in manifest["kernels"]:
            fams.setdefault((e["function"], e.get("gemm", 0)), []).append(e)
        funcs = [f for f, _ in fams]
        named = {(f if funcs.count(f) == 1 else f"{f}#{g}"): es for (f, g), es in fams.items()}
    except Exception:
        return None
    out = []
    for name, m, n, k, batch, aligned in keys:
        try:
            e = named[name][choose_entry(named[name], m, n, k, batch, bool(aligned & 1), bool(aligned & 2))]
            out.append((e["name"], split_slices(e, m, n, k, batch)))
        except Exception:
            out.append(None)
    return out


def check_divergence(inp, o):
    """For `choose` exiting 0: the runtime's answers against dispatch.py's
    on lines both answer (o.compared counts them)."""
    answered = {}
    for l in o.stdout.splitlines():
        mm = re.match(r"(\S+) (-?\d+)x(-?\d+)x(-?\d+) batch (-?\d+)(?: aligned (\d+))?: (\S+) (-?\d+)$", l)
        if mm:
            key = (mm.group(1), int(mm.group(2)), int(mm.group(3)), int(mm.group(4)), int(mm.group(5)),
                   int(mm.group(6)) if mm.group(6) else 3)
            answered[key] = (mm.group(7), int(mm.group(8)))
    keys = []
    for line in inp.stdin.splitlines():
        key = choose_key(line.split())
        if key in answered and all(-2**63 <= x < 2**63 for x in key[1:5]) and 0 <= key[5] < 2**32:
            keys.append(key)
    py = python_choices(inp.manifest_text, keys)
    if py is None:
        return None
    for key, want in zip(keys, py):
        o.compared += want is not None
        if want is not None and answered[key] != want:
            return f"{' '.join(map(str, key))}: runtime {answered[key][0]} {answered[key][1]}, " \
                   f"dispatch.py {want[0]} {want[1]}"
    return None


def classify(inp, o):
    if o.timed_out:
        o.cls = "hang"
    elif (o.rc is not None and o.rc < 0) or any(mk in o.stderr for mk in CRASH_MARKERS):
        o.cls = "crash"
    elif o.rc == 0:
        o.divergence = check_divergence(inp, o) if inp.command == "choose" else None
        o.cls = "divergence" if o.divergence else "ok"
    elif inp.command == "python" and o.rc == 4:
        o.divergence = next((l[len("divergence "):] for l in o.stdout.splitlines()
                             if l.startswith("divergence ")), "?")
        o.cls = "divergence"
    elif o.rc == 1 and re.search(r"^error \([A-Za-z ]+\): \S", o.stdout, re.M):
        o.cls = "diagnosed"
    elif o.rc == 2 and o.stderr.startswith("gemm-runtime-probe: "):
        o.cls = "diagnosed"
    else:
        o.cls = "undiagnosed-failure"
    o.signature = signature(o)
    return o.cls


def signature(o):
    if o.cls == "hang":
        return "timeout"
    if o.cls == "crash":
        for l in o.stderr.splitlines():
            for mk in ("runtime error:", "AddressSanitizer", "LeakSanitizer", "Assertion"):
                if mk in l:
                    return normalize(l[l.find(mk):])
        return f"signal {-o.rc}" if o.rc and o.rc < 0 else "crash"
    if o.cls == "divergence":
        return normalize(o.divergence.split(":", 1)[1])
    text = o.stdout if o.rc == 1 else o.stderr
    lines = [l for l in text.splitlines() if l.strip()]
    if o.cls == "diagnosed":
        err = [l for l in lines if l.startswith("error (") or l.startswith("gemm-runtime-probe: ")]
        return normalize(re.sub(r"'[^']*'", "'X'", err[0])) if err else ""
    return normalize(lines[0]) if lines else f"exit {o.rc}, no output"


def python_env(runtime_python):
    """PYTHONPATH for the python command: python/ and the folder holding
    gemm_mlir/_gemm_runtime*.so; no CUDA driver is loaded."""
    return {"PYTHONPATH": os.pathsep.join([os.path.join(ROOT, "python"), runtime_python]),
            "GEMM_RUNTIME_CUDA_LIBRARY": "/nonexistent/libcuda.so.1"}


def execute(inp, probe, seeds_dir, timeout, workroot, runtime_python=None):
    o = Outcome()
    rundir = tempfile.mkdtemp(prefix=f"r{inp.index}-", dir=workroot)
    folder = os.path.join(rundir, "artifacts")
    write_artifacts(inp, seeds_dir, folder)
    env = dict(os.environ, TMPDIR=rundir)
    if inp.command == "python":
        env.update(python_env(runtime_python))
        with open(os.path.join(rundir, "calls.json"), "w", encoding="utf-8") as f:
            json.dump(inp.calls, f, indent=1)
    stdin = None
    if inp.stdin is not None:
        with open(os.path.join(rundir, "stdin.txt"), "w", encoding="utf-8") as f:
            f.write(inp.stdin)
        stdin = open(os.path.join(rundir, "stdin.txt"), "rb")
    t0 = time.monotonic()
    try:
        rc, out, err, to = run_process(argv_of(inp, probe, folder), rundir, timeout, env, stdin=stdin)
    finally:
        if stdin:
            stdin.close()
    o.seconds = time.monotonic() - t0
    o.rc, o.timed_out = rc, to
    o.stdout = out.decode("utf-8", errors="replace")
    o.stderr = err.decode("utf-8", errors="replace")
    classify(inp, o)
    return o, rundir


def write_finding(out, inp, o, rundir, runtime_python=None):
    folder = os.path.join(out, "findings", o.cls, f"{inp.index:06d}-{inp.command}")
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(rundir, folder, symlinks=True)
    argv = argv_of(inp, "${PROBE:-gemm-runtime-probe}", "artifacts", "python3")
    env = ""
    if inp.command == "python":
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in python_env(runtime_python).items()) + " "
    with open(os.path.join(folder, "command.sh"), "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\n# Re-runs the finding from this folder (PROBE: the gemm-runtime-probe to use).\n"
                "cd \"$(dirname \"$0\")\"\n" + env
                + " ".join(a if a.startswith("${") else shlex.quote(a) for a in argv)
                + (" < stdin.txt" if inp.stdin is not None else "") + "\n")
    os.chmod(os.path.join(folder, "command.sh"), 0o755)
    for name, text in (("stdout.txt", o.stdout), ("stderr.txt", o.stderr)):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text[-20000:])
    with open(os.path.join(folder, "info.json"), "w", encoding="utf-8") as f:
        json.dump({"index": inp.index, "seed_folder": inp.seed_name, "command": inp.command,
                   "mutations": inp.mutations, "object_damage": inp.object_damage, "class": o.cls,
                   "rc": o.rc, "signature": o.signature, "divergence": o.divergence}, f, indent=1)
    return os.path.relpath(folder, out)


def summarize(args, results, seconds, probe):
    classes = {c: 0 for c in CLASSES}
    commands = {c: {k: 0 for k in CLASSES} for c in COMMANDS}
    sigs = {}
    for inp, o, where in results:
        classes[o.cls] += 1
        commands[inp.command][o.cls] += 1
        key = (o.cls, o.signature)
        s = sigs.setdefault(key, {"class": o.cls, "signature": o.signature, "count": 0, "commands": [],
                                  "reproducers": []})
        s["count"] += 1
        if inp.command not in s["commands"]:
            s["commands"].append(inp.command)
        if where and len(s["reproducers"]) < 10:
            s["reproducers"].append(where)
    order = {c: i for i, c in enumerate(CLASSES)}
    return {
        "tool": "gemm_mlir.fuzz_runtime",
        "date": datetime.date.today().isoformat(),
        "commit": git_commit(),
        "probe": probe,
        "python_module": args.runtime_python if args.python_ok else None,
        "seed": args.seed,
        "inputs": len(results),
        "jobs": args.jobs,
        "timeout_s": args.timeout,
        "total_seconds": round(seconds, 1),
        "classes": classes,
        "choices_compared": sum(o.compared for _, o, _ in results),
        "failing": sum(classes[c] for c in args.fail_on),
        "fail_on": args.fail_on,
        "commands": commands,
        "signatures": sorted(sigs.values(), key=lambda s: (order[s["class"]], -s["count"], s["signature"])),
    }


def print_summary(summary, stream=sys.stdout):
    p = lambda *a: print(*a, file=stream)
    p(f"gemm-fuzz-runtime: seed {summary['seed']}, {summary['inputs']} inputs, "
      f"{summary['total_seconds']} s, {summary['jobs']} jobs, commit {summary['commit']}")
    for c in CLASSES:
        p(f"  {c:22s} {summary['classes'][c]}")
    diag = [s for s in summary["signatures"] if s["class"] == "diagnosed"]
    p(f"  distinct diagnostics: {len(diag)}")
    p(f"  choices compared with dispatch.py: {summary['choices_compared']}")
    for s in summary["signatures"]:
        if s["class"] in FAIL_CLASSES:
            first = s["reproducers"][0] if s["reproducers"] else ""
            p(f"  [{s['class']}] x{s['count']} {s['signature']} ({', '.join(s['commands'])}) {first}")
    p(f"  failing ({', '.join(summary['fail_on'])}): {summary['failing']}")


def resolve(path, what):
    return resolve_tool(path, what, "gemm-fuzz-runtime")


def prepare(args):
    probe = resolve(args.probe, "gemm-runtime-probe")
    only = args.seed_folders
    gemm_opt = resolve(args.gemm_opt, "gemm-opt") if only != ["base"] else None
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    seeds_dir, names = make_seeds(out, gemm_opt, max(args.timeout, 600), only)
    fams = {n: describe_seed(probe, os.path.join(seeds_dir, n)) for n in names}
    rp = [os.path.abspath(d) for d in args.runtime_python.split(os.pathsep) if d]
    args.python_ok = any(glob.glob(os.path.join(d, "gemm_mlir", "_gemm_runtime*.so")) for d in rp)
    args.runtime_python = os.pathsep.join(rp)
    return probe, out, seeds_dir, names, fams


def fuzz(args):
    probe, out, seeds_dir, names, fams = prepare(args)
    if os.path.isdir(os.path.join(out, "findings")):
        shutil.rmtree(os.path.join(out, "findings"))
    workroot = tempfile.mkdtemp(prefix="gemm-fuzz-runtime-")
    lock = threading.Lock()
    results = [None] * args.count
    done = [0]
    t0 = time.monotonic()

    def one(i):
        inp = make_input(args.seed, i, names, fams, seeds_dir, args.python_ok)
        o, rundir = execute(inp, probe, seeds_dir, args.timeout, workroot, args.runtime_python)
        where = write_finding(out, inp, o, rundir, args.runtime_python) if o.cls in args.fail_on else None
        shutil.rmtree(rundir, ignore_errors=True)
        with lock:
            results[i] = (inp, o, where)
            done[0] += 1
            if args.progress and done[0] % args.progress == 0:
                print(f"gemm-fuzz-runtime: {done[0]}/{args.count} {time.monotonic() - t0:.0f} s", file=sys.stderr)

    try:
        run_all(args.count, args.jobs, one)
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
    summary = summarize(args, results, time.monotonic() - t0, probe)
    write_outputs(out, summary, [
        {"index": inp.index, "seed_folder": inp.seed_name, "command": inp.command, "class": o.cls,
         "rc": o.rc, "seconds": round(o.seconds, 3), "mutations": inp.mutations,
         "signature": o.signature, "reproducer": where} for inp, o, where in results])
    print_summary(summary)
    return 1 if summary["failing"] else 0


PYTHON_EXCEPTIONS = (ValueError, TypeError, OverflowError, RuntimeError)


def python_driver(folder, calls_file):
    """The python command, in its own process: load `folder` parse-only
    with gemm_mlir._gemm_runtime and make the calls of `calls_file`. Prints
    a line per call; an exception of PYTHON_EXCEPTIONS is a diagnostic
    ("error (<type>): <message>"). Exit 1: the folder did not load; 3: an
    exception of another type; 4: choose() answered other than
    dispatch.py on the same manifest; else 0."""
    import pkgutil
    import gemm_mlir
    gemm_mlir.__path__ = pkgutil.extend_path(gemm_mlir.__path__, gemm_mlir.__name__)
    from gemm_mlir import _gemm_runtime as rt
    with open(calls_file, encoding="utf-8") as f:
        calls = json.load(f)
    try:
        module = rt.Module(folder, device=False)
    except PYTHON_EXCEPTIONS as e:
        print(f"error ({type(e).__name__}): {e}")
        return 1
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8", errors="surrogateescape") as f:
        manifest_text = f.read()
    for c in calls:
        try:
            fn = module.function(c["fn"])
            if c["op"] == "describe":
                result = (fn.name, fn.layout, fn.chip, fn.kernels, fn.params)
            elif c["op"] == "choose":
                result = fn.choose(*c["args"], **c["kwargs"])
            else:
                result = fn.plan(c["args"], **({"pack": c["pack"]} if "pack" in c else {}))
        except PYTHON_EXCEPTIONS as e:
            print(f"error ({type(e).__name__}): {e}")
            continue
        except Exception as e:  # noqa: BLE001 - any other type is a finding
            print(f"unexpected {type(e).__name__}: {e}")
            return 3
        print("ok", c["op"], result)
        if c["op"] == "choose":
            kw = c["kwargs"]
            aligned = (1 if kw.get("a_aligned", True) else 0) | (2 if kw.get("b_aligned", True) else 0)
            key = choose_key([c["fn"]] + c["args"] + [kw.get("batch", 1), aligned])
            want = python_choices(manifest_text, [key]) if key else None
            if want and want[0] is not None and tuple(result) != want[0]:
                print(f"divergence {' '.join(map(str, key))}: module {result[0]} {result[1]}, "
                      f"dispatch.py {want[0][0]} {want[0][1]}")
                return 4
    return 0


FAKES = {
    # mode: (shell body, command, expected class)
    "ok": ("exit 0", "describe", "ok"),
    "diagnosed": ('echo "error (invalid manifest): manifest.json: bad"; exit 1', "describe", "diagnosed"),
    "usage": ('echo "gemm-runtime-probe: cannot parse argument \'x\'" >&2; exit 2', "plan", "diagnosed"),
    "signal": ("kill -SEGV $$", "describe", "crash"),
    "sanitizer": ('echo "Runtime.cpp:1:2: runtime error: signed integer overflow" >&2; exit 1', "plan", "crash"),
    "hang": ("sleep 100", "describe", "hang"),
    "undiagnosed": ("exit 3", "describe", "undiagnosed-failure"),
    "error-exit-0": ('echo "error (invalid argument): x"; exit 2', "plan", "undiagnosed-failure"),
    # Answers every choose line with a kernel the rules never pick.
    "divergence": ('while read f m n k rest; do echo "$f ${m}x${n}x${k} batch 1: bogus_gemm 1"; done; exit 0',
                   "choose", "divergence"),
    # The same, with the kernel dispatch.py picks: no divergence.
    "agrees": ('while read f m n k rest; do echo "$f ${m}x${n}x${k} batch 1: linear_gemm_5 1"; done; exit 0',
               "choose", "ok"),
}


def self_test(args):
    """Runs the classifier on fake probes, one per class, then checks that
    inputs are reproducible."""
    out = os.path.abspath(args.out)
    bindir = os.path.join(out, "fake-bin")
    os.makedirs(bindir, exist_ok=True)
    seeds_dir, names = make_seeds(out, None, 60, ["base"])
    workroot = tempfile.mkdtemp(prefix="gemm-fuzz-runtime-self-")
    failures = 0
    try:
        for mode, (body, command, expected) in FAKES.items():
            fake = os.path.join(bindir, f"probe-{mode}")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\n" + body + "\n")
            os.chmod(fake, 0o755)
            inp = Input(0)
            inp.seed_name, inp.command = "base", command
            with open(os.path.join(seeds_dir, "base", "manifest.json"), encoding="utf-8") as f:
                inp.manifest_text = f.read()
            if command == "choose":
                # sizes the base family `linear` runs on linear_gemm_5
                inp.stdin = "linear 4096 4096 4096\nlinear 5 6 7\n"
            elif command == "plan":
                inp.argv_tail = ["linear"]
            o, rundir = execute(inp, fake, seeds_dir, 2 if mode == "hang" else args.timeout, workroot)
            shutil.rmtree(rundir, ignore_errors=True)
            status = "PASS" if o.cls == expected else f"FAIL (expected {expected})"
            failures += o.cls != expected
            print(f"self-test {mode}: {o.cls} {status}" + (f" ({o.divergence})" if o.divergence else ""))
        fams = {"base": describe_seed(resolve(args.probe, "gemm-runtime-probe"), os.path.join(seeds_dir, "base"))}

        def key(x):
            return (x.seed_name, x.mutations, x.manifest_text, x.command, x.argv_tail, x.stdin)
        a = [key(make_input(7, i, names, fams, seeds_dir)) for i in range(40)]
        b = [key(make_input(7, i, names, fams, seeds_dir)) for i in range(40)]
        c = [key(make_input(8, i, names, fams, seeds_dir)) for i in range(40)]
        ok = a == b and a != c
        failures += not ok
        print(f"self-test determinism: {'PASS' if ok else 'FAIL'}")
        print(f"self-test families: {', '.join(sorted(fams['base']))}")
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
    print("self-test:", "FAIL" if failures else "PASS")
    return 1 if failures else 0


def show(args):
    probe, out, seeds_dir, names, fams = prepare(args)
    inp = make_input(args.seed, args.show, names, fams, seeds_dir, args.python_ok)
    print(f"seed folder: {inp.seed_name}")
    print(f"mutations: {inp.mutations}; object damage: {inp.object_damage}")
    print("command: " + " ".join(argv_of(inp, "gemm-runtime-probe", "DIR")))
    if inp.stdin is not None:
        print("stdin:\n" + inp.stdin, end="")
    if inp.calls is not None:
        print("calls.json:\n" + json.dumps(inp.calls, indent=1))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "fuzz-runtime"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--probe", default=os.path.join(ROOT, "build", "bin", "gemm-runtime-probe"))
    ap.add_argument("--gemm-opt", default=os.path.join(ROOT, "build", "bin", "gemm-opt"))
    ap.add_argument("--progress", type=int, default=0)
    ap.add_argument("--fail-on", nargs="*", default=FAIL_CLASSES, choices=FAIL_CLASSES)
    ap.add_argument("--show", type=int)
    ap.add_argument("--self-test", action="store_true", help="the classifier on fake probes")
    ap.add_argument("--runtime-python", default=os.path.join(ROOT, "build", "python"),
                    help="folders (a PYTHONPATH) one of which holds gemm_mlir/_gemm_runtime*.so; "
                         "the python command runs when the module is there")
    ap.add_argument("--python-driver", nargs=2, metavar=("DIR", "CALLS"), help=argparse.SUPPRESS)
    ap.add_argument("--seed-folders", nargs="*", choices=["base"] + [n for n, _, _ in SEED_SOURCES],
                    help="the artifact folders to mutate (default: all)")
    args = ap.parse_args(argv)
    if args.python_driver:
        return python_driver(*args.python_driver)
    if args.self_test:
        return self_test(args)
    if args.show is not None:
        return show(args)
    return fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
