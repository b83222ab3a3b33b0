// RUN: not gemm-opt %s --convert-gemm-to-amdgpu=chip=sm_90 2>&1 | FileCheck %s --check-prefix=NVIDIA
// RUN: not gemm-opt %s --convert-gemm-to-amdgpu=chip=gfx1100 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not gemm-opt %s --gemm-to-hsaco=chip=gfx908 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not gemm-opt %s --gemm-to-hsaco="chip=gfx942 lld-path=/nonexistent/ld.lld" 2>&1 | FileCheck %s --check-prefix=LLD

// NVIDIA: error: convert-gemm-to-amdgpu: unknown AMD chip 'sm_90' (known: gfx90a, gfx942, gfx950)
// UNKNOWN: error: convert-gemm-to-amdgpu: unknown AMD chip 'gfx1100' (known: gfx90a, gfx942, gfx950)
// PIPELINE: unknown AMD chip 'gfx908' (known: gfx90a, gfx942, gfx950)
// LLD: ld.lld '/nonexistent/ld.lld' does not exist or is not executable
func.func @f(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>) acc(f32)
  return
}
