// RUN: not gemm-opt %s --gemm-to-ptx=chip=sm_90 2>&1 | FileCheck %s --check-prefix=NVIDIA
// RUN: sed 's/#rocdl.target<chip = "gfx90a">/#nvvm.target<chip = "sm_90">/' %s | not gemm-opt --gemm-to-hsaco=chip=gfx942 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: gemm-opt %s --gemm-check-kernel-modules=chip=gfx90a | FileCheck %s --check-prefix=OK

// Each pipeline lowers every gpu.module with its vendor's passes: a module of
// the other vendor made LLVM abort (gemm-to-ptx) or wrote the other vendor's
// binary (gemm-to-hsaco). gemm-check-kernel-modules fails them first.

// NVIDIA: error: gpu.module 'other' targets #rocdl.target<chip = "gfx90a">, but this NVIDIA pipeline builds #nvvm.target kernels for sm_90 only
// AMD: error: gpu.module 'other' targets #nvvm.target<chip = "sm_90">, but this AMD pipeline builds #rocdl.target kernels for gfx942 only
// OK: gpu.module @other
module attributes {gpu.container_module} {
  gpu.module @other [#rocdl.target<chip = "gfx90a">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
