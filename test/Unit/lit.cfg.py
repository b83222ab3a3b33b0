# -*- Python -*-
# lit configuration of the C++ unit tests (unittests/): lit's GoogleTest
# format runs GemmUnitTests and reports every test case as a lit test of its
# own (as CIRCT's test/Unit does). check-gemm runs this suite beside the
# regression suite of test/lit.cfg.py.

import lit.formats

config.name = "GEMM-Unit"
config.suffixes = []
# GoogleTest executables are found by suffix in the tools directory.
config.test_exec_root = config.gemm_tools_dir
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "UnitTests")
