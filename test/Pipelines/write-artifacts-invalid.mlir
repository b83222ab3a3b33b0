// RUN: rm -rf %t && gemm-opt %s -split-input-file --gemm-write-artifacts=output-dir=%t -verify-diagnostics -o /dev/null

// A gemm.kernels entry must describe a kernel of an object written: one the
// input carried (naming no gpu.binary, or a chip it has no object for) went
// into manifest.json and sent runtimes to files that do not exist.

// expected-error @below {{gemm.kernels entry 0 names module 'missing', which is not a gpu.binary of this module}}
module attributes {gpu.container_module, gemm.kernels = [{name = "k", module = "missing", chip = "sm_90"}]} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n">]
}

// -----

// expected-error @below {{gemm.kernels entry 1 names chip 'sm_80', for which gpu.binary 'kernels' has no object}}
module attributes {gpu.container_module, gemm.kernels = [{name = "k", module = "kernels", chip = "sm_90"}, {name = "k", module = "kernels", chip = "sm_80"}]} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n">]
}

// -----

// expected-error @below {{gemm.kernels entry 0 has no string 'module'}}
module attributes {gpu.container_module, gemm.kernels = [{name = "k", chip = "sm_90"}]} {
}

// -----

// expected-error @below {{gemm.kernels entry 0 is 7 : i64, not a kernel description}}
module attributes {gpu.container_module, gemm.kernels = [7]} {
}
