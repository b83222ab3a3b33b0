// REQUIRES: ptxas
// RUN: rm -rf %t && gemm-opt --verify-roundtrip %s --gemm-to-cubin="chip=sm_90 output-dir=%t" | FileCheck %s
// RUN: ls %t | FileCheck %s --check-prefix=FILES

// gemm-to-cubin serializes to a cubin (ptxas from the CUDA toolkit).

// CHECK: gpu.binary @gemm_kernels
// CHECK-SAME: #gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx84">
// FILES: gemm_kernels.sm_90.cubin
// FILES: manifest.json
func.func @f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  gemm.matmul tn ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>) acc(f32)
  return
}
