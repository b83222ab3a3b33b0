"""The errors of gemm_mlir.compile and Problem (test/Python/api-errors.test):
each case prints the exception's type and message."""
import sys

import gemm_mlir
from gemm_mlir import Problem

cache = sys.argv[1]


def case(label, fn):
    try:
        fn()
        print(f"{label}: no error")
    except Exception as e:  # noqa: BLE001 (the test prints every kind)
        print(f"{label}: {type(e).__name__}: {e}")


def compile_(text, chip="sm_90a", **kwargs):
    return gemm_mlir.api.compile_to_folder(text, chip, cache_dir=cache,
                                           fmt="isa", **kwargs)


GOOD = """func.func @g(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
"""

# Problem fields.
case("layout", lambda: Problem(layout="tx"))
case("a type", lambda: Problem(a="f17"))
case("a not an operand", lambda: Problem(a="i32"))
case("c type", lambda: Problem(c="float128"))
case("epilogue step", lambda: Problem(epilogue="bias_gleu"))
case("epilogue list", lambda: Problem(epilogue=["bias", "swish"]))
case("bias", lambda: Problem(epilogue="bias", bias="diag"))
case("batched", lambda: Problem(batched="yes"))
case("name", lambda: Problem(name="1st"))
case("float epilogue, integer C",
     lambda: Problem(a="i8", epilogue="scale"))
case("integer bias, float value",
     lambda: Problem(epilogue="bias", bias_type="i32"))
case("aliases", lambda: print(
    "  ", Problem(a="float16", c="torch.bfloat16", acc="float").mlir
    .splitlines()[1].strip()))

# What the compiler refuses: the diagnostics are in the exception.
bad = GOOD.replace("acc(f32)", "acc(f32) junk")
case("bad text", lambda: compile_(bad))
static = """func.func @g(%a: memref<8x32xf16>, %b: memref<16x64xf16>, %c: memref<8x16xf16>) {
  gemm.matmul tn ins(%a, %b : memref<8x32xf16>, memref<16x64xf16>) outs(%c : memref<8x16xf16>) acc(f32)
  return
}
"""
case("verifier", lambda: compile_(static))
case("unknown chip", lambda: compile_(GOOD, chip="sm_77"))
case("not a chip", lambda: compile_(GOOD, chip="volta"))
case("amd chip", lambda: compile_(GOOD, chip="gfx1234"))
case("bad option", lambda: compile_(GOOD, options="bogus=1"))
case("output-dir option", lambda: compile_(GOOD, options="output-dir=/tmp"))
case("format", lambda: gemm_mlir.api.compile_to_folder(
    GOOD, "sm_90a", cache_dir=cache, fmt="elf"))
case("no gemm", lambda: compile_("func.func @f() {\n  return\n}\n"))
case("not text", lambda: compile_(b"bytes"))
case("problem and text",
     lambda: gemm_mlir.compile(Problem(), mlir=GOOD, chip="sm_90a"))
case("neither", lambda: gemm_mlir.compile(chip="sm_90a"))
case("not a problem", lambda: gemm_mlir.compile("tn", chip="sm_90a"))

# A CompileError keeps what failed.
try:
    compile_(bad)
except gemm_mlir.CompileError as e:
    print("fields:", e.pipeline, "|", e.options, "|", e.text == bad,
          "|", e.diagnostics.splitlines()[0])

# Loading: a folder with two functions needs a name.
two = GOOD + GOOD.replace("@g(", "@h(")
folder = compile_(two)
case("which function", lambda: gemm_mlir.load(folder, device=False))
case("no such function",
     lambda: gemm_mlir.load(folder, "k", device=False))
print("named:", gemm_mlir.load(folder, "h", device=False).name)
case("problem of another function", lambda: gemm_mlir.load(
    folder, "g", device=False, problem=Problem(epilogue="bias")))

# Arguments that used to end in raw internal errors (TypeError from a
# regex, KeyError, unpacking errors, a ctypes ValueError) or crossed into
# C++ cut short at a NUL.
case("epilogue not steps", lambda: Problem(epilogue=123))
case("epilogue bytes", lambda: Problem(epilogue=b"bias"))
case("chip not text", lambda: compile_(GOOD, chip=None))
case("text with NUL", lambda: compile_(GOOD + "\0junk"))
case("text not UTF-8", lambda: compile_(GOOD + "\udcff"))
case("option with NUL", lambda: compile_(GOOD, options={"dispatch": "false\0"}))
case("cache_dir not UTF-8", lambda: gemm_mlir.api.compile_to_folder(
    GOOD, "sm_90a", cache_dir=cache + "/\udcff", fmt="isa"))
case("load path with NUL",
     lambda: gemm_mlir.load(folder + "\0/x", "g", device=False))
case("load problem", lambda: gemm_mlir.load(folder, "g", device=False,
                                            problem="x"))


class Cai:
    def __init__(self, **fields):
        self.__cuda_array_interface__ = {
            "shape": (8, 8), "typestr": "<f2", "data": (1 << 30, False),
            "version": 3, **fields}


class NotCapsule:
    def __dlpack__(self, stream=None):
        return 5

    def __dlpack_device__(self):
        return (2, 0)


g = gemm_mlir.load(folder, "g", device=False)
for label, a in [("cai data None", Cai(data=None)),
                 ("cai data short", Cai(data=(1,))),
                 ("cai shape None", Cai(shape=None)),
                 ("cai strides text", Cai(strides="ab")),
                 ("cai strides rank", Cai(strides=(16,))),
                 ("cai typestr", Cai(typestr=2)),
                 ("dlpack not a capsule", NotCapsule())]:
    case(label, lambda a=a: g.plan(a, Cai(), Cai()))
