// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_86 | FileCheck %s --check-prefix=SM86
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_89 | FileCheck %s --check-prefix=SM89
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu=chip=sm_90a | FileCheck %s --check-prefix=SM90A
// RUN: gemm-opt --verify-roundtrip %s --convert-gemm-to-nvgpu="chip=sm_90 ptx-version=78" | FileCheck %s --check-prefix=PTX78

// The kernel module's #nvvm.target: the chip and its default PTX version
// from the target table (8.0; 8.4 from sm_89 on, for fp8 mma.sync), or the
// requested one.

// SM80: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// SM86: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_86", features = "+ptx80">]
// SM89: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_89", features = "+ptx84">]
// SM90A: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx84">]
// PTX78: gpu.module @gemm_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">]
func.func @f(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
