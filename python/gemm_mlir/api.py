"""Compile GEMMs from Python and run them on PyTorch tensors or CuPy arrays.

    import gemm_mlir, torch
    f = gemm_mlir.compile(gemm_mlir.Problem(layout="tn", a="f16",
                                            epilogue="bias_gelu"))
    f(x, w, y, bias)      # y = gelu(x @ w.T + bias), on the current stream

`compile` turns a problem description (or MLIR text holding gemm.matmul
ops) into kernels for a chip through the compiler C API
(gemm_mlir._gemm_compiler, include/gemm-c/Compiler.h), caches the artifact
folder under a hash of what it was compiled from, and loads it with the
runtime (gemm_mlir._gemm_runtime, include/gemm-c/Runtime.h), which picks the
kernel of the family for the sizes, packs unaligned operands, runs split-K
and launches. `load` loads a folder compiled elsewhere (gemm-opt
--gemm-to-cubin="output-dir=..." or compile on another machine).

Importing it imports no torch, CuPy or NumPy (compile and load ask torch
or CuPy for the current device): tensors are recognized by their type
(torch.Tensor once torch is imported), by __cuda_array_interface__ or by
__dlpack__. docs/python.md describes the API, the problem descriptions,
the errors, streams and the measured per-call overhead.
"""
import builtins
import ctypes
import collections.abc
import dataclasses
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile

from . import chipguard as _chipguard

__all__ = ["CompileError", "GemmFunction", "Problem", "compile",
           "compile_to_folder", "default_cache_dir", "device_chip", "load"]


class CompileError(RuntimeError):
    """The compiler rejected the input: the text did not parse or verify,
    the pipeline options were refused, or a pass failed. `diagnostics` holds
    the compiler's messages (with locations in the MLIR text, which is in
    `text`)."""

    def __init__(self, diagnostics, pipeline, options, text):
        self.diagnostics = diagnostics
        self.pipeline = pipeline
        self.options = options
        self.text = text
        super().__init__(f"{pipeline} ({options}) failed:\n{diagnostics}")


# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------

FLOAT_WIDTHS = {"f8E4M3FN": 8, "f8E5M2": 8, "f16": 16, "bf16": 16,
                "f32": 32, "f64": 64}
INT_WIDTHS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
ELEMENT_TYPES = {**FLOAT_WIDTHS, **INT_WIDTHS}
_TYPE_ALIASES = {
    "half": "f16", "float16": "f16", "bfloat16": "bf16", "float": "f32",
    "float32": "f32", "double": "f64", "float64": "f64", "bool": "i1",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "f8": "f8E4M3FN", "f8e4m3fn": "f8E4M3FN", "float8_e4m3fn": "f8E4M3FN",
    "f8e5m2": "f8E5M2", "float8_e5m2": "f8E5M2",
}
# Accumulator and C defaults per A type.
_DEFAULT_ACC = {"f16": "f32", "bf16": "f32", "f32": "f32", "f64": "f64",
                "i8": "i32", "f8E4M3FN": "f32", "f8E5M2": "f32"}
_DEFAULT_C = {"f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64",
              "i8": "i32", "f8E4M3FN": "f16", "f8E5M2": "f16"}

# Element type name -> torch dtype attribute name.
_TORCH_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
                 "f64": "float64", "i1": "bool", "i8": "int8",
                 "i16": "int16", "i32": "int32", "i64": "int64",
                 "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2"}
# __cuda_array_interface__ typestr (byte order stripped) -> element type.
_CAI_TYPES = {"f2": "f16", "f4": "f32", "f8": "f64", "b1": "i1",
              "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64"}
# DLPack (code, bits) -> element type (dlpack.h 1.1: kDLInt 0, kDLFloat 2,
# kDLBfloat 4, kDLBool 6, kDLFloat8_e4m3fn 10, kDLFloat8_e5m2 12).
_DLPACK_TYPES = {(0, 8): "i8", (0, 16): "i16", (0, 32): "i32",
                 (0, 64): "i64", (2, 16): "f16", (2, 32): "f32",
                 (2, 64): "f64", (4, 16): "bf16", (6, 8): "i1",
                 (10, 8): "f8E4M3FN", (12, 8): "f8E5M2"}
_ITEM_SIZES = {t: max(w // 8, 1) for t, w in ELEMENT_TYPES.items()}


def _element_type(value, field):
    """The MLIR name of element type `value` (an MLIR name, an alias such as
    "float16", or a torch/NumPy dtype); ValueError naming `field`."""
    name = str(value)
    if name.startswith("torch."):
        name = name[len("torch."):]
    name = _TYPE_ALIASES.get(name, _TYPE_ALIASES.get(name.lower(), name))
    if name not in ELEMENT_TYPES:
        raise ValueError(
            f"{field}: unknown element type {value!r} (expected one of "
            f"{', '.join(ELEMENT_TYPES)})")
    return name


# ---------------------------------------------------------------------------
# Problem descriptions -> MLIR
# ---------------------------------------------------------------------------

LAYOUTS = ("nn", "nt", "tn", "tt")
# Epilogue steps, applied in order to the accumulator (docs/python.md).
# Each step's extras: (name, "scalar" | "bias" | "full").
EPILOGUE_STEPS = {
    "bias": [("bias", "bias")],
    "relu": [],
    "gelu": [],
    "gelu_tanh": [],
    "silu": [],
    "sigmoid": [],
    "tanh": [],
    "scale": [("alpha", "scalar")],
    "beta": [("beta", "scalar")],
    "residual": [("residual", "full")],
    "clamp": [("lo", "scalar"), ("hi", "scalar")],
}
_STEPS_WITHOUT_INTEGERS = ("gelu", "gelu_tanh", "silu", "sigmoid", "tanh",
                           "scale", "beta", "clamp")


def _split_epilogue(epilogue):
    """The step list of `epilogue`: None, "none", a string of steps joined
    by "_" (longest step names first: "bias_gelu_tanh" is bias, gelu_tanh),
    or a sequence of step names."""
    if epilogue is None or epilogue == "none":
        return []
    if (isinstance(epilogue, (bytes, bytearray))
            or not isinstance(epilogue, collections.abc.Iterable)):
        raise TypeError(f"epilogue: expected None, a str or a sequence of "
                        f"step names, got {type(epilogue).__name__} "
                        f"{epilogue!r}")
    if isinstance(epilogue, str):
        words, steps, i = epilogue.split("_"), [], 0
        while i < len(words):
            for j in range(len(words), i, -1):
                if "_".join(words[i:j]) in EPILOGUE_STEPS:
                    steps.append("_".join(words[i:j]))
                    i = j
                    break
            else:
                raise ValueError(
                    f"epilogue: unknown step {words[i]!r} in {epilogue!r} "
                    f"(expected steps {', '.join(EPILOGUE_STEPS)} joined by "
                    "'_', e.g. 'bias_gelu')")
        return steps
    steps = list(epilogue)
    for s in steps:
        if not isinstance(s, str) or s not in EPILOGUE_STEPS:
            raise ValueError(f"epilogue: unknown step {s!r} (expected one of "
                             f"{', '.join(EPILOGUE_STEPS)})")
    return steps


@dataclasses.dataclass(frozen=True)
class Problem:
    """A GEMM to compile: C = epilogue(A * B) with dynamic M, N, K (and
    batch), one kernel family serving every size.

    layout: "nn", "nt", "tn" or "tt" (letter 1: A is M x K for n, K x M for
      t; letter 2: B is K x N for n, N x K for t; "tn" is x @ w.T).
    a, b, c, acc: element types (MLIR names, "float16"-style aliases or
      torch dtypes); b defaults to a, acc and c to a's usual ones (f16 ->
      f32 acc, f16 C; i8 -> i32, i32).
    batched: rank-3 operands with the batch outermost.
    epilogue: "none", steps joined by "_" ("bias_gelu", "relu",
      "scale_beta") or a list of steps; EPILOGUE_STEPS lists them, and
      docs/python.md says what each computes and which extra it takes.
    bias: "col" (one value per column of C, N values: a linear layer's bias)
      or "row" (one per row, M values).
    bias_type: the bias' element type (default: the type the epilogue
      computes in at that step, the accumulator's for a leading bias).
    config: a #gemm.config<...> to use instead of the dispatch family.
    name: the function's name (an MLIR symbol).
    """
    layout: str = "tn"
    a: object = "f16"
    b: object = None
    c: object = None
    acc: object = None
    batched: bool = False
    epilogue: object = "none"
    bias: str = "col"
    bias_type: object = None
    config: str = None
    name: str = "gemm"

    def __post_init__(self):
        if self.layout not in LAYOUTS:
            raise ValueError(f"layout: unknown layout {self.layout!r} "
                             f"(expected one of {', '.join(LAYOUTS)})")
        a = _element_type(self.a, "a")
        b = a if self.b is None else _element_type(self.b, "b")
        if a not in _DEFAULT_ACC:
            raise ValueError(f"a: {a} is not a GEMM operand type (expected "
                             f"one of {', '.join(_DEFAULT_ACC)})")
        set_ = object.__setattr__
        set_(self, "a", a)
        set_(self, "b", b)
        set_(self, "acc", _DEFAULT_ACC[a] if self.acc is None
             else _element_type(self.acc, "acc"))
        set_(self, "c", _DEFAULT_C[a] if self.c is None
             else _element_type(self.c, "c"))
        if self.bias_type is not None:
            set_(self, "bias_type", _element_type(self.bias_type, "bias_type"))
        if not isinstance(self.batched, bool):
            raise ValueError(
                f"batched: expected True or False, got {self.batched!r}")
        if self.bias not in ("row", "col"):
            raise ValueError(f"bias: expected 'row' or 'col', got "
                             f"{self.bias!r}")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", str(self.name)):
            raise ValueError(f"name: {self.name!r} is not an MLIR symbol name")
        steps = tuple(_split_epilogue(self.epilogue))
        set_(self, "epilogue", "_".join(steps) if steps else "none")
        set_(self, "_steps", steps)
        # Generating the text checks the step/type combinations.
        set_(self, "_text", _problem_text(self))

    @property
    def steps(self):
        """The epilogue steps, in order."""
        return self._steps

    @property
    def extras(self):
        """The extra arguments after A, B, C, in order: (name, kind) with
        kind "scalar", "row" / "col" (a bias vector) or "full" (M x N)."""
        out = []
        for step in self._steps:
            for name, kind in EPILOGUE_STEPS[step]:
                out.append((name, self.bias if kind == "bias" else kind))
        return out

    @property
    def mlir(self):
        """The MLIR text of the problem's function."""
        return self._text


class _Body:
    """The epilogue region's instructions, with fresh value names."""

    def __init__(self):
        self.lines = []

    def op(self, text, result=True):
        if not result:
            self.lines.append(text)
            return None
        name = f"%v{len(self.lines)}"
        self.lines.append(f"{name} = {text}")
        return name

    def const(self, value, type_):
        if type_ in INT_WIDTHS:
            return self.op(f"arith.constant {int(value)} : {type_}")
        return self.op(f"arith.constant {float(value)!r} : {type_}")

    def convert(self, v, frm, to):
        """`v` of type `frm` as type `to` (float <-> float, int -> float,
        int -> int; an integer narrowing saturates)."""
        if frm == to:
            return v
        if frm in FLOAT_WIDTHS and to in FLOAT_WIDTHS:
            fw, tw = FLOAT_WIDTHS[frm], FLOAT_WIDTHS[to]
            if fw == tw:  # f16 <-> bf16: through f32
                return self.convert(self.convert(v, frm, "f32"), "f32", to)
            op = "arith.extf" if tw > fw else "arith.truncf"
            return self.op(f"{op} {v} : {frm} to {to}")
        if frm in INT_WIDTHS and to in FLOAT_WIDTHS:
            op = "arith.uitofp" if frm == "i1" else "arith.sitofp"
            return self.op(f"{op} {v} : {frm} to {to}")
        if frm in INT_WIDTHS and to in INT_WIDTHS:
            fw, tw = INT_WIDTHS[frm], INT_WIDTHS[to]
            if tw > fw:
                return self.op(f"arith.extsi {v} : {frm} to {to}")
            lo = self.const(-(1 << (tw - 1)), frm)
            hi = self.const((1 << (tw - 1)) - 1, frm)
            v = self.op(f"arith.maxsi {v}, {lo} : {frm}")
            v = self.op(f"arith.minsi {v}, {hi} : {frm}")
            return self.op(f"arith.trunci {v} : {frm} to {to}")
        raise ValueError(f"cannot convert {frm} to {to}")


def _float_type(t):
    """The type float math runs in for a value of type `t`: f64 stays, the
    rest computes in f32 (libdevice and the AMD intrinsics are f32/f64)."""
    return "f64" if t == "f64" else "f32"


def _problem_text(p):
    """The func.func holding the problem's gemm.matmul."""
    body = _Body()
    args = []    # (ssa name, type, broadcast, block argument type)
    x, xt = "%acc", p.acc
    rank = 3 if p.batched else 2

    def memref(t, r):
        return "memref<" + "?x" * r + t + ">"

    def to_float(v, t):
        ft = _float_type(t)
        return body.convert(v, t, ft), ft

    for step in p._steps:
        if step in _STEPS_WITHOUT_INTEGERS and xt in INT_WIDTHS:
            x, xt = to_float(x, xt)
        if step == "bias":
            bt = p.bias_type or xt
            arg = f"%e{len(args)}"
            args.append((arg, memref(bt, 1), p.bias, bt))
            if bt in INT_WIDTHS and xt in FLOAT_WIDTHS:
                raise ValueError(f"bias_type: an integer bias ({bt}) cannot "
                                 f"be added to a {xt} value")
            if xt in INT_WIDTHS and bt in FLOAT_WIDTHS:
                x, xt = to_float(x, xt)
            v = body.convert(arg + "_v", bt, xt)
            x = body.op(f"arith.add{'i' if xt in INT_WIDTHS else 'f'} "
                        f"{x}, {v} : {xt}")
        elif step == "relu":
            z = body.const(0, xt)
            op = "arith.maxsi" if xt in INT_WIDTHS else "arith.maximumf"
            x = body.op(f"{op} {x}, {z} : {xt}")
        elif step in ("gelu", "gelu_tanh", "silu", "sigmoid", "tanh"):
            x, xt = to_float(x, xt)
            one = body.const(1.0, xt) if step != "tanh" else None

            def f(op, *operands):
                return body.op(f"{op} {', '.join(operands)} : {xt}")

            if step == "gelu":  # x/2 (1 + erf(x / sqrt(2)))
                k = body.const(0.7071067811865476, xt)
                e = f("math.erf", f("arith.mulf", x, k))
                half = f("arith.mulf", x, body.const(0.5, xt))
                x = f("arith.mulf", half, f("arith.addf", e, one))
            elif step == "gelu_tanh":  # x/2 (1 + tanh(c2 (x + c1 x^3)))
                x3 = f("arith.mulf", f("arith.mulf", x, x), x)
                inner = f("arith.addf", x, f("arith.mulf", x3,
                                             body.const(0.044715, xt)))
                t = f("math.tanh", f("arith.mulf", inner,
                                     body.const(0.7978845608028654, xt)))
                half = f("arith.mulf", x, body.const(0.5, xt))
                x = f("arith.mulf", half, f("arith.addf", t, one))
            elif step in ("silu", "sigmoid"):  # x or 1, / (1 + exp(-x))
                d = f("arith.addf", f("math.exp", f("arith.negf", x)), one)
                x = f("arith.divf", x if step == "silu" else one, d)
            else:
                x = f("math.tanh", x)
        elif step in ("scale", "beta", "clamp"):
            st = _float_type(xt)
            x = body.convert(x, xt, st)
            xt = st
            names = [f"%e{len(args) + i}" for i in
                     range(len(EPILOGUE_STEPS[step]))]
            for n in names:
                args.append((n, st, "scalar", st))
            if step == "scale":
                x = body.op(f"arith.mulf {x}, {names[0]}_v : {st}")
            elif step == "beta":
                c = body.convert("%cin", p.c, st)
                bc = body.op(f"arith.mulf {c}, {names[0]}_v : {st}")
                x = body.op(f"arith.addf {x}, {bc} : {st}")
            else:
                x = body.op(f"arith.maximumf {x}, {names[0]}_v : {st}")
                x = body.op(f"arith.minimumf {x}, {names[1]}_v : {st}")
        elif step == "residual":
            arg = f"%e{len(args)}"
            args.append((arg, memref(p.c, rank), "full", p.c))
            if xt in INT_WIDTHS and p.c in FLOAT_WIDTHS:
                x, xt = to_float(x, xt)
            r = body.convert(arg + "_v", p.c, xt)
            x = body.op(f"arith.add{'i' if xt in INT_WIDTHS else 'f'} "
                        f"{x}, {r} : {xt}")
    if p._steps:
        if xt in FLOAT_WIDTHS and p.c in INT_WIDTHS:
            raise ValueError(
                f"c: the epilogue {p.epilogue!r} computes in {xt}, which "
                f"does not convert to an integer C ({p.c}); integer outputs "
                "take the integer steps bias and relu only")
        x = body.convert(x, xt, p.c)
        body.op(f"gemm.yield {x} : {p.c}", result=False)

    ab = [memref(p.a, rank), memref(p.b, rank)]
    ct = memref(p.c, rank)
    params = [f"%a: {ab[0]}", f"%b: {ab[1]}", f"%c: {ct}"]
    params += [f"{n}: {t}" for n, t, _, _ in args]
    attrs = []
    extras = ""
    if args:
        extras = (f" extras({', '.join(n for n, _, _, _ in args)} : "
                  f"{', '.join(t for _, t, _, _ in args)})")
        attrs.append("broadcast = [" + ", ".join(
            f"#gemm.bcast<{b}>" for _, _, b, _ in args) + "]")
    if p.config:
        attrs.append(f"config = {p.config}")
    attr = f" attributes {{{', '.join(attrs)}}}" if attrs else ""
    lines = [f"func.func @{p.name}({', '.join(params)}) {{",
             f"  gemm.matmul {p.layout} ins(%a, %b : {ab[0]}, {ab[1]}) "
             f"outs(%c : {ct}){extras} acc({p.acc}){attr}"
             + (" {" if p._steps else "")]
    if p._steps:
        block = [f"%acc: {p.acc}", f"%cin: {p.c}"]
        block += [f"{n}_v: {bt}" for n, _, _, bt in args]
        lines.append(f"  ^bb0({', '.join(block)}):")
        lines += ["    " + line for line in body.lines]
        lines.append("  }")
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Chips, pipelines and the cache
# ---------------------------------------------------------------------------

def device_chip(device=None):
    """The chip to compile for on a CUDA (or ROCm) device, through torch or
    CuPy (chipguard.device_chip): "sm_90a" for compute capability 9.0 (the
    Hopper instructions need the 'a' target), "sm_XY" for other NVIDIA
    devices, the gfx name on ROCm. `device` is an index or None (the
    current device)."""
    try:
        chip = _chipguard.device_chip(device)
    except ValueError:
        raise ValueError("chip: no chip given and no CUDA device found "
                         "through torch or CuPy; pass chip='sm_90a' (or "
                         "another chip)") from None
    m = re.fullmatch(r"sm_(\d+)(\d)", chip)
    if m:
        return _nvidia_chip(int(m.group(1)), int(m.group(2)))
    return chip.split(":")[0]


def _nvidia_chip(major, minor):
    return f"sm_{major}{minor}" + ("a" if (major, minor) == (9, 0) else "")


def _check_c_string(what, value):
    """Raises ValueError where `value` (a str bound for the C++ compiler or
    the runtime) cannot cross: a NUL would end it early there (options and
    text after it silently dropped), a lone surrogate does not encode."""
    if "\0" in value:
        raise ValueError(f"{what}: holds a NUL character at offset "
                         f"{value.index(chr(0))}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"{what}: not valid UTF-8 text ({e.reason} at "
                         f"offset {e.start})") from None


def _pipeline(chip, fmt):
    """The registered pipeline for `chip` and `fmt` ("bin", "isa" or None:
    cubin where ptxas is on PATH, PTX otherwise; HSACO on AMD)."""
    if fmt not in (None, "bin", "isa"):
        raise ValueError(f"format: expected 'bin', 'isa' or None, got {fmt!r}")
    if not isinstance(chip, str):
        raise TypeError(f"chip: expected a chip name (str), got "
                        f"{type(chip).__name__} {chip!r}")
    if re.fullmatch(r"sm_\d+a?", chip):
        if fmt is None:
            fmt = "bin" if shutil.which("ptxas") else "isa"
        return "gemm-to-cubin" if fmt == "bin" else "gemm-to-ptx"
    if re.fullmatch(r"gfx[0-9a-f]+", chip):
        return "gemm-to-hsaco" if fmt in (None, "bin") else "gemm-to-amdgcn"
    raise ValueError(f"chip: {chip!r} is neither an NVIDIA chip (sm_XY, "
                     "e.g. sm_90a) nor an AMD one (gfxNNN, e.g. gfx942)")


def _option_string(options):
    """Pipeline options from a dict (True/False as true/false) or a
    string."""
    if options is None:
        return ""
    if isinstance(options, str):
        return options
    parts = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        value = str(value)
        if re.search(r"[\s\"{}]", value):
            value = '"' + value + '"'
        parts.append(f"{key}={value}")
    return " ".join(parts)


def default_cache_dir():
    """$GEMM_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/gemm-mlir, else
    ~/.cache/gemm-mlir."""
    if os.environ.get("GEMM_MLIR_CACHE_DIR"):
        return os.environ["GEMM_MLIR_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gemm-mlir")


_compiler_identity = None


def _compiler():
    """The compiler module and a string identifying the compiler library
    (its version and, on Linux, the loaded file's size and time): a rebuilt
    library gets new cache entries."""
    global _compiler_identity
    from . import _gemm_compiler
    if _compiler_identity is None:
        identity = _gemm_compiler.version()
        try:
            with open("/proc/self/maps") as maps:
                paths = {line.split()[-1] for line in maps
                         if "libGemmCompiler" in line}
            for path in sorted(paths):
                st = os.stat(path)
                identity += f" {path} {st.st_size} {st.st_mtime_ns}"
        except OSError:
            pass
        _compiler_identity = identity
    return _gemm_compiler, _compiler_identity


def compile_to_folder(text, chip, *, options=None, fmt=None, cache_dir=None):
    """Compiles MLIR `text` for `chip` into an artifact folder under
    `cache_dir` (default_cache_dir()) named by a hash of the compiler, the
    pipeline, its options and the text; returns the folder. A folder that
    already holds a manifest is reused. Raises CompileError."""
    if not isinstance(text, str):
        raise TypeError(f"mlir: expected MLIR text (str), got "
                        f"{type(text).__name__}")
    pipeline = _pipeline(chip, fmt)
    opts = " ".join(filter(None, [f"chip={chip}", _option_string(options)]))
    root = cache_dir or default_cache_dir()
    for what, value in (("mlir", text), ("options", opts),
                        ("cache_dir", root)):
        _check_c_string(what, value)
    compiler, identity = _compiler()
    key = hashlib.sha256("\0".join(
        [identity, pipeline, opts, text]).encode()).hexdigest()[:32]
    folder = os.path.join(root, key)
    if os.path.exists(os.path.join(folder, "manifest.json")):
        return folder
    os.makedirs(root, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix=key + ".", dir=root)
    try:
        code, diagnostics = compiler.compile(text, pipeline, opts, scratch)
        if code == compiler.INVALID_ARGUMENT:
            message = diagnostics.strip()
            raise ValueError(message[len("error: "):]
                             if message.startswith("error: ") else message)
        if code != compiler.SUCCESS:
            raise CompileError(diagnostics.strip(), pipeline, opts, text)
        manifest = os.path.join(scratch, "manifest.json")
        kernels = None
        if os.path.exists(manifest):
            with open(manifest) as f:
                kernels = json.load(f).get("kernels")
        if not kernels:
            raise CompileError("error: the module holds no gemm.matmul (no "
                               "kernels were written)", pipeline, opts, text)
        with open(os.path.join(scratch, "source.mlir"), "w") as f:
            f.write(text)
        try:
            os.rename(scratch, folder)
        except OSError:
            # Another process finished the same compilation first.
            if not os.path.exists(os.path.join(folder, "manifest.json")):
                raise
        return folder
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def compile(problem=None, *, mlir=None, function=None, chip=None,
            cache_dir=None, options=None, format=None):
    """Compiles `problem` (a Problem) or MLIR text `mlir` for `chip`
    (default: the current CUDA device's, device_chip()) and loads it on the
    current device; returns the GemmFunction of `function` (default: the
    problem's, or the text's only function). `options` adds pipeline
    options (a dict or "key=value ..." string: dispatch, tuning-db,
    select-config, ptx-version, ...); `format` is "bin" (cubin/HSACO),
    "isa" (PTX/AMDGCN) or None (cubin where ptxas is on PATH). Raises
    ValueError for bad arguments, CompileError when the compiler rejects
    the input."""
    if (problem is None) == (mlir is None):
        raise ValueError("compile: give a Problem or mlir= text (one of them)")
    if problem is not None:
        if not isinstance(problem, Problem):
            raise TypeError(f"problem: expected a gemm_mlir.Problem, got "
                            f"{type(problem).__name__}")
        text = problem.mlir
        function = function or problem.name
    else:
        text = mlir
    chip = chip or device_chip()
    folder = compile_to_folder(text, chip, options=options, fmt=format,
                               cache_dir=cache_dir)
    return load(folder, function=function, problem=problem)


def load(path, function=None, *, device=True, problem=None):
    """Loads an artifact folder (manifest.json and the binaries it names)
    with the runtime and returns the GemmFunction of `function` (default:
    the folder's only function). device=False parses only: the function
    checks and plans calls (plan()) but cannot launch."""
    from . import _gemm_runtime
    if problem is not None and not isinstance(problem, Problem):
        raise TypeError(f"problem: expected a Problem or None, got "
                        f"{type(problem).__name__} {problem!r}")
    path = os.fspath(path)
    if not isinstance(path, str):
        path = os.fsdecode(path)
    _check_c_string("path", path)
    device_index = None
    if device:
        device_index = _make_context_current()
    module = _gemm_runtime.Module(path, device)
    names = module.functions()
    if function is None:
        if len(names) != 1:
            raise ValueError(f"function: {path} holds functions "
                             f"{', '.join(names)}; name one")
        function = names[0]
    elif function not in names:
        raise ValueError(f"function: {path} has no function {function!r} "
                         f"(it has {', '.join(names)})")
    return GemmFunction(module, module.function(function), path,
                        device_index, problem)


def _make_context_current():
    """Makes the current device's primary context current on this thread
    (the runtime loads into the current context) and returns the device
    index, through torch or CuPy."""
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch
        except ImportError:
            torch = None
    if torch is not None and torch.cuda.is_available():
        index = torch.cuda.current_device()
        torch.cuda.synchronize(index)  # creates and binds the context
        return index
    try:
        import cupy
        dev = cupy.cuda.Device()
        dev.synchronize()
        return dev.id
    except ImportError:
        raise RuntimeError("loading on a device needs torch or CuPy (to "
                           "find the current device); pass device=False to "
                           "parse only") from None


# ---------------------------------------------------------------------------
# Calls
# ---------------------------------------------------------------------------

class _NoTensor:
    """Stands for torch.Tensor until torch is imported."""


_Tensor = _NoTensor
_torch_stream = None  # torch's current stream on a device, as a handle


def _refresh_torch():
    """Picks up torch.Tensor and torch's current-stream query once torch is
    imported; True if it is."""
    global _Tensor, _torch_stream
    torch = sys.modules.get("torch")
    if torch is not None and _Tensor is _NoTensor:
        _Tensor = torch.Tensor
        # The raw handle without building a torch.cuda.Stream object (a few
        # microseconds per call otherwise).
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _torch_stream = raw or (
            lambda device: torch.cuda.current_stream(device).cuda_stream)
    return torch is not None


class _Param:
    """A parameter as the call path checks it."""
    __slots__ = ("index", "name", "memref", "rank", "type", "output",
                 "torch_dtype", "label")

    def __init__(self, index, info, label):
        self.index = index
        self.name = info["name"]
        self.memref = info["kind"] == "memref"
        self.rank = info["rank"]
        self.type = info["element_type"]
        self.output = index == 2
        self.torch_dtype = None
        self.label = label


class GemmFunction:
    """A compiled GEMM function, loaded on a device. Call it with A, B, C
    and the extras (tensors for memref parameters, Python numbers for
    scalars): f(a, b, c, *extras, stream=None). It writes C in place,
    enqueued on `stream` (default: torch's current stream for torch tensors,
    CuPy's for CuPy arrays, the legacy default stream otherwise)."""

    def __init__(self, module, fn, path, device_index, problem):
        self._module = module
        self._fn = fn
        self._launch = fn.launch
        self.path = path
        self.problem = problem
        self.name = fn.name
        self.chip = fn.chip
        self.layout = fn.layout
        self.params = fn.params
        self.device_index = device_index
        extras = problem.extras if problem else []
        if problem and len(self.params) != 3 + len(extras):
            raise ValueError(
                f"problem: function {self.name} of {path} takes "
                f"{len(self.params)} arguments, but the problem has "
                f"{3 + len(extras)} (A, B, C and {len(extras)} extras)")
        self._params = []
        for i, info in enumerate(self.params):
            label = info["name"]
            if i >= 3 and i - 3 < len(extras):
                label = f"{info['name']} ({extras[i - 3][0]})"
            self._params.append(_Param(i, info, label))
        self._torch_ready = False
        if _refresh_torch():
            self._resolve_torch()

    @property
    def kernels(self):
        """The kernels of the family, in rule order, one name per rule (a
        kernel launched under several rules appears once for each;
        docs/dispatch.md)."""
        return self._fn.kernels

    @property
    def extras(self):
        """The extras after A, B, C as (name, kind); from the problem, or
        the parameters' names for functions compiled from text."""
        if self.problem:
            return self.problem.extras
        return [(p["name"], p["kind"]) for p in self.params[3:]]

    def choose(self, m, n, k, batch=1, a_aligned=True, b_aligned=True):
        """(kernel name, K slices) that run for these sizes, on an A and B
        that allow 16-byte copies (a 16-byte aligned first element, unit
        inner stride, outer strides of whole 16 bytes) or, with a_aligned /
        b_aligned False, do not (docs/dispatch.md)."""
        return self._fn.choose(m, n, k, batch, a_aligned, b_aligned)

    def plan(self, *args):
        """What a call with these arguments would launch, as a dict
        (kernel, sizes, slices, packing, workspace bytes), after the same
        checks as a call; needs no device."""
        argv, _ = self._convert(args, None, plan=True)
        return self._fn.plan(argv)

    def __call__(self, *args, stream=None):
        return self._call(args, stream)

    def _call(self, args, stream):
        """The general call path: every check, with its error message."""
        argv, handle = self._convert(args, stream)
        return self._launch(argv, handle)

    def __repr__(self):
        return (f"<GemmFunction {self.name} layout={self.layout} "
                f"chip={self.chip} kernels={len(self.kernels)}>")

    # The call path: everything per call is here, kept to attribute reads
    # and comparisons (docs/python.md, "Overhead").
    def _convert(self, args, stream, plan=False):
        params = self._params
        if len(args) != len(params):
            raise TypeError(
                f"{self.name}() takes {len(params)} arguments ("
                f"{', '.join(p.label for p in params)}), got {len(args)}")
        if not self._torch_ready and _refresh_torch():
            self._resolve_torch()
        tensor = _Tensor
        argv = []
        framework = None
        device = self.device_index
        for p, x in zip(params, args):
            if not p.memref:
                if type(x) is not float and type(x) is not int:
                    x = _scalar(self._where(p), p, x)
                argv.append(x)
                continue
            if type(x) is tensor or isinstance(x, tensor):
                if not x.is_cuda:
                    raise TypeError(f"{self._where(p)}: expected a CUDA "
                                    f"tensor, got one on {x.device}")
                if x.dtype is not p.torch_dtype:
                    raise TypeError(f"{self._where(p)}: expected {p.type} "
                                    f"({p.torch_dtype}), got {x.dtype}")
                shape = x.shape
                strides = x.stride()
                if len(shape) != p.rank:
                    self._rank_error(p, shape)
                if strides[-1] != 1 and shape[-1] > 1:
                    self._stride_error(p, shape, strides)
                if p.output and not x.is_contiguous():
                    _check_no_overlap(self._where(p), shape, strides)
                index = x.get_device()
                if index != device:
                    if device is not None:
                        self._device_error(p, index)
                    device = index
                if framework is None:
                    framework = index
                argv.append((x.data_ptr(), shape, strides))
                continue
            view = self._view(p, x, stream)
            if view[4] is not None and view[4] != device:
                if device is not None:
                    self._device_error(p, view[4])
                device = view[4]
            if framework is None:
                framework = view[3]
            argv.append(view[:3])
        if plan:
            return argv, None
        if stream is None:
            if type(framework) is int:
                return argv, _torch_stream(framework)
            return argv, _framework_stream(framework)
        return argv, _stream_handle(stream)

    def _resolve_torch(self):
        torch = sys.modules["torch"]
        for p in self._params:
            if p.memref:
                p.torch_dtype = getattr(torch, _TORCH_DTYPES.get(p.type, ""),
                                        None)
        self._torch_ready = True
        if (len(self._params) >= 3 and all(
                p.torch_dtype is not None for p in self._params if p.memref)):
            _install_fast_path(self)

    def _where(self, p):
        return f"{self.name}() argument {p.index} ({p.label})"

    def _rank_error(self, p, shape):
        raise ValueError(f"{self._where(p)}: expected rank {p.rank}, got "
                         f"shape {tuple(shape)}")

    def _stride_error(self, p, shape, strides):
        hint = ""
        if p.index < 2:
            flipped = list(self.layout)
            flipped[p.index] = "n" if flipped[p.index] == "t" else "t"
            hint = (f"; for a transposed {p.name} compile layout "
                    f"'{''.join(flipped)}' instead of '{self.layout}', or "
                    f"pass a contiguous copy")
        raise ValueError(
            f"{self._where(p)}: the innermost stride must be 1, got strides "
            f"{tuple(strides)} for shape {tuple(shape)} (the kernels read "
            f"rows contiguously){hint}")

    def _device_error(self, p, index):
        want = ("the device of the arguments before it"
                if self.device_index is None
                else f"cuda:{self.device_index}, where {self.name} was loaded")
        raise ValueError(f"{self._where(p)}: on cuda:{index}, expected "
                         f"{want}")

    def _view(self, p, x, stream):
        """(data_ptr, shape, strides, framework, device) of a non-torch
        array, by __cuda_array_interface__ or __dlpack__: framework is the
        cupy module for CuPy arrays (their current stream is the default),
        else None; device is the array's device index when it says."""
        where = self._where(p)
        cai = getattr(x, "__cuda_array_interface__", None)
        if cai is not None:
            view = _cai_view(where, p, x, cai)
        elif hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
            view = _dlpack_view(where, p, x, stream)
        else:
            raise TypeError(
                f"{where}: expected a CUDA array (a torch.Tensor, an object "
                f"with __cuda_array_interface__ such as a CuPy array, or one "
                f"with __dlpack__), got {type(x).__name__}")
        shape, strides = view[1], view[2]
        if len(shape) != p.rank:
            self._rank_error(p, shape)
        if any(s < 0 for s in strides):
            raise ValueError(f"{where}: negative strides {strides} are not "
                             "supported")
        if shape and strides[-1] != 1 and shape[-1] > 1:
            self._stride_error(p, shape, strides)
        if p.output:
            _check_no_overlap(where, shape, strides)
        return view


class _Missing:
    """A positional argument the caller did not pass."""


_MISSING = _Missing()


def _install_fast_path(f):
    """Gives `f` a __call__ specialized to its parameters for the usual
    call: every memref argument a torch.Tensor of the parameter's dtype on
    f's device with a unit innermost stride, C's rows apart, every scalar a
    Python float or int, the stream None, an int or a stream object. Any
    other call goes to the general path (GemmFunction._call), which checks
    it and raises the error that applies. Unrolled per parameter, with the
    parameters as positional arguments: the per-call host time is the
    budget (docs/python.md, "Overhead"). The class of `f` becomes a
    subclass of GemmFunction holding that __call__."""
    torch = sys.modules["torch"]
    names = [f"x{p.index}" for p in f._params]
    memrefs = [p for p in f._params if p.memref]
    scalars = [p for p in f._params if not p.memref]
    env = {"T": _Tensor, "MISSING": _MISSING, "launch": f._launch,
           "present": lambda args: tuple(a for a in args
                                         if a is not _MISSING),
           "raw_stream": _torch_stream, "stream_handle": _stream_handle,
           "IndexError": IndexError, "DEV": f.device_index}
    for p in memrefs:
        env[f"D{p.index}"] = p.torch_dtype
    try:
        devices = torch.cuda.device_count()
    except AttributeError:
        devices = 0
    everything = ", ".join(names)
    body = [
        f"def __call__(self, {', '.join(n + '=MISSING' for n in names)}, "
        "*more, stream=None):",
        f"    if more or {names[-1]} is MISSING or (" + " or ".join(
            f"type(x{p.index}) is not T" for p in memrefs) + "):",
        f"        return self._call(present(({everything},)) + more, "
        "stream)",
    ]
    if scalars:
        body += [
            "    if (" + " or ".join(
                f"(type(x{p.index}) is not float and "
                f"type(x{p.index}) is not int)" for p in scalars) + "):",
            f"        return self._call(({everything},), stream)"]
    if devices == 1 and f.device_index is not None:
        # One device: a CUDA tensor is on it.
        body += ["    d = DEV"]
        where = [f"not x{p.index}.is_cuda" for p in memrefs]
    else:
        first = f"x{memrefs[0].index}"
        body += [f"    d = {first}.get_device()"]
        where = ([f"d != DEV"] if f.device_index is not None else []) + [
            f"x{p.index}.get_device() != d" for p in memrefs[1:]]
    body += [
        "    if (" + " or ".join(
            where + [f"x{p.index}.dtype is not D{p.index}" for p in memrefs])
        + "):",
        f"        return self._call(({everything},), stream)",
    ]
    body += [f"    s{p.index} = x{p.index}.stride()" for p in memrefs]
    body += [f"    h{p.index} = x{p.index}.shape" for p in memrefs]
    # C's rows (and batches) do not overlap: each outer stride at least
    # the extent of the dimensions inside it (a sufficient condition; the
    # general path decides the rest exactly).
    overlap = ["s2[-2] < h2[-1]"]
    if f._params[2].rank == 3:
        overlap.append("s2[0] < h2[1] * s2[1]")
    body += [
        "    try:",
        "        if " + " or ".join([f"s{p.index}[-1] != 1" for p in memrefs]
                                   + overlap) + ":",
        f"            return self._call(({everything},), stream)",
        "    except IndexError:  # a rank below the parameter's",
        f"        return self._call(({everything},), stream)",
        "    if stream is None:",
        "        handle = raw_stream(d)",
        "    elif type(stream) is int:",
        "        handle = stream",
        "    else:",
        "        handle = stream_handle(stream)",
        "    return launch([" + ", ".join(
            f"(x{p.index}.data_ptr(), h{p.index}, s{p.index})"
            if p.memref else f"x{p.index}" for p in f._params)
        + "], handle)",
    ]
    source = "\n".join(body) + "\n"
    exec(builtins.compile(source, f"<gemm_mlir call of {f.name}>", "exec"),
         env)
    f._fast_source = source
    f.__class__ = type("GemmFunction", (GemmFunction,),
                       {"__call__": env["__call__"],
                        "__module__": GemmFunction.__module__,
                        "__doc__": GemmFunction.__doc__})


def _scalar(where, p, x):
    """A scalar argument as a Python float or int."""
    if isinstance(x, (str, bytes, bytearray)):
        pass
    elif p.type in FLOAT_WIDTHS:
        try:
            return float(x)
        except (TypeError, ValueError):
            pass
    elif not isinstance(x, bool):
        try:
            return int(x.__index__())
        except (AttributeError, TypeError):
            pass
    raise TypeError(f"{where}: expected a number for a scalar of type "
                    f"{p.type}, got {type(x).__name__}")


def _check_no_overlap(where, shape, strides):
    """ValueError if two indices of an output view share an element (the
    kernels' writes would race)."""
    span = 1
    dims = [(size, stride) for size, stride in zip(shape, strides)
            if size > 1]
    for size, stride in sorted(dims, key=lambda d: d[1]):
        if stride < span:
            raise ValueError(
                f"{where}: the output's elements overlap (shape "
                f"{tuple(shape)}, strides {tuple(strides)}); pass a tensor "
                "whose elements are distinct")
        span = stride * (size - 1) + span
    return True


def _contiguous_strides(shape):
    """Row-major strides (elements) of `shape`."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides)


def _cai_fields(where, cai):
    """shape, typestr, (pointer, read-only) and strides of a
    __cuda_array_interface__ dict, checked: a producer's malformed dict
    raises TypeError naming the field, not a KeyError or unpacking error."""
    def bad(field, want):
        value = cai.get(field) if isinstance(cai, dict) else None
        return TypeError(f"{where}: __cuda_array_interface__ {field!r} must "
                         f"be {want}, got {value!r}")

    def ints(value):
        return (isinstance(value, (tuple, list))
                and all(isinstance(v, int) and not isinstance(v, bool)
                        for v in value))

    if not isinstance(cai, dict):
        raise TypeError(f"{where}: __cuda_array_interface__ must be a dict, "
                        f"got {type(cai).__name__}")
    shape, typestr = cai.get("shape"), cai.get("typestr")
    data, strides = cai.get("data"), cai.get("strides")
    if not ints(shape):
        raise bad("shape", "a tuple of ints")
    if not isinstance(typestr, str) or len(typestr) < 2:
        raise bad("typestr", "a type string such as '<f2'")
    if (not isinstance(data, (tuple, list)) or len(data) != 2
            or not isinstance(data[0], int) or isinstance(data[0], bool)):
        raise bad("data", "a (pointer, read-only) pair")
    if strides is not None and not (ints(strides)
                                    and len(strides) == len(shape)):
        raise bad("strides", f"None or {len(shape)} ints (bytes)")
    return tuple(shape), typestr, (data[0], bool(data[1])), strides


def _cai_view(where, p, x, cai):
    shape, typestr, (ptr, readonly), strides = _cai_fields(where, cai)
    etype = _CAI_TYPES.get(typestr[1:])
    if etype != p.type:
        raise TypeError(f"{where}: expected {p.type}, got typestr "
                        f"{typestr!r}" + ("" if etype is None
                                          else f" ({etype})"))
    item = _ITEM_SIZES[etype]
    if strides is None:
        strides = _contiguous_strides(shape)
    else:
        if any(s % item for s in strides):
            raise ValueError(f"{where}: strides {tuple(strides)} (bytes) are "
                             f"not multiples of the element size {item}")
        strides = tuple(s // item for s in strides)
    if p.output and readonly:
        raise ValueError(f"{where}: the output is read-only")
    framework = device = None
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(x, cupy.ndarray):
        framework, device = cupy, x.device.id
    return ptr, shape, strides, framework, device


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


_DL_CUDA, _DL_ROCM = 2, 10


def _dlpack_view(where, p, x, stream):
    """The view of a DLPack producer on a CUDA or ROCm device."""
    device_type, device_id = x.__dlpack_device__()
    if device_type not in (_DL_CUDA, _DL_ROCM):
        raise TypeError(f"{where}: expected a CUDA array, got a DLPack "
                        f"array on device type {device_type} (1 is the CPU)")
    handle = _stream_handle(stream) if stream is not None else 0
    # DLPack's stream argument: 1 is the legacy default stream.
    capsule = x.__dlpack__(stream=handle or 1)
    is_capsule = ctypes.pythonapi.PyCapsule_IsValid
    is_capsule.restype = ctypes.c_int
    is_capsule.argtypes = [ctypes.py_object, ctypes.c_char_p]
    if not is_capsule(capsule, b"dltensor"):
        raise TypeError(f"{where}: __dlpack__() returned "
                        f"{type(capsule).__name__}, not an unconsumed "
                        "'dltensor' capsule")
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    t = ctypes.cast(get(capsule, b"dltensor"),
                    ctypes.POINTER(_DLTensor)).contents
    etype = _DLPACK_TYPES.get((t.dtype.code, t.dtype.bits))
    if t.dtype.lanes != 1 or etype != p.type:
        raise TypeError(f"{where}: expected {p.type}, got DLPack type code "
                        f"{t.dtype.code} with {t.dtype.bits} bits"
                        + ("" if etype is None else f" ({etype})"))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
    else:
        strides = _contiguous_strides(shape)
    # The capsule (kept alive by the caller's array) is not consumed: its
    # deleter runs when it is collected, and the array owns the memory.
    return (t.data or 0) + t.byte_offset, shape, strides, None, device_id


def _framework_stream(framework):
    """CuPy's current stream for CuPy arrays, else the legacy default
    stream (0)."""
    if framework is not None:
        return framework.cuda.get_current_stream().ptr
    return 0


def _stream_handle(stream):
    """A CUstream handle from an int, a torch.cuda.Stream (.cuda_stream), a
    CuPy stream (.ptr) or an object with __cuda_stream__."""
    if type(stream) is int:
        return stream
    handle = getattr(stream, "cuda_stream", None)
    if handle is None:
        handle = getattr(stream, "ptr", None)
    if handle is None and hasattr(stream, "__cuda_stream__"):
        handle = stream.__cuda_stream__()[1]
    if not isinstance(handle, int) or isinstance(handle, bool):
        raise TypeError(f"stream: expected a CUDA stream (an int handle, a "
                        f"torch.cuda.Stream or a CuPy stream), got "
                        f"{type(stream).__name__}")
    return handle
