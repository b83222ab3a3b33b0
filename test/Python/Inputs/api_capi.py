"""The compiler C API (include/gemm-c/Compiler.h) itself
(test/Python/api-capi.test): through ctypes for what Python's module cannot
pass (null pointers), and compilations from several threads at once."""
import ctypes
import os
import sys
import threading

from gemm_mlir import _gemm_compiler, Problem

out = sys.argv[1]
# The library the module loaded.
with open("/proc/self/maps") as maps:
    path = next(line.split()[-1] for line in maps
                if "libGemmCompiler" in line)
lib = ctypes.CDLL(path)
lib.gemmCompile.argtypes = [ctypes.c_char_p] * 4 + [
    ctypes.POINTER(ctypes.c_void_p)]
lib.gemmCompilerVersion.restype = ctypes.c_char_p
lib.gemmFreeString.argtypes = [ctypes.c_void_p]
print("api version:", lib.gemmCompilerApiVersion(),
      _gemm_compiler.api_version())
print("version:", lib.gemmCompilerVersion().decode())

TEXT = Problem(layout="nn", a="f32", epilogue="relu").mlir.encode()


def call(label, text, pipeline, options, folder, diagnostics=True):
    d = ctypes.c_void_p()
    code = lib.gemmCompile(text, pipeline, options, folder,
                           ctypes.byref(d) if diagnostics else None)
    message = ctypes.string_at(d.value).decode() if d.value else None
    lib.gemmFreeString(d)
    print(f"{label}: {code} {message!r}")


call("null text", None, b"gemm-to-ptx", b"", None)
call("null pipeline", TEXT, None, b"", None)
call("empty pipeline", TEXT, b"", b"", None)
call("unknown pipeline", TEXT, b"gemm-to-spirv", b"", None)
call("output-dir option", TEXT, b"gemm-to-ptx", b"dispatch=false output-dir=x",
     b"")
call("quote in folder", TEXT, b"gemm-to-ptx", b"", b'/tmp/a"b')
call("no diagnostics asked", b"junk", b"gemm-to-ptx", b"", None,
     diagnostics=False)
call("null options, no folder", TEXT, b"gemm-to-ptx", None, None)
call("unwritable folder", TEXT, b"gemm-to-ptx", b"chip=sm_80",
     b"/proc/gemm-mlir-test")
call("written", TEXT, b"gemm-to-ptx", b"chip=sm_80",
     os.path.join(out, "one").encode())
print("files:", sorted(os.listdir(os.path.join(out, "one"))))
lib.gemmFreeString(None)
print("free null: ok")

# Compilations in parallel threads give what they give one at a time.
problems = [Problem(layout=layout, a=a, epilogue=e)
            for layout, a, e in [("tn", "f16", "bias_gelu"),
                                 ("nn", "bf16", "silu"),
                                 ("nt", "f32", "relu"),
                                 ("tt", "f16", "residual")]]
results = {}


def compile_one(i, where):
    code, diag = _gemm_compiler.compile(problems[i].mlir, "gemm-to-ptx",
                                        "chip=sm_90a dispatch=false",
                                        os.path.join(out, f"{where}{i}"))
    results[(where, i)] = (code, diag)


threads = [threading.Thread(target=compile_one, args=(i, "parallel"))
           for i in range(len(problems))]
for t in threads:
    t.start()
for t in threads:
    t.join()
for i in range(len(problems)):
    compile_one(i, "serial")
same = all(
    open(os.path.join(out, f"parallel{i}", "gemm_kernels.sm_90a.ptx")).read()
    == open(os.path.join(out, f"serial{i}", "gemm_kernels.sm_90a.ptx")).read()
    for i in range(len(problems)))
print("threads:", sorted(set(results.values())), "same output:", same)
