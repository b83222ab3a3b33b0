# -*- Python -*-
# lit configuration of the gemm-mlir regression suite.

import glob
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GEMM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gemm_obj_root, "test")
# Unit/ is the GoogleTest suite of its own lit.cfg.py (run by check-gemm).
config.excludes = ["CMakeLists.txt", "README.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "Unit"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%gemm_src_root", config.gemm_src_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.gemm_tools_dir, config.llvm_tools_dir]
tools = ["gemm-opt", "gemm-lds-model", "gemm-tune-space", "gemm-runtime-probe", "llvm-nm", "llvm-objdump", "llvm-readelf", "not", "count"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas (CUDA) assembles emitted PTX when present: tests of registers/spills
# are gated on it.
ptxas = config.ptxas if config.ptxas and os.path.exists(config.ptxas) else shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

if shutil.which("python3"):
    config.substitutions.append(("%python", shutil.which("python3")))

# A C++ compiler links executables from gemm-opt's host objects
# (scripts/build-executable.sh, test/Pipelines/host-executable-*.test).
config.substitutions.append(("%gemm_obj_root", config.gemm_obj_root))
cxx = shutil.which(os.environ.get("CXX", "c++"))
if cxx:
    config.available_features.add("cxx")
    config.substitutions.append(("%cxx", cxx))

# The runtime's Python module (runtime/CMakeLists.txt), when it was built:
# <build>/python/gemm_mlir/_gemm_runtime*.so, imported beside python/.
runtime_python = os.path.join(config.gemm_obj_root, "python")
if glob.glob(os.path.join(runtime_python, "gemm_mlir", "_gemm_runtime*.so")):
    config.available_features.add("gemm-runtime-python")
    config.substitutions.append(("%gemm_runtime_pythonpath",
                                 os.path.join(config.gemm_src_root, "python") + os.pathsep + runtime_python))

# The compiler's Python module (python/src), when it was built: with the
# runtime's, gemm_mlir.compile runs (test/Python/api-*.test).
gemm_pythonpath = os.path.join(config.gemm_src_root, "python") + os.pathsep + os.path.join(config.gemm_obj_root, "python")
config.substitutions.append(("%gemm_pythonpath", gemm_pythonpath))
if glob.glob(os.path.join(config.gemm_obj_root, "python", "gemm_mlir", "_gemm_compiler*.so")):
    config.available_features.add("gemm-compiler-python")
