// RUN: gemm-opt %s -split-input-file --gemm-verify-binaries -verify-diagnostics

// Objects nobody can use fail the pipelines: an empty one (a "linker" that
// wrote nothing) and PTX calling libdevice functions that were not linked
// (serialization reports the missing libdevice and goes on).

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.binary 'kernels' holds an empty bin object for #rocdl.target<chip = "gfx942">}}
  gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx942">, bin = "">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{gpu.binary 'kernels' calls __nv_erff, which libdevice was not linked for: pass cuda-path=<a CUDA toolkit with nvvm/libdevice>}}
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.4\n.target sm_90\n.address_size 64\n.extern .func  (.param .b32 func_retval0) __nv_erff\n(\n\t.param .b32 __nv_erff_param_0\n)\n;\n.visible .entry k() { ret; }\n">]
}

// -----

// A complete object passes.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n">]
}
