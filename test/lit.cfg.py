# -*- Python -*-
# lit configuration of the gemm-mlir regression suite.

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
tools = ["gemm-opt", "gemm-lds-model", "gemm-tune-space", "llvm-objdump", "llvm-readelf", "not", "count"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas (CUDA) assembles emitted PTX when present: tests of registers/spills
# are gated on it.
ptxas = config.ptxas if config.ptxas and os.path.exists(config.ptxas) else shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

if shutil.which("python3"):
    config.substitutions.append(("%python", shutil.which("python3")))
