// RUN: not gemm-opt %s --convert-gemm-to-nvgpu=chip=gfx942 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu=chip=sm_99 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90 ptx-version=70" 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu=chip=sm_80 2>&1 | FileCheck %s --check-prefix=MODULE
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90a ptx-version=999" 2>&1 | FileCheck %s --check-prefix=PTX999
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90 ptx-version=79" 2>&1 | FileCheck %s --check-prefix=PTX79
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90 kernel-module=" 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90 kernel-module=a/b" 2>&1 | FileCheck %s --check-prefix=SLASH
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90 kernel-module=f" 2>&1 | FileCheck %s --check-prefix=CLASH
// RUN: not gemm-opt %s --convert-gemm-to-nvgpu="chip=sm_90 ptx-version=abc" 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: sed 's/gpu.container_module/gpu.container_module, gemm.target = #gemm.target<"gfx942">/' %s | not gemm-opt --convert-gemm-to-nvgpu=chip=sm_90 2>&1 | FileCheck %s --check-prefix=TARGET

// Bad options and conflicting modules are diagnosed, never an abort.

// AMD: error: convert-gemm-to-nvgpu: unknown NVIDIA chip 'gfx942' (expected one of sm_80, sm_86, sm_89, sm_90, sm_90a)
// UNKNOWN: error: convert-gemm-to-nvgpu: unknown NVIDIA chip 'sm_99'
// PTX: error: convert-gemm-to-nvgpu: PTX version 7.0 is too old for sm_90 (needs at least 7.8)
// MODULE: error: kernel module 'gemm_kernels' exists without an #nvvm.target for sm_80
// PTX999: error: convert-gemm-to-nvgpu: PTX version 999 (ptx-version is the ISA version times 10) is not one LLVM 22 emits (known: 32, 40,
// PTX79: error: convert-gemm-to-nvgpu: PTX version 79 {{.*}} is not one LLVM 22 emits
// EMPTY: error: convert-gemm-to-nvgpu: kernel-module must name the gpu.module receiving the kernels, got an empty name
// SLASH: error: convert-gemm-to-nvgpu: kernel-module 'a/b' must not contain '/' (serialization names files after it)
// CLASH: error: kernel-module 'f' names this 'func.func', not a gpu.module; choose another kernel-module
// VALUE: error: convert-gemm-to-nvgpu: invalid option value (options 'chip=sm_90 ptx-version=abc')
// TARGET: error: module declares gemm.target gfx942 but convert-gemm-to-nvgpu runs for sm_90
module attributes {gpu.container_module} {
  gpu.module @gemm_kernels [#nvvm.target<chip = "sm_90">] {}
  func.func @f(%a: memref<?x?xf16>, %c: memref<?x?xf32>) {
    gemm.matmul tn ins(%a, %a : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
    return
  }
}
